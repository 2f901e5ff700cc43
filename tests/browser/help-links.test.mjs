// The page's "?" links to the docs (issue 27, point 3): every editor tab, the examples, the run
// panel, the plan and each of its views, the launch view and the studies have one; each is a real
// link with an accessible name, reached by Tab, readable (at least 9 px), clear of every other
// control at 1280 and 390 px, and opens a docs page served with the page (web/docs/, rendered by
// web/tools/render-docs.mjs) at a heading that exists. A click opens it in a new tab and leaves
// the page as it was.
// Run: node --test tests/browser/help-links.test.mjs
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { join } from 'node:path';
import { renderDocs } from '../../web/tools/render-docs.mjs';
import { REPO_ROOT, WEB_ROOT, openExample, screenshot, useBrowser, waitStatus } from './helpers.mjs';

const browser = useBrowser();
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const TABS = ['about', 'model', 'gpus', 'network', 'sites', 'objective', 'measured', 'json'];
const EXPECTED = [...TABS.map((t) => `editor-${t}`), 'examples', 'run', 'results',
  'view-pipeline', 'view-stages', 'view-timeline', 'view-topology', 'view-sites', 'view-comparison', 'launch', 'studies'];

// The docs are a build product (web/docs/): make sure they are there, as the examples are.
before(() => renderDocs(REPO_ROOT, join(WEB_ROOT, 'docs')));

// Every visible "?" with its box, font size and the visible controls its box overlaps.
const visibleHelpLinks = (page) => page.evaluate(() => {
  const CONTROLS = 'a[href], button, input, select, textarea, summary, [role="tab"], [tabindex]:not([tabindex="-1"])';
  const boxOf = (e) => e.getBoundingClientRect();
  // A heading or paragraph beside a float spans the float too; only its text must keep clear.
  const textBoxes = (e) => {
    const range = document.createRange();
    range.selectNodeContents(e);
    return [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
  };
  const overlaps = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const controls = [...document.querySelectorAll(CONTROLS)].filter(shown);
  return [...document.querySelectorAll('a.help-link')].filter(shown).map((link) => {
    const box = boxOf(link);
    return {
      topic: link.dataset.help,
      href: link.getAttribute('href'),
      name: link.getAttribute('aria-label'),
      target: link.getAttribute('target'),
      tabIndex: link.tabIndex,
      fontPx: parseFloat(getComputedStyle(link).fontSize),
      box: { left: box.left, top: box.top, width: box.width, height: box.height },
      inViewportWidth: box.left >= 0 && box.right <= document.documentElement.clientWidth,
      // Headings and text beside it too: a "?" must never sit on top of anything it shares a line with.
      covers: [
        ...controls.filter((other) => other !== link && !other.contains(link) && overlaps(box, boxOf(other))),
        ...[...document.querySelectorAll('h2, h3, legend, p.intro, label')].filter((other) => shown(other) && textBoxes(other).some((r) => overlaps(box, r))),
      ].map((other) => `${other.tagName.toLowerCase()}#${other.id || ''}.${other.className || ''} "${other.textContent.trim().slice(0, 30)}"`),
    };
  });
});

function checkLink(link, where) {
  assert.match(link.href, /^docs\/[a-z0-9-]+\.html(#[a-z0-9_-]+)?$/, `${where}: ${link.topic} links into the served docs`);
  assert.match(link.name ?? '', /^Help: \S/, `${where}: ${link.topic} has an accessible name`);
  assert.equal(link.target, '_blank', `${where}: ${link.topic} opens in a new tab`);
  assert.ok(link.tabIndex >= 0, `${where}: ${link.topic} is in the Tab order`);
  assert.ok(link.fontPx >= 9, `${where}: ${link.topic} text is ${link.fontPx} px`);
  assert.ok(link.box.width >= 20 && link.box.height >= 20, `${where}: ${link.topic} is a ${link.box.width}x${link.box.height} target`);
  assert.ok(link.inViewportWidth, `${where}: ${link.topic} lies inside the page's width`);
  assert.deepEqual(link.covers, [], `${where}: ${link.topic} overlaps other controls or text`);
}

// Plans the three-site example so that the plan, its views and the launch view are shown.
async function planExample(page, size) {
  await openExample(page, 'three-sites');
  await page.click(size === PHONE ? '#dock-plan-button' : '#plan-button');
  await waitStatus(page, 'Done', 60000);
  await page.waitForSelector('#launch-ranks tbody tr');
}

for (const [name, size] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  test(`${name}: every section and view has a "?" that is a readable link clear of other controls`, async () => {
    const { context, page, errors } = await browser.freshPage();
    await page.setViewportSize(size);
    await planExample(page, size);
    const seen = new Map();
    for (const tab of TABS) {
      await page.click(`#tab-${tab}`);
      for (const link of await visibleHelpLinks(page)) {
        checkLink(link, `${name}, tab ${tab}`);
        seen.set(link.topic, link.href);
      }
    }
    assert.deepEqual(EXPECTED.filter((t) => !seen.has(t)), [], 'sections without a "?"');
    await screenshot(page, `help-links-${name}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('each "?" opens an existing heading of a docs page served with the page', async () => {
  const { context, page, errors } = await browser.freshPage();
  await planExample(page, DESKTOP);
  const hrefs = await page.$$eval('a.help-link', (links) => [...new Set(links.map((l) => l.getAttribute('href')))]);
  assert.ok(hrefs.length >= 15, hrefs.join(' '));
  const docs = await context.newPage();
  for (const href of hrefs) {
    const url = new URL(href, page.url()).href;
    await docs.goto('about:blank');  // each a load of its own, not a jump within the last page
    const response = await docs.goto(url);
    assert.equal(response.status(), 200, `${href}: HTTP ${response.status()}`);
    const anchor = decodeURIComponent(new URL(url).hash.slice(1));
    const found = await docs.evaluate((id) => ({
      title: document.title,
      heading: id ? document.getElementById(id)?.tagName ?? null : document.querySelector('h1')?.tagName ?? null,
      scripts: document.scripts.length,
    }), anchor);
    assert.match(found.heading ?? '', /^H[1-6]$/, `${href}: no heading with that id`);
    assert.equal(found.scripts, 0, `${href}: a docs page runs no script`);
    assert.match(found.title, /GeoTrain docs$/);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('Tab reaches a "?", Enter opens its section in a new tab, and the page stays as it was', async () => {
  const { context, page, errors } = await browser.freshPage();
  await page.setViewportSize(DESKTOP);
  await page.click('#tab-gpus');
  // From the GPUs tab itself, Tab goes into its panel: the "?" comes first.
  await page.focus('#tab-gpus');
  await page.keyboard.press('Tab');
  const focused = await page.evaluate(() => document.activeElement?.dataset.help ?? document.activeElement?.tagName);
  assert.equal(focused, 'editor-gpus', 'the first Tab stop of the GPUs panel is its "?"');
  const before = await page.inputValue('#problem-json');
  const [docs] = await Promise.all([context.waitForEvent('page'), page.keyboard.press('Enter')]);
  await docs.waitForLoadState();
  assert.match(docs.url(), /\/docs\/formats\.html#gpus-the-pool$/);
  assert.equal(await docs.evaluate(() => document.querySelector(':target')?.textContent), 'gpus[]: the pool');
  assert.ok(await docs.evaluate(() => document.querySelector(':target').getBoundingClientRect().top < innerHeight), 'the section is in view');
  await screenshot(docs, 'help-links-docs-page');
  // A link in the docs goes back to another docs page, offline, from the same server.
  await docs.click('a[href="cli.html#geotrain-validate"]');
  assert.match(docs.url(), /\/docs\/cli\.html#geotrain-validate$/);
  assert.equal(await page.inputValue('#problem-json'), before, 'the page keeps its problem');
  assert.equal(await page.evaluate(() => document.querySelector('[aria-selected="true"][role="tab"]')?.id), 'tab-gpus');
  assert.deepEqual(errors, []);
  await context.close();
});
