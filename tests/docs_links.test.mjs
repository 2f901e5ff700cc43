// Every relative link and #anchor of README.md, docs/*.md and examples/README.md leads somewhere:
// the file exists, and an anchor names a heading of its Markdown target by GitHub's rules (the
// same rules web/tools/markdown.mjs gives the pages it renders). Links to other sites must be
// well-formed http(s) or mailto URLs (they are not fetched). Nothing is skipped: a page the index
// links to before it is written fails here until it exists. Then the pages rendered for the
// planner (web/tools/render-docs.mjs) are checked the same way: every link between them and into
// web/ reaches a file that is served, and every anchor an element id of its page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSlugger, headings, links, parseBlocks, renderHtml, slugify } from '../web/tools/markdown.mjs';
import { renderDocs } from '../web/tools/render-docs.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = ['README.md', 'examples/README.md',
  ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

const anchorsCache = new Map();
function anchorsOf(repoPath) {
  if (!anchorsCache.has(repoPath)) {
    const blocks = parseBlocks(readFileSync(join(ROOT, repoPath), 'utf8'));
    anchorsCache.set(repoPath, new Set(headings(blocks, createSlugger()).map((h) => h.slug)));
  }
  return anchorsCache.get(repoPath);
}

// The problem with one link, or null when it leads somewhere.
function brokenLink(from, href) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) {
    if (!/^(https?:\/\/[^\s/]+|mailto:[^\s@]+@[^\s@]+$)/i.test(href)) return 'not a well-formed http(s) or mailto URL';
    return null;
  }
  const hash = href.indexOf('#');
  const path = hash < 0 ? href : href.slice(0, hash);
  const anchor = hash < 0 ? null : href.slice(hash + 1);
  const target = path ? posix.normalize(posix.join(posix.dirname(from), decodeURI(path))) : from;
  if (target.startsWith('..')) return 'leaves the repository';
  if (!existsSync(join(ROOT, target))) return `no such file: ${target}`;
  if (anchor === null) return null;
  if (!target.endsWith('.md')) return `an anchor into ${target}, which is not Markdown`;
  if (!anchorsOf(target).has(decodeURIComponent(anchor))) return `no heading "#${anchor}" in ${target}`;
  return null;
}

test('GitHub anchors: worked examples', () => {
  // As GitHub names them (github-slugger): punctuation dropped, each space a hyphen, lower case.
  assert.equal(slugify('Sites & costs'), 'sites--costs');
  assert.equal(slugify('`gpus[]`: the pool'.replace(/`/g, '')), 'gpus-the-pool');
  assert.equal(slugify('1F1B timeline'), '1f1b-timeline');
  assert.equal(slugify('Carbon, money and whole runs'), 'carbon-money-and-whole-runs');
  assert.equal(slugify('The bottleneck floor (issue 10, point 2)'), 'the-bottleneck-floor-issue-10-point-2');
  assert.equal(slugify('search.micro_batch_size'), 'searchmicro_batch_size');
  assert.equal(slugify('Grid carbon intensity, PUE and electricity price by region'),
    'grid-carbon-intensity-pue-and-electricity-price-by-region');
  const slug = createSlugger();
  assert.deepEqual(['Speed', 'Speed', 'Speed-1', 'Speed'].map(slug), ['speed', 'speed-1', 'speed-1-1', 'speed-2']);
  // Headings are named by their text: code spans and link text count, markers do not.
  const found = headings(parseBlocks('# A `b` [c](d.md) *e*\n## A `b` c e\n'));
  assert.deepEqual(found.map((h) => h.slug), ['a-b-c-e', 'a-b-c-e-1']);
});

test('the renderer escapes every text and drops unsafe links: no HTML from Markdown reaches a page', () => {
  const md = [
    '# Title <script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '<!-- a comment -->',
    'A [bad link](javascript:alert(1)), ![bad image](javascript:x) and `<b>code</b>` & "quotes".',
    '| a | b |', '| --- | --- |', '| <i>x</i> | `y\\|z` |',
    '```', '<script>in code</script>', '```',
  ].join('\n');
  const html = renderHtml(parseBlocks(md));
  assert.doesNotMatch(html, /<script|<img|<i>|<b>|<[^>]*\son\w+=|="javascript:|<!--/);
  assert.match(html, /<p>&lt;img src=x onerror=alert\(1\)&gt;<\/p>/, 'raw HTML shows as text');
  assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.match(html, /<code>&lt;b&gt;code&lt;\/b&gt;<\/code> &amp; &quot;quotes&quot;/);
  assert.match(html, /A bad link, bad image and/);
  assert.match(html, /<td><code>y\|z<\/code><\/td>/);
  assert.match(html, /<h1 id="[a-z0-9-]+">Title &lt;script&gt;/);
});

test('the link checker finds a broken file, anchor and URL', () => {
  assert.match(brokenLink('docs/README.md', 'no-such-page.md'), /no such file/);
  assert.match(brokenLink('docs/README.md', 'formats.md#no-such-heading'), /no heading/);
  assert.match(brokenLink('docs/README.md', '../package.json#x'), /not Markdown/);
  assert.match(brokenLink('docs/README.md', 'http//example'), /no such file/);
  assert.match(brokenLink('docs/README.md', 'https:/x'), /well-formed/);
  assert.equal(brokenLink('docs/README.md', 'formats.md#limits'), null);
  assert.equal(brokenLink('README.md', '#geotrain'), null);
});

test('every relative link and anchor of README.md, docs/*.md and examples/README.md leads somewhere', () => {
  const broken = [];
  let count = 0;
  for (const from of SOURCES) {
    for (const link of links(parseBlocks(readFileSync(join(ROOT, from), 'utf8')))) {
      count++;
      const problem = brokenLink(from, link.href);
      if (problem) broken.push(`${from}:${link.line}: [${link.text}](${link.href}): ${problem}`);
    }
  }
  assert.ok(count > 100, `only ${count} links found: is the reader still finding them?`);
  assert.deepEqual(broken, []);
});

test('examples/README.md lists every example file', () => {
  const listed = new Set(links(parseBlocks(readFileSync(join(ROOT, 'examples/README.md'), 'utf8'))).map((l) => l.href));
  const files = readdirSync(join(ROOT, 'examples')).filter((f) => f.endsWith('.json'));
  assert.ok(files.length > 0);
  assert.deepEqual(files.filter((f) => !listed.has(f)), [], 'examples missing from examples/README.md');
});

test('the docs as served with the page: every link reaches a served file, every anchor an id', async () => {
  const web = mkdtempSync(join(tmpdir(), 'docs-web-'));
  try {
    const target = join(web, 'docs');
    const pages = await renderDocs(ROOT, target);
    assert.ok(pages.includes('index.html') && pages.includes('formats.html'), pages.join(', '));
    const ids = new Map();
    const idsOf = (page) => {
      if (!ids.has(page)) ids.set(page, new Set([...readFileSync(join(target, page), 'utf8').matchAll(/ id="([^"]+)"/g)].map((m) => m[1])));
      return ids.get(page);
    };
    const broken = [];
    for (const page of pages) {
      const html = readFileSync(join(target, page), 'utf8');
      assert.doesNotMatch(html, /<script|<[^>]*\son[a-z]+=|(?:href|src)="\s*javascript:/i, `${page}: no script may reach a docs page`);
      for (const [, raw] of html.matchAll(/(?:href|src)="([^"]*)"/g)) {
        const href = raw.replace(/&amp;/g, '&');
        if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue;
        const [path, anchor] = href.split('#');
        const served = path ? posix.normalize(posix.join(posix.dirname(`docs/${page}`), path)) : `docs/${page}`;
        const inWeb = served.startsWith('docs/') ? join(target, served.slice(5)) : join(ROOT, 'web', served);
        if (served.startsWith('..') || !existsSync(inWeb) || statSync(inWeb).isDirectory()) {
          broken.push(`${page}: ${href}: not served`);
        } else if (anchor !== undefined && served.startsWith('docs/') && !idsOf(served.slice(5)).has(decodeURIComponent(anchor))) {
          broken.push(`${page}: ${href}: no such id`);
        }
      }
    }
    assert.deepEqual(broken, []);
  } finally {
    rmSync(web, { recursive: true, force: true });
  }
});
