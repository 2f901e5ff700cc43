// The Studies panel in a real (headless) Chromium with the real module and worker pool: the
// energy-time trade-off on the paper's Table 7 pool (points, frontier, knee, table, plan on click),
// cancelling mid-study, a cross-site latency sweep, the subset sweep and the split; a trade-off of
// carbon against money and the where-to-train study on the world-wide example (issue 11 point 5).
// Run: node --test tests/browser/studies.test.mjs
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  ARTIFACTS, openExample, REPO_ROOT, screenshot, typeInto, useBrowser,
} from './helpers.mjs';

const { freshPage } = useBrowser({ requireStudies: true });

async function runStudy(page, { kind, lambdas, values, seeds, method = 'memetic', timeLimit = '' }) {
  await page.selectOption('#study-kind', kind);
  if (lambdas !== undefined) await page.fill('#study-lambdas', lambdas);
  if (values !== undefined) await page.fill('#study-values', values);
  if (seeds !== undefined) await page.fill('#study-seeds', seeds);
  await page.selectOption('#study-method', method);
  await page.fill('#study-time-limit-s', timeLimit);
  await page.click('#study-run');
}

const waitStudyStatus = (page, prefix, timeout = 60000) => page.waitForFunction(
  (p) => document.getElementById('study-status').textContent.startsWith(p), prefix, { timeout });

// [{t, e, ...data}] from the chart's points.
const chartPoints = (page, selector) => page.$$eval(selector, (nodes) => nodes.map((n) => ({
  job: n.dataset.job, lambda: Number(n.dataset.lambda), t: Number(n.dataset.t), e: Number(n.dataset.e),
  frontier: n.dataset.frontier === 'true', dominated: n.dataset.dominated === 'true',
})));

// The whole page, and the Studies panel on its own.
async function shot(page, name) {
  await screenshot(page, name);
  await page.locator('#studies').screenshot({ path: join(ARTIFACTS, `${name}-panel.png`) });
}

const dominates = (a, b) => a.t <= b.t && a.e <= b.e && (a.t < b.t || a.e < b.e);

test('trade-off study on the Table 7 pool: points, frontier, knee, table, and a point\'s plan', async (t) => {
  const { context, page, errors } = await freshPage();
  await openExample(page, 'table7-14gpu');
  const lambdas = [0, 0.3, 0.5, 0.8, 1];
  await runStudy(page, { kind: 'pareto', lambdas: lambdas.join(', '), seeds: '2' });
  await waitStudyStatus(page, 'Done');
  const progress = await page.textContent('#study-progress-text');
  t.diagnostic(`progress: ${progress}`);
  const [done, total] = /^(\d+) of (\d+) jobs/.exec(progress).slice(1).map(Number);
  assert.equal(done, total, 'every job finished');
  assert.ok(total >= lambdas.length * 2, `${total} jobs for 5 lambdas × 2 seeds`);
  const workers = Number(/(\d+) workers?$/.exec(progress)[1]);
  const threads = await page.evaluate(() => navigator.hardwareConcurrency);
  assert.equal(workers, Math.min(threads, total, 8), 'the pool has min(hardware threads, jobs, 8) workers');

  // Every lambda × seed plan is a point; the frontier is a line; the knee and the reference are marked.
  const points = await chartPoints(page, '#study-output .st-point[data-job]');
  assert.equal(points.length, lambdas.length * 2);
  assert.deepEqual([...new Set(points.map((p) => p.lambda))].sort(), lambdas);
  const frontier = points.filter((p) => p.frontier);
  assert.ok(frontier.length >= 3, `${frontier.length} frontier points`);
  assert.equal(await page.locator('#study-output polyline.st-frontier').count(), 1);
  assert.equal(await page.locator('#study-output .st-reference-mark').count(), 1);
  // Mutually non-dominated frontier; every point marked dominated has a point that dominates it.
  for (const a of frontier) for (const b of frontier) assert.ok(!dominates(a, b), `frontier ${a.job} dominates ${b.job}`);
  for (const p of points.filter((q) => q.dominated)) assert.ok(points.some((q) => dominates(q, p)), `${p.job} is marked dominated`);
  for (const p of points.filter((q) => !q.dominated)) assert.ok(!points.some((q) => dominates(q, p)), `${p.job} is dominated but not marked`);

  // The knee, worked out here from the frontier shown (Kneedle: normalise both axes over the frontier,
  // take the largest distance below the line joining the extremes, here x + y = 1).
  const knee = (await chartPoints(page, '#study-output .st-knee-mark'))[0];
  const [t0, t1] = [Math.min(...frontier.map((p) => p.t)), Math.max(...frontier.map((p) => p.t))];
  const [e0, e1] = [Math.min(...frontier.map((p) => p.e)), Math.max(...frontier.map((p) => p.e))];
  const distance = (p) => 1 - ((p.t - t0) / (t1 - t0) + (p.e - e0) / (e1 - e0));
  const expected = frontier.reduce((best, p) => (distance(p) > distance(best) ? p : best));
  assert.deepEqual([knee.t, knee.e], [expected.t, expected.e], 'the knee is the Kneedle point of the frontier shown');
  t.diagnostic(`knee: lambda ${knee.lambda}, ${knee.t.toFixed(1)} ms, ${knee.e.toFixed(1)} J`);
  // The caption counts distinct plans (seeds and lambdas often find the same one), and the legend
  // names the knee because there is one.
  const spots = (list) => new Set(list.map((p) => `${p.t}/${p.e}`)).size;
  const captionText = await page.textContent('#study-output .st-tradeoff figcaption');
  assert.match(captionText, new RegExp(`^${spots(points)} distinct plans? from ${lambdas.length} values of λ; ${spots(frontier)} on the frontier\\.`));
  assert.ok((await page.locator('#study-output .st-legend text').allTextContents()).includes('knee'));

  // The table: one row per lambda, the knee row marked, each row one of the plotted plans.
  const rows = await page.$$eval('#study-output .st-tradeoff-table tbody tr', (trs) => trs.map((tr) => ({
    lambda: Number(tr.dataset.lambda), job: tr.dataset.job, knee: tr.classList.contains('is-knee'), mark: tr.lastElementChild.textContent,
  })));
  assert.deepEqual(rows.map((r) => r.lambda), lambdas);
  const kneeRows = rows.filter((r) => r.knee);
  assert.equal(kneeRows.length, 1);
  assert.equal(kneeRows[0].mark, '★ knee');
  assert.equal(kneeRows[0].lambda, knee.lambda);
  for (const row of rows) assert.ok(points.some((p) => p.job === row.job), `row ${row.lambda} is a plotted plan`);
  await shot(page, 'studies-tradeoff');

  // Clicking the frontier's fastest point shows that plan in the plan views (seeds that found the
  // same plan share the spot: the one drawn last is on top).
  const fastestT = Math.min(...frontier.map((p) => p.t));
  const fastest = frontier.filter((p) => p.t === fastestT).at(-1);
  await page.click(`#study-output circle.st-point[data-job="${fastest.job}"]`);
  await page.waitForFunction((tms) => Number(document.getElementById('result-iteration-ms')?.dataset.value) === tms, fastest.t);
  assert.match(await page.textContent('#result-origin'), new RegExp(`^From a study: Energy-time trade-off: λ = ${fastest.lambda}`));
  assert.equal(Number(await page.getAttribute('#result-energy-j', 'data-value')), fastest.e);
  await page.waitForSelector('#view-comparison .gt-comparison');
  for (const view of ['pipeline', 'stages', 'timeline', 'topology', 'comparison']) {
    assert.equal(await page.locator(`#view-${view} .view-missing`).count(), 0, `the ${view} view is drawn`);
  }
  assert.ok(await page.locator(`#study-output circle[data-job="${fastest.job}"]`).evaluate((n) => n.classList.contains('is-selected')));
  // A table row does the same.
  await page.click(`#study-output .st-tradeoff-table button[data-job="${kneeRows[0].job}"]`);
  await page.waitForFunction((tms) => Number(document.getElementById('result-iteration-ms')?.dataset.value) === tms, knee.t);
  assert.equal(await page.isHidden('.stale-note'), true, 'a plan from the study is not stale against the study\'s problem');
  // So does the reference plan (the summary's own METIS-style, improved plan).
  const reference = (await chartPoints(page, '#study-output .st-reference-mark'))[0];
  await page.click('#study-output .st-reference-mark path');
  await page.waitForFunction((tms) => Number(document.getElementById('result-iteration-ms')?.dataset.value) === tms, reference.t);
  assert.match(await page.textContent('#result-method'), /^metis-improved( \(proven: its objective is (proven optimal|(at most [\d.,]+(× the optimum| % above the optimum)|less than 0\.01 % above the optimum); the optimum is at least [\d.,e+-]+)\))?$/);
  await shot(page, 'studies-tradeoff-plan');
  assert.deepEqual(errors, []);
  await context.close();
});

test('cancelling mid-study summarises what finished', async () => {
  const { context, page, errors } = await freshPage();
  // Searches that only stop at their time limit, so that the study takes many seconds.
  const problem = JSON.parse(await readFile(`${REPO_ROOT}/examples/table7-14gpu.json`, 'utf8'));
  problem.name = 'slow table7';
  problem.search = { ...problem.search, patience: 1000000, max_generations: 1000000 };
  await page.setInputFiles('#import-file', { name: 'slow.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(problem)) });
  await page.waitForFunction(() => JSON.parse(document.getElementById('problem-json').value).name === 'slow table7');
  await runStudy(page, { kind: 'pareto', lambdas: '0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1', seeds: '1', timeLimit: '1.5' });
  await page.waitForFunction(() => Number(document.getElementById('study-progress').value) >= 2, null, { timeout: 30000 });
  await page.click('#study-cancel');
  await waitStudyStatus(page, 'Cancelled: summarised the', 15000);
  const status = await page.textContent('#study-status');
  const [finished, total] = /the (\d+) of (\d+) jobs/.exec(status).slice(1).map(Number);
  assert.ok(finished >= 2 && finished < total, status);
  assert.match(await page.textContent('#study-output figcaption'), /did not finish \(cancelled\)/);
  assert.equal(await page.isEnabled('#study-run'), true);
  assert.equal(await page.isDisabled('#study-cancel'), true);
  await shot(page, 'studies-cancelled');

  // The pool starts fresh workers for the next study.
  await runStudy(page, { kind: 'pareto', lambdas: '0, 1', seeds: '1', timeLimit: '0.2' });
  await waitStudyStatus(page, 'Done');
  assert.equal(await page.locator('#study-output .st-tradeoff-table tbody tr').count(), 2);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a cross-site latency sweep: planner against METIS-style, each point\'s plan on its own problem', async () => {
  const { context, page, errors } = await freshPage();
  await openExample(page, 'three-sites');
  await runStudy(page, { kind: 'latency', values: '1, 10, 100', seeds: '1' });
  await waitStudyStatus(page, 'Done');
  for (const side of ['planner', 'metis_improved']) {
    assert.equal(await page.locator(`#study-output polyline[data-side="${side}"]`).count(), 1, `${side} line`);
    assert.deepEqual(await page.$$eval(`#study-output circle[data-side="${side}"]`, (ns) => ns.map((n) => Number(n.dataset.value))), [1, 10, 100]);
  }
  assert.equal(await page.locator('#study-output .st-plot .st-gain').count(), 3, 'a gain label per value');
  assert.equal(await page.locator('#study-output .st-sweep-table tbody tr').count(), 3);
  // The planner never does worse than METIS-style, improved.
  const times = await page.$$eval('#study-output circle[data-side]', (ns) => ns.map((n) => [n.dataset.side, Number(n.dataset.value), Number(n.dataset.t)]));
  for (const [, value, tms] of times.filter(([side]) => side === 'planner')) {
    const metis = times.find(([side, v]) => side === 'metis_improved' && v === value)[2];
    assert.ok(tms <= metis * (1 + 1e-9), `at ${value} ms the planner takes ${tms} ms, METIS ${metis} ms`);
  }
  await shot(page, 'studies-latency');
  // At a 1 ms base the B-C links carry 0.8 ms (x0.8, asymmetry kept): the plan shown uses that problem.
  const point = page.locator('#study-output circle[data-side="planner"][data-value="1"]');
  const tms = Number(await point.getAttribute('data-t'));
  await point.click();
  await page.waitForFunction((v) => Number(document.getElementById('result-iteration-ms')?.dataset.value) === v, tms);
  assert.match(await page.textContent('#result-origin'), /latency 1 ms/);
  await page.waitForFunction(() => /0\.8 ms latency/.test(document.getElementById('view-topology').textContent), null, { timeout: 10000 })
    .catch(() => assert.fail('the B-C hop shows the rescaled latency (0.8 ms)'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('the subset sweep marks the best k and the split shows both plans stage by stage', async () => {
  const { context, page, errors } = await freshPage();
  await openExample(page, 'straggler-4gpu');
  await runStudy(page, { kind: 'subset', method: 'exact' });
  await waitStudyStatus(page, 'Done');
  // The story: the three A100s, 5/4/3, about 211 ms; more GPUs (the T4) only slow it down.
  const ks = await page.$$eval('#study-output .st-subset-table tbody tr', (trs) => trs.map((tr) => Number(tr.dataset.k)));
  assert.deepEqual(ks, [1, 2, 3, 4]);
  assert.equal(await page.getAttribute('#study-output .st-subset-point.is-best', 'data-k'), '3');
  const best = Number(await page.getAttribute('#study-output .st-subset-point.is-best', 'data-t'));
  assert.ok(Math.abs(best - 211) < 1, `best k = 3 takes ${best} ms`);
  await shot(page, 'studies-subset');

  await runStudy(page, { kind: 'split', method: 'exact' });
  await waitStudyStatus(page, 'Done');
  assert.equal(await page.locator('#study-output .st-split-row').count(), 2);
  assert.equal(await page.locator('#study-output .st-split-uniform .st-stage').count(), 3);
  assert.equal(await page.locator('#study-output .st-split-non_uniform .st-stage.is-bottleneck').count(), 1);
  const [uniform, planned] = await page.$$eval('#study-output .st-split-row', (gs) => gs.map((g) => Number(g.dataset.t)));
  assert.ok(planned < uniform, `the planner's split (${planned} ms) beats the uniform one (${uniform} ms)`);
  await page.click('#study-output .st-split-uniform .st-split-bar rect');
  await page.waitForFunction((v) => Number(document.getElementById('result-iteration-ms')?.dataset.value) === v, uniform);
  assert.equal(await page.textContent('#result-stages'), 'a100-0 (4) → a100-1 (4) → a100-2 (4)');
  await shot(page, 'studies-split');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the module\'s option errors appear at their field, and a one-site pool cannot sweep latency', async () => {
  const { context, page, errors } = await freshPage();
  await openExample(page, 'straggler-4gpu');
  await runStudy(page, { kind: 'pareto', lambdas: '0, 2', seeds: '1' });
  await waitStudyStatus(page, 'The study could not run');
  assert.equal(await page.textContent('#study-lambdas-error'), 'item 2: must be in [0, 1], got 2');
  assert.equal(await page.getAttribute('#study-lambdas', 'aria-invalid'), 'true');
  await runStudy(page, { kind: 'pareto', lambdas: '0, x', seeds: '1' });
  await waitStudyStatus(page, 'Check the study\'s options');
  assert.equal(await page.textContent('#study-lambdas-error'), '"x" is not a number');
  await runStudy(page, { kind: 'latency', values: '', seeds: '1' });
  await waitStudyStatus(page, 'The study could not run: study: latency sweep needs GPUs on at least two sites');
  assert.equal(await page.isEnabled('#study-run'), true);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a trade-off with fewer than three frontier plans has no knee and no knee in its legend', async () => {
  const { context, page, errors } = await freshPage();
  await openExample(page, 'straggler-4gpu');
  // The study's own fields, typed in with real keys.
  await page.selectOption('#study-kind', 'pareto');
  const lambdas = page.locator('#study-lambdas');
  await lambdas.click();
  await lambdas.press('ControlOrMeta+a');
  await lambdas.pressSequentially('1', { delay: 10 });
  const seeds = page.locator('#study-seeds');
  await seeds.click();
  await seeds.press('ControlOrMeta+a');
  await seeds.pressSequentially('2', { delay: 10 });
  await page.click('#study-run');
  await waitStudyStatus(page, 'Done');
  assert.equal(await page.locator('#study-output .st-knee-mark').count(), 0);
  assert.ok(!(await page.locator('#study-output .st-legend text').allTextContents()).includes('knee'));
  assert.match(await page.textContent('#study-output .st-tradeoff figcaption'), /^1 distinct plan from 1 value of λ; 1 on the frontier\. No knee/);
  assert.deepEqual(errors, []);
  await context.close();
});

// The smallest text in the study output as drawn, in CSS pixels: an SVG's text scaled by the SVG's
// drawn width over its viewBox width.
const smallestText = (page) => page.$$eval('#study-output text, #study-output td, #study-output th, #study-output dt, #study-output dd, #study-output figcaption', (nodes) => {
  let least = Infinity;
  for (const n of nodes) {
    if (!n.getClientRects().length || !n.textContent.trim()) continue;
    const size = parseFloat(getComputedStyle(n).fontSize);
    const svg = n.closest('svg');
    const scale = svg ? svg.getBoundingClientRect().width / svg.viewBox.baseVal.width : 1;
    least = Math.min(least, size * scale);
  }
  return least;
});

async function atPhoneWidth(page, name) {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(200);
  const least = await smallestText(page);
  assert.ok(least >= 9, `smallest text ${least.toFixed(2)} px at 390 px`);
  await shot(page, name);
  await page.setViewportSize({ width: 1280, height: 900 });
  return least;
}

test('trade-off on two other figures: axes chosen with keys, chart labels and units follow (world-wide)', async (t) => {
  const { context, page, errors } = await freshPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await openExample(page, 'world-wide');
  await page.selectOption('#study-kind', 'pareto');
  assert.equal(await page.inputValue('#study-axis-x'), 'time');
  assert.equal(await page.inputValue('#study-axis-y'), 'energy');
  // The same figure twice: the module's message lands at the field.
  await page.focus('#study-axis-y');
  await page.keyboard.press('ArrowUp');
  assert.equal(await page.inputValue('#study-axis-y'), 'time');
  await typeInto(page.locator('#study-seeds'), '1');
  await page.click('#study-run');
  await waitStudyStatus(page, 'The study could not run');
  assert.equal(await page.textContent('#study-axes-error'), 'Up: repeats axes[0] ("time"); name two different figures');
  // Carbon across, money up, by keys only.
  await page.focus('#study-axis-x');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Tab');
  assert.ok(await page.evaluate(() => document.activeElement.id === 'study-axis-y'), 'Tab moves from across to up');
  for (let k = 0; k < 3; k++) await page.keyboard.press('ArrowDown');
  assert.equal(await page.inputValue('#study-axis-x'), 'carbon');
  assert.equal(await page.inputValue('#study-axis-y'), 'cost');
  assert.match(await page.textContent('#study-lambdas-hint'), /^Weights of carbon against money, between 0 \(money only\) and 1 \(carbon only\)/);
  await typeInto(page.locator('#study-lambdas'), '0, 0.2, 0.5, 0.8, 1');
  await typeInto(page.locator('#study-time-limit-s'), '5');
  await page.click('#study-run');
  await waitStudyStatus(page, 'Done', 120000);
  assert.equal(await page.getAttribute('#study-output .st-tradeoff', 'data-axes'), 'carbon,cost');
  const titles = await page.locator('#study-output .st-tradeoff-chart .gt-axis-title').allTextContents();
  assert.deepEqual(titles, ['carbon per iteration, CO2e', 'money per iteration, $']);
  const ticks = await page.locator('#study-output .st-tradeoff-chart .st-axes > text:not(.gt-axis-title)').allTextContents();
  assert.ok(ticks.some((s) => s.endsWith('g CO2e')), `carbon ticks: ${ticks.join(' | ')}`);
  assert.ok(ticks.some((s) => s.startsWith('$')), 'money ticks');
  // Points sit at their carbon and money; the frontier is over those two.
  const points = await page.$$eval('#study-output .st-point[data-job]', (ns) => ns.map((n) => ({
    job: n.dataset.job, lambda: Number(n.dataset.lambda), x: Number(n.dataset.x), y: Number(n.dataset.y),
    carbon: Number(n.dataset.carbon), cost: Number(n.dataset.cost), frontier: n.dataset.frontier === 'true',
  })));
  assert.equal(points.length, 5);
  for (const p of points) assert.deepEqual([p.x, p.y], [p.carbon, p.cost]);
  const beats = (a, b) => a.x <= b.x && a.y <= b.y && (a.x < b.x || a.y < b.y);
  for (const a of points.filter((p) => p.frontier)) assert.ok(!points.some((b) => beats(b, a)), `${a.job} on the frontier`);
  const heads = await page.locator('#study-output .st-tradeoff-table thead th').allTextContents();
  assert.deepEqual(heads.slice(0, 5), ['λ', 'Carbon', 'Money', 'ΔC vs λ = 1', 'ΔM vs λ = 1']);
  assert.match(await page.textContent('#study-output .st-tradeoff figcaption'), /λ weighs carbon, 1 − λ money\./);
  t.diagnostic(`frontier: ${points.filter((p) => p.frontier).map((p) => `λ ${p.lambda}: ${p.carbon.toFixed(3)} g, $${p.cost.toFixed(4)}`).join('; ')}`);
  await shot(page, 'studies-tradeoff-carbon-cost');
  // A point, chosen with Enter, shows its plan under the trade-off's name.
  const cleanest = points.reduce((a, b) => (b.carbon < a.carbon ? b : a));
  await page.focus(`#study-output circle.st-point[data-job="${cleanest.job}"]`);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /^From a study: Money-carbon trade-off: λ = /.test(document.getElementById('result-origin')?.textContent ?? ''));
  await atPhoneWidth(page, 'studies-tradeoff-carbon-cost-390');
  assert.deepEqual(errors, []);
  await context.close();
});

test('where to train on the world-wide example: every site and pair, the picks, bars, a plan; readable at 390 px', async (t) => {
  const { context, page, errors } = await freshPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await openExample(page, 'world-wide');
  const problem = JSON.parse(await page.inputValue('#problem-json'));
  const sites = [...new Set(problem.gpus.map((g) => g.site ?? ''))];
  await page.focus('#study-kind');
  await page.selectOption('#study-kind', 'where');
  assert.equal(await page.isHidden('#study-axis-x'), true, 'only the trade-off takes axes');
  await typeInto(page.locator('#study-seeds'), '1');
  await typeInto(page.locator('#study-time-limit-s'), '5');
  await page.click('#study-run');
  await waitStudyStatus(page, 'Done', 120000);
  const rows = await page.$$eval('#study-output .st-where-table tbody tr', (trs) => trs.map((tr) => ({
    sites: tr.dataset.sites, job: tr.dataset.job, marks: tr.querySelector('.st-where-marks')?.textContent ?? '', best: tr.classList.contains('is-best'),
  })));
  const n = sites.length;
  assert.equal(rows.length, n + (n * (n - 1)) / 2, `${n} sites and their pairs`);
  assert.deepEqual(rows.slice(0, n).map((r) => r.sites), sites);
  const picks = await page.$$eval('#study-output .st-where-pick', (ds) => Object.fromEntries(ds.map((d) => [d.dataset.pick, d.dataset.sites])));
  t.diagnostic(`picks: ${JSON.stringify(picks)}`);
  for (const [pick, mark] of [['best', 'best objective'], ['fastest', 'fastest'], ['cleanest', 'cleanest'], ['cheapest', 'cheapest']]) {
    const row = rows.find((r) => r.sites === picks[pick]);
    assert.ok(row && row.marks.includes(mark), `${pick} (${picks[pick]}) is marked in the table`);
  }
  // The bars: a row per site (and per pair whose plan uses both), three bars each; the cleanest has
  // the shortest carbon bar.
  const bars = await page.$$eval('#study-output .st-where-row', (gs) => gs.map((g) => ({
    sites: g.dataset.sites, job: g.dataset.job,
    values: Object.fromEntries([...g.querySelectorAll('rect')].map((r) => [r.dataset.metric, Number(r.dataset.value)])),
  })));
  assert.ok(bars.length >= n - rows.slice(0, n).filter((r) => !r.job).length);
  for (const bar of bars) assert.deepEqual(Object.keys(bar.values), ['objective', 'carbon_g', 'cost']);
  const leastCarbon = Math.min(...bars.map((b) => b.values.carbon_g));
  assert.equal(bars.find((b) => b.sites === picks.cleanest)?.values.carbon_g ?? leastCarbon, leastCarbon);
  await shot(page, 'studies-where');
  // The best subset's bar shows its plan.
  const best = bars.find((b) => b.sites === picks.best);
  await page.click(`#study-output .st-where-row[data-job="${best.job}"] rect`);
  await page.waitForFunction((s) => (document.getElementById('result-origin')?.textContent ?? '').startsWith(`From a study: Where to train: ${s}`), best.sites);
  assert.ok(await page.locator(`#study-output .st-where-row[data-job="${best.job}"]`).evaluate((g) => g.classList.contains('is-selected')));
  const least = await atPhoneWidth(page, 'studies-where-390');
  t.diagnostic(`smallest text at 390 px: ${least.toFixed(1)} px`);
  assert.deepEqual(errors, []);
  await context.close();
});
