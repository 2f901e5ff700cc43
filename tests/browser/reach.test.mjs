// The page, round three (issue 24), what a user must reach and read: the model's real head count in
// the editor, the plan and the launch (2), the page's own words in its messages (7), utilisation of
// added GPUs (8), every column and figure reachable at 1280 and 390 px (9), the keyboard (10), and
// the small things (11): elapsed times, money, axis names, whole select texts, captions, link
// labels, and the tour's scrolling and buttons on a phone.
// Run: node --test tests/browser/reach.test.mjs
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  isFocused, openExample, problemIn, REPO_ROOT, typeInto, useBrowser, validNow, waitStatus,
} from './helpers.mjs';

const browser = useBrowser({ requireStudies: true });
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

async function sizedPage(size) {
  const opened = await browser.freshPage();
  await opened.page.setViewportSize(size);
  return opened;
}

const shot = (locator, name) => locator.screenshot({ path: `${REPO_ROOT}/build/artifacts/${name}.png` });

// Selects whose chosen text is wider than the select (the text is cut short).
const cutSelects = (page, selector) => page.$$eval(selector, (selects) => selects.filter((s) => s.offsetParent).map((s) => {
  const probe = document.createElement('span');
  probe.style.cssText = `position:absolute;visibility:hidden;white-space:pre;font:${getComputedStyle(s).font}`;
  probe.textContent = s.selectedOptions[0]?.textContent ?? '';
  document.body.append(probe);
  const cut = probe.getBoundingClientRect().width + 30 > s.clientWidth;  // 30 px: padding and the arrow
  probe.remove();
  return cut ? `${s.id}: "${probe.textContent}" in ${s.clientWidth} px` : null;
}).filter(Boolean));

test('two 3-GPU nodes of a LLaMA-7B: the editor takes the head count, plans split whole heads, Megatron is told 32 (point 2)', async () => {
  const { context, page, errors } = await sizedPage(DESKTOP);
  await openExample(page, 'straggler-4gpu');
  await page.click('#tab-gpus');
  for (const id of ['a100-0', 'a100-1', 'a100-2', 't4']) await page.getByRole('button', { name: `Remove ${id}` }).click();
  for (let n = 0; n < 2; ++n) {
    await typeInto(page.locator('.node-add-count'), '3');
    await page.locator('.node-add-type').selectOption('A100-SXM-80GB');
    await page.getByRole('button', { name: 'Add node' }).click();
  }
  await page.click('#tab-model');
  await page.selectOption('#model-preset', { label: 'LLaMA-7B-like' });
  const heads = page.getByLabel('Attention heads');
  assert.equal(await heads.inputValue(), '32', 'the preset sets the model\'s real head count');
  await page.click('#tab-objective');
  await page.locator('[data-path="search.parallelism"]').selectOption('hybrid');
  await validNow(page);
  // The uniform baseline makes each node one group with its widest tensor degree: 3 without the
  // head count (the "TP 3 × DP 1"), none that splits 32 heads with it.
  await page.locator('#method').selectOption('uniform');
  await page.click('#plan-button');
  await waitStatus(page, 'Done', 60000);
  const stages = await page.textContent('#result-stages');
  assert.doesNotMatch(stages, /TP 3/, `no tensor degree splits 32 heads three ways: ${stages}`);
  await page.waitForSelector('#launch-tab-megatron');
  assert.doesNotMatch(await page.textContent('#launch-tab-megatron'), /cannot/);
  assert.match(await page.textContent('#launch-target'), /--num-attention-heads 32\b/, 'Megatron is told the model\'s own head count');
  // A head count that does not divide H is refused in the field, by name.
  await page.click('#tab-model');
  await typeInto(heads, '3');
  await page.waitForFunction(() => /whole heads/.test(document.querySelector('[data-path="model.num_attention_heads"]')?.closest('.field')?.textContent ?? ''));
  await shot(page.locator('#panel-model'), 'reach-heads-field');
  assert.deepEqual(errors, []);
  await context.close();
});

test('messages speak the page\'s words; Host and Device are in the GPU table; added GPUs get the pool\'s utilisation (points 7, 8)', async () => {
  const { context, page, errors } = await sizedPage(PHONE);
  await openExample(page, 'world-wide');  // every GPU at compute utilisation 0.45
  await page.click('#tab-gpus');
  const before = (await problemIn(page)).gpus.length;
  await typeInto(page.locator('.node-add-count'), '2');
  await page.locator('.node-add-type').selectOption('H100-SXM');
  await page.getByRole('button', { name: 'Add node' }).click();
  const added = (await problemIn(page)).gpus.slice(before);
  assert.deepEqual(added.map((g) => g.compute_util), [0.45, 0.45], 'an added H100 is not assumed at 100 % next to GPUs at 45 %');
  assert.match(await page.textContent('.node-add-note'), /compute utilisation 0\.45/);
  await page.locator('#method').selectOption('uniform');
  await page.click('#dock-plan-button');
  await waitStatus(page, 'Done', 60000);
  await page.waitForSelector('#launch-assumptions');
  const assumptions = await page.textContent('#launch-assumptions');
  assert.match(assumptions, /No Host \(GPU table\) for /);
  // The Megatron notes point at the editor's fields, not at the file format.
  const notes = (await page.locator('#launch-target .launch-note').allTextContents()).join(' ');
  assert.match(notes, /--num-attention-heads \d+ is assumed \(Attention heads is empty in the Model tab\)/);
  assert.doesNotMatch(notes, /problem file|training\.iterations/);
  // Four weights given: the λ note speaks of the problem, not of "the file".
  await page.click('#tab-objective');
  await typeInto(page.getByLabel('Carbon weight exactly', { exact: true }), '0.2');
  await page.waitForSelector('.lambda-note');
  assert.match(await page.textContent('.lambda-note'), /^The problem gives four weights \(above\): the single λ slider is not used\./);
  // No command-line words anywhere a person reads (the launch files themselves are for engines).
  const words = await page.evaluate(() => {
    const clone = document.body.cloneNode(true);
    for (const n of clone.querySelectorAll('pre, textarea, script, .launch-note')) n.remove();
    return clone.textContent;
  });
  assert.doesNotMatch(words, /--method|gpus\[\]\.|search\.parallelism|The file gives/);
  // The fields the message asks for exist: typing a host for the first GPU's node removes it from the list.
  await page.click('#tab-gpus');
  const problem = await problemIn(page);
  const host = page.getByLabel('Host of GPU 1', { exact: true });
  await typeInto(host, '10.0.0.7');
  await typeInto(page.getByLabel('Device of GPU 1', { exact: true }), '0');
  const after = await problemIn(page);
  assert.equal(after.gpus[0].host, '10.0.0.7');
  assert.equal(after.gpus[0].device, 0);
  assert.equal(problem.gpus.length, after.gpus.length);
  assert.deepEqual(errors, []);
  await context.close();
});

for (const [name, size] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  test(`${name}: every GPU column and every plan figure in reach, no view wider than its box (point 9)`, async () => {
    const { context, page, errors } = await sizedPage(size);
    await openExample(page, 'three-sites');
    await page.click('#tab-gpus');
    // Each column header, scrolled into view, is the element under its own centre: nothing covers it.
    const headers = page.locator('#panel-gpus .gpu-table thead th');
    for (let i = 0; i < await headers.count(); ++i) {
      const th = headers.nth(i);
      await th.scrollIntoViewIfNeeded();
      const covered = await th.evaluate((el) => {
        const b = el.getBoundingClientRect();
        const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
        return el.contains(hit) ? null : `${el.textContent} under ${hit?.className || hit?.tagName}`;
      });
      assert.equal(covered, null);
    }
    await shot(page.locator('#panel-gpus'), `reach-gpu-table-${name}`);
    await page.click(name === 'phone' ? '#dock-plan-button' : '#plan-button');
    await waitStatus(page, 'Done', 60000);
    // Drawings are drawn for their box: the pipeline's four stages and the topology in view at once.
    for (const view of ['pipeline', 'topology']) {
      const [scroll, client] = await page.locator(`#view-${view} .gt-scroll`).first().evaluate((s) => [s.scrollWidth, s.clientWidth]);
      assert.ok(scroll <= client + 1, `${view}: ${scroll} px in a ${client} px box`);
    }
    assert.equal(await page.locator('#view-pipeline .gt-pb-stage').count(), 4);
    await shot(page.locator('.view-pipeline'), `reach-pipeline-${name}`);
    // Tables wider than their box scroll with their first column kept; no table is capped short of its card.
    const table = await page.locator('#view-stages figure').evaluate((f) => [f.getBoundingClientRect().width, f.parentElement.clientWidth]);
    assert.ok(Math.abs(table[0] - table[1]) <= 1, `the Stages table takes its card: ${table}`);
    assert.equal(await page.locator('#view-stages tbody th').first().evaluate((th) => getComputedStyle(th).position), 'sticky');
    // "Hover an arrow" only where there are arrows, and link labels inside the drawing.
    const caption = await page.textContent('#view-topology figcaption');
    assert.match(caption, /Hover or focus an arrow/);
    const outside = await page.$$eval('#view-topology .gt-topo-edge-label', (labels) => labels.filter((t) => {
      const svg = t.ownerSVGElement.getBoundingClientRect();
      const b = t.getBoundingClientRect();
      return b.left < svg.left - 1 || b.right > svg.right + 1 || b.top < svg.top - 1 || b.bottom > svg.bottom + 1;
    }).length);
    assert.equal(outside, 0, 'no link label is cut by the drawing\'s edge');
    assert.deepEqual(await cutSelects(page, 'select#method, #studies select'), [], 'selects show their whole text');
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('keyboard: Enter on Plan keeps the focus, launch tabs take arrows, Import shows its focus, four bandwidths have four names (point 10)', async () => {
  const { context, page, errors } = await sizedPage(DESKTOP);
  await openExample(page, 'straggler-4gpu');
  await page.locator('#method').selectOption('uniform');
  await page.focus('#plan-button');
  await page.keyboard.press('Enter');
  await waitStatus(page, 'Done');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'plan-button', 'the focus stays on Plan, not on the body');
  assert.match(await page.textContent('#run-elapsed'), /^\d+ ms$/, 'a run under a second shows milliseconds (point 11)');

  await page.waitForSelector('#launch-tab-megatron');
  await page.focus('#launch-tab-megatron');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getAttribute('#launch-tab-torch', 'aria-selected'), 'true');
  assert.ok(await isFocused(page.locator('#launch-tab-torch')));
  await page.keyboard.press('End');
  assert.ok(await isFocused(page.locator('#launch-tab-flashflex')));
  await page.keyboard.press('ArrowRight');
  assert.ok(await isFocused(page.locator('#launch-tab-megatron')), 'the arrows wrap around');
  // The editor's tabs take the same keys (one handler serves both, tab-keys.js).
  await page.click('#tab-about');
  await page.keyboard.press('ArrowLeft');
  assert.ok(await isFocused(page.locator('#tab-json')), 'Left from the first editor tab wraps to the last');
  assert.equal(await page.isVisible('#panel-json'), true);
  await page.keyboard.press('Home');
  assert.ok(await isFocused(page.locator('#tab-about')));

  await page.focus('#share-button');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'import-file');
  assert.equal(await page.$eval('label[for="import-file"]', (l) => getComputedStyle(l).outlineStyle), 'solid', 'Import shows the focus');

  await page.click('#tab-network');
  for (const where of ['within a site', 'between sites', 'within a node', 'by default']) {
    assert.equal(await page.getByRole('textbox', { name: `Bandwidth ${where} (Gbps)`, exact: true }).count(), 1, where);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('small things: money with cents, axis names without a wrong unit, no "Hover an arrow" without arrows (point 11)', async () => {
  const { context, page, errors } = await sizedPage(DESKTOP);
  await openExample(page, 'world-wide');
  await page.click('#plan-button');
  await waitStatus(page, 'Done', 60000);
  assert.doesNotMatch(await page.textContent('#results'), /\$\d+\.\d(?!\d)/, 'no "$1.7" or "$70.6"');
  const axisNames = await page.$$eval('#study-axis-x option', (options) => options.map((o) => o.textContent));
  assert.ok(axisNames.every((n) => !/\((ms|J|s)\)/.test(n)), `axis names: ${axisNames}`);
  // A one-stage plan has no arrows: the caption does not ask to hover one.
  await openExample(page, 'straggler-4gpu');
  await page.click('#tab-gpus');
  const ids = (await problemIn(page)).gpus.map((g) => g.id);
  for (const id of ids.slice(1)) await page.getByRole('button', { name: `Remove ${id}` }).click();
  await validNow(page);
  await page.click('#plan-button');
  await page.waitForFunction(() => document.getElementById('result-stages')?.textContent.split('→').length === 1);
  await page.waitForFunction(() => !document.getElementById('results').classList.contains('is-stale'));
  assert.doesNotMatch(await page.textContent('#view-topology figcaption'), /Hover/);
  // An empty pool's first GPU starts at the examples' compute utilisation (point 8).
  await page.getByRole('button', { name: `Remove ${ids[0]}` }).click();
  await page.getByRole('button', { name: 'Add GPU' }).click();
  assert.equal((await problemIn(page)).gpus[0].compute_util, 0.45);
  assert.equal(await page.getByLabel('Compute util of GPU 1', { exact: true }).inputValue(), '0.45');
  assert.deepEqual(errors, []);
  await context.close();
});

test('phone tour: Next stays on screen and the stage table scrolls to a column edge (point 11)', async () => {
  const { context, page, errors } = await sizedPage(PHONE);
  const ready = (step) => page.waitForFunction((s) => document.getElementById('tour').dataset.step === s
    && document.getElementById('tour').dataset.stepState === 'ready', String(step), { timeout: 30000 });
  const nextInView = async (step) => {
    const next = await page.locator('#tour-next').boundingBox();
    assert.ok(next.y >= 0 && next.y + next.height <= PHONE.height, `step ${step}: Next in view: ${JSON.stringify(next)}`);
  };
  await page.click('#tour-button');
  await ready(1);
  await nextInView(1);  // a long step scrolls inside the panel, Next stays at its bottom edge
  await page.click('#tour-next');
  await ready(2);
  await nextInView(2);
  // The highlighted table is scrolled to a cell's edge (just after its kept first column), not to
  // the middle of a word.
  const cut = await page.evaluate(() => {
    const scroller = document.querySelector('#view-stages .gt-st-scroll');
    const row = scroller.querySelector('tr.is-bottleneck');
    const sticky = [...row.cells].filter((c) => getComputedStyle(c).position === 'sticky');
    const visibleLeft = scroller.getBoundingClientRect().left + sticky.reduce((w, c) => w + c.getBoundingClientRect().width, 0);
    const edges = [...row.cells].filter((c) => !sticky.includes(c)).map((c) => c.getBoundingClientRect().left);
    return Math.min(...edges.map((e) => Math.abs(e - visibleLeft)));
  });
  assert.ok(cut <= 1, `no cell cut in half (${cut} px from an edge)`);
  await page.screenshot({ path: `${REPO_ROOT}/build/artifacts/reach-tour-phone.png` });
  assert.deepEqual(errors, []);
  await context.close();
});
