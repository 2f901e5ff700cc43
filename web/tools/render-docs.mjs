#!/usr/bin/env node
// Renders the project's docs (docs/*.md, and every Markdown file of the repository they link to,
// followed link by link) into static HTML pages under web/docs/, so that the page's "?" links open
// them offline, from the same server as the page. docs/X.md becomes web/docs/X.html (docs/README.md
// the index, web/docs/index.html); any other file P.md of the repository becomes web/docs/P.html.
// Links between rendered files point at their pages, links into web/ at the page's own files,
// anchors keep GitHub's names; a link to a file that is not served (a source file, say) shows its
// text only. Text is escaped (web/tools/markdown.mjs): no HTML from the Markdown reaches the page.
// usage: node web/tools/render-docs.mjs [REPO_ROOT] [TARGET_DIR]
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSlugger, escapeHtml, headings, links, parseBlocks, renderHtml } from './markdown.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const DEFAULT_ROOT = resolve(here, '../..');

const toPosix = (path) => path.split(sep).join('/');

// Where a repository Markdown file is served, relative to web/docs/.
export function outputPath(repoPath) {
  if (repoPath === 'docs/README.md') return 'index.html';
  if (repoPath.startsWith('docs/')) return repoPath.slice(5).replace(/\.md$/, '.html');
  return repoPath.replace(/\.md$/, '.html');
}

// A link target split into its repository path (posix, relative to the root) and its #anchor.
export function resolveLink(fromRepoPath, href) {
  const hash = href.indexOf('#');
  const path = hash < 0 ? href : href.slice(0, hash);
  const anchor = hash < 0 ? '' : href.slice(hash + 1);
  if (!path) return { repoPath: fromRepoPath, anchor };
  const joined = posix.normalize(posix.join(posix.dirname(fromRepoPath), decodeURI(path)));
  return { repoPath: joined.replace(/\/$/, ''), anchor };
}

const isExternal = (href) => /^[a-z][a-z0-9+.-]*:/i.test(href);

// The docs pages and every repository .md file they reach through links.
async function collect(root) {
  const start = (await readdir(join(root, 'docs'))).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`);
  const files = new Map();
  const queue = [...start];
  while (queue.length) {
    const repoPath = queue.shift();
    if (files.has(repoPath)) continue;
    const text = await readFile(join(root, repoPath), 'utf8');
    const blocks = parseBlocks(text);
    files.set(repoPath, blocks);
    for (const link of links(blocks)) {
      if (isExternal(link.href) || link.image) continue;
      const { repoPath: target } = resolveLink(repoPath, link.href);
      if (target.endsWith('.md') && !target.startsWith('..') && !files.has(target) && existsSync(join(root, target)))
        queue.push(target);
    }
  }
  return files;
}

function page({ title, body, repoPath, cssHref, indexHref, appHref }) {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'">
  <title>${escapeHtml(title)} · GeoTrain docs</title>
  <link rel="stylesheet" href="${escapeHtml(cssHref)}">
</head>
<body>
  <nav class="docs-nav" aria-label="Documentation"><a href="${escapeHtml(appHref)}">GeoTrain planner</a> · <a href="${escapeHtml(indexHref)}">Docs index</a> · <span class="docs-source">${escapeHtml(repoPath)}</span></nav>
  <main class="docs">
${body}
  </main>
</body>
</html>
`;
}

export async function renderDocs(root = DEFAULT_ROOT, target = join(root, 'web', 'docs')) {
  const files = await collect(root);
  await rm(target, { recursive: true, force: true });
  const written = [];
  for (const [repoPath, blocks] of files) {
    const out = outputPath(repoPath);
    const outDir = posix.dirname(out);
    const fromOut = (servedPath) => posix.relative(outDir, servedPath) || posix.basename(servedPath);
    const resolveHref = (href, { image }) => {
      if (isExternal(href)) return image ? null : href;
      if (href.startsWith('#')) return href;
      const { repoPath: linked, anchor } = resolveLink(repoPath, href);
      const suffix = anchor ? `#${anchor}` : '';
      if (files.has(linked)) return fromOut(outputPath(linked)) + suffix;
      // A file of the page itself (web/...), served one level above web/docs/.
      if (linked.startsWith('web/') && !linked.startsWith('web/docs/') && existsSync(join(root, linked)))
        return fromOut(`../${linked.slice(4)}`) + suffix;
      return null;
    };
    const title = headings(blocks)[0]?.text || repoPath;
    const body = renderHtml(blocks, { resolveHref, slugger: createSlugger() });
    const html = page({
      title, body, repoPath,
      cssHref: fromOut('../docs.css'), indexHref: fromOut('index.html'), appHref: fromOut('../index.html'),
    });
    await mkdir(join(target, dirname(out)), { recursive: true });
    await writeFile(join(target, out), html);
    written.push(out);
  }
  return written.sort();
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [root, target] = process.argv.slice(2);
  const rootDir = root ? resolve(root) : DEFAULT_ROOT;
  renderDocs(rootDir, target ? resolve(target) : undefined)
    .then((pages) => console.log(`rendered ${pages.length} doc pages into ${toPosix(relative(process.cwd(), target ? resolve(target) : join(rootDir, 'web', 'docs'))) || '.'}`))
    .catch((error) => {
      console.error(`render-docs: ${error.message}`);
      process.exit(1);
    });
}
