// The page, round three (issue 24), what a user would believe and act on: study results and plans
// of another problem cleared or marked (1), a study point's plan brought into view and back (6), the
// references' plan and the comparison's metis-improved named apart (3), proven gaps in words that
// cannot read as closeness (4), no winner among ties (5), unpriced GPUs named beside the money (8).
// Run: node --test tests/browser/trust.test.mjs
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import {
  callModule, openExample, REPO_ROOT, typeInto, useBrowser, waitStatus,
} from './helpers.mjs';
import { roundDown, roundUp } from '../../web/js/gap-text.js';
import { gapScopeText } from '../../web/js/results.js';

const browser = useBrowser({ requireStudies: true });
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const readExample = async (name) => JSON.parse(await readFile(`${REPO_ROOT}/examples/${name}.json`, 'utf8'));

async function sizedPage(size) {
  const opened = await browser.freshPage();
  await opened.page.setViewportSize(size);
  return opened;
}

async function runStudy(page, kind, { seeds } = {}) {
  await page.selectOption('#study-kind', kind);
  if (seeds !== undefined) await page.fill('#study-seeds', seeds);
  await page.click('#study-run');
  await page.waitForFunction(() => document.getElementById('study-status').textContent.startsWith('Done'), null, { timeout: 60000 });
}

// What the person sees: the window, not the whole page.
const viewShot = (page, name) => page.screenshot({ path: `${REPO_ROOT}/build/artifacts/${name}.png` });

const inView = (page, selector) => page.evaluate((sel) => {
  const box = document.querySelector(sel).getBoundingClientRect();
  return box.top >= -2 && box.top < window.innerHeight - 40;
}, selector);

test('a study point brings its plan into view and back; another problem clears the study, edits mark it (points 1, 6)', async () => {
  const { context, page, errors } = await sizedPage(DESKTOP);
  await openExample(page, 'straggler-4gpu');
  await runStudy(page, 'subset');
  const k3 = page.getByRole('button', { name: /^Show the plan for k = 3 GPUs/ });
  await k3.click();
  await page.waitForFunction(() => /k = 3 GPUs/.test(document.getElementById('result-origin').textContent));
  // The plan views 3,500 px above come to the user, their heading focused; a way back is offered.
  await page.waitForFunction(() => document.activeElement?.id === 'results-title');
  assert.ok(await inView(page, '#results'), 'the plan is scrolled into view');
  await viewShot(page, 'trust-study-plan-revealed');
  await page.getByRole('button', { name: 'Back to the study' }).click();
  assert.ok(await k3.evaluate((el) => el === document.activeElement), 'back on the point that was chosen');
  assert.ok(await k3.evaluate((el) => { const b = el.getBoundingClientRect(); return b.top >= 0 && b.bottom <= window.innerHeight; }));

  // An edit: the study's results and the plan from it say they are out of date.
  await page.click('#tab-about');
  await typeInto(page.locator('#panel-about').getByLabel('Name'), 'straggler, edited');
  await page.waitForSelector('#study-stale:not([hidden])');
  assert.equal(await page.isVisible('#result-stale'), true, 'the plan from the study is marked too');
  // Typing the name back: they belong to the problem again.
  await typeInto(page.locator('#panel-about').getByLabel('Name'), 'straggler-4gpu');
  await page.waitForSelector('#study-stale', { state: 'hidden' });
  assert.equal(await page.isVisible('#result-stale'), false);

  // Another problem opened: no k to choose, no straggler plan in the plan views.
  await openExample(page, 'three-sites');
  await page.waitForFunction(() => document.getElementById('study-output').childElementCount === 0);
  assert.match(await page.textContent('#study-status'), /cleared: another problem was opened/);
  assert.equal(await page.isHidden('.study-progress'), true, 'no "4 of 4 jobs" left from the other problem');
  assert.equal(await page.getByRole('button', { name: /^Show the plan for k = / }).count(), 0);
  assert.equal(await page.isHidden('#results'), true, 'the straggler plan is gone from the plan views');
  assert.equal(await page.isHidden('#launch-view'), true);
  await page.locator('#studies').scrollIntoViewIfNeeded();
  await viewShot(page, 'trust-study-cleared');
  assert.deepEqual(errors, []);
  await context.close();
});

test('proven gaps as "at most N× the optimum", and why hybrid shows another (point 4)', async () => {
  const { context, page, errors } = await sizedPage(DESKTOP);
  await openExample(page, 'straggler-4gpu');
  await page.locator('#method').selectOption('metis');
  await page.click('#plan-button');
  await waitStatus(page, 'Done');
  // The module's own figures: the optimum is at least objective (1 - gap), so the plan is at most
  // 1 / (1 - gap) times it (3.2 on this pool, where the page once said "within 68.7 %").
  const problem = await readExample('straggler-4gpu');
  const metis = await callModule('solve', problem, { method: 'metis' });
  const factor = 1 / (1 - metis.gap);
  assert.ok(factor > 3 && factor < 3.4, `METIS-style is about 3.2 times the optimum here: ${factor}`);
  const method = await page.textContent('#result-method');
  assert.doesNotMatch(method, /within/);
  // Rounded so that both claims stay true: the factor up, the bound down.
  assert.equal(method, `metis (proven: its objective is at most ${roundUp(factor, 3)}× the optimum; `
    + `the optimum is at least ${roundDown(metis.objective * (1 - metis.gap), 4)})`);
  assert.match(await page.textContent('#result-gap-scope'), /one GPU per stage/);
  // Hybrid bounds a larger space (stage groups): the page says so next to the gap.
  await page.click('#tab-objective');
  await page.locator('[data-path="search.parallelism"]').selectOption('hybrid');
  await page.click('#plan-button');
  await page.waitForFunction(() => /stage groups/.test(document.getElementById('result-gap-scope')?.textContent ?? ''));
  assert.match(await page.textContent('#result-gap-scope'), /larger gap than under pipeline/);
  assert.doesNotMatch(await page.textContent('#result-method'), /within/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a replica plan\'s gap says its bound covers every number of replicas (point 4)', async () => {
  // The module's own replica result (search.replicas 2 on three-sites): its bound is the pool's,
  // valid for one pipeline and any replicas (docs/replicas.md), not the pipeline space's.
  const problem = await readExample('three-sites');
  problem.search = { ...(problem.search ?? {}), replicas: 2 };
  const result = await callModule('solve', problem, { method: 'memetic' });
  assert.ok(Array.isArray(result.replicas) && Number.isFinite(result.gap), 'a replica result with a gap');
  assert.match(gapScopeText(result), /^The bound holds for every plan of this pool, one pipeline or several replicas/);
});

test('T_ref\'s plan and the comparison\'s metis-improved row never share a name with different figures (point 3)', async () => {
  const { context, page, errors } = await sizedPage(DESKTOP);
  await openExample(page, 'scaling pool, 12 GPUs');
  await page.click('#plan-button');
  await waitStatus(page, 'Done');
  const row = page.locator('#view-comparison tr[data-method="metis-improved"]');
  await row.waitFor({ timeout: 30000 });
  const references = await page.textContent('#result-references');
  assert.match(references, /from the reference plan: metis-improved at seed 0 with one GPU per stage and u = \d+$/);
  // On this 12-GPU pool the comparison's metis-improved draws its subsets with the problem's seed 1:
  // another plan than the reference's (2.45 s against T_ref 2.24 s when the issue was filed).
  const problem = await readExample('scaling-12gpu');
  const improved = await callModule('solve', problem, { method: 'metis-improved' });
  assert.notEqual(improved.iteration_ms, improved.t_ref_ms, 'the two plans differ on this pool');
  assert.equal(await row.locator('th').textContent(), 'metis-improved, seed 1', 'the row says what it searched');
  assert.match(await page.textContent('#view-comparison figcaption'),
    /T_ref \([\d.]+ s\) and E_ref come from the reference plan, metis-improved at seed 0 with one GPU per stage and u = \d+; the metis-improved row is another plan \(seed 1\), hence [\d.]+ s\./);
  await page.locator('#view-comparison').screenshot({ path: `${REPO_ROOT}/build/artifacts/trust-references.png` });
  assert.deepEqual(errors, []);
  await context.close();
});

test('where to train names no cleanest or cheapest site when every choice is 0 g and $0 (point 5)', async () => {
  const { context, page, errors } = await sizedPage(PHONE);
  await openExample(page, 'three-sites');
  await runStudy(page, 'where', { seeds: '1' });
  for (const pick of ['cleanest', 'cheapest']) {
    const text = await page.textContent(`#study-output .st-where-pick[data-pick="${pick}"] dd`);
    assert.match(text, /^no difference: all (0 g CO2e|\$0)$/, `${pick}: ${text}`);
  }
  const marks = await page.locator('#study-output .st-where-marks').allTextContents();
  assert.ok(marks.every((m) => !/cleanest|cheapest/.test(m)), `no winner tags among ties: ${marks}`);
  // Times differ, so the fastest is still named.
  assert.equal(await page.locator('#study-output .st-where-pick[data-pick="fastest"] button').count(), 1);
  // The table scrolls on a phone; its caption wraps inside what is in view (point 9), scrolled or not.
  for (const left of [0, 200]) {
    const cut = await page.$eval('#study-output .st-table caption', (c, x) => {
      const scroller = c.closest('.gt-st-scroll');
      scroller.scrollLeft = x;
      return c.getBoundingClientRect().right - scroller.getBoundingClientRect().right;
    }, left);
    assert.ok(cut <= 1, `the caption runs ${cut} px past the table's box`);
  }
  await page.locator('#studies').screenshot({ path: `${REPO_ROOT}/build/artifacts/trust-where-ties-phone.png` });
  assert.deepEqual(errors, []);
  await context.close();
});

test('GPUs the plan uses without a price are named beside the run\'s money; shares add up (points 8, 11)', async () => {
  const { context, page, errors } = await sizedPage(PHONE);
  await openExample(page, 'three-sites');
  await page.click('#tab-gpus');
  await page.click('#fill-gpu-prices');  // the A30s have no catalogue price: they stay empty, named
  assert.equal(await page.textContent('#gpu-no-price'), 'No price for g3, g4: counted as $0/h.');
  await page.click('#dock-plan-button');
  await waitStatus(page, 'Done');
  const note = await page.textContent('#result-unpriced');
  const plan = JSON.parse(await page.inputValue('#problem-json'));
  const used = (await page.locator('#view-stages tbody tr .gt-st-id').allTextContents());
  const unpriced = plan.gpus.filter((g) => used.includes(g.id) && !(g.price_per_hour > 0)).map((g) => g.id);
  assert.ok(unpriced.length > 0, 'the plan uses a GPU without a price');
  assert.match(note, new RegExp(`^No rental price for ${unpriced.join(', ')}: .*counted as \\$0/h`));
  // Money shows its cents, and the per-site cost shares add up to 100 %.
  assert.doesNotMatch(await page.textContent('#results'), /\$\d+\.\d(?!\d)/, 'no "$1.7"');
  const shares = await page.$$eval('#view-sites .gt-sc-row[data-metric="cost"] .gt-sc-share', (nodes) => nodes.map((n) => n.dataset.share));
  const sum = shares.reduce((a, s) => a + (s === '<1 %' ? 0 : Number(s.replace(' %', ''))), 0);
  if (shares.length) assert.equal(sum, 100, `shares ${shares}`);
  await page.locator('#results').screenshot({ path: `${REPO_ROOT}/build/artifacts/trust-unpriced-phone.png` });
  assert.deepEqual(errors, []);
  await context.close();
});
