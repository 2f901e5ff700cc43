// Stage groups on the page (issue 8, points 5 and 6): the editor's node column, "add a node", the
// intra-node link and the parallelism setting, typed with real key events; share links that carry
// them; the 64-A100 example planned in hybrid mode with every view showing its groups, readable
// (no text under 9 px) at 1280 and 390 px; the gradient-sync phase of a plan with data shards; and
// the parallelism, hybrid subset and hybrid trade-off studies.
// Run: node --test tests/browser/groups.test.mjs
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import {
  ARTIFACTS, callModule, openExample, problemIn, screenshot, smallTexts, useBrowser, waitStatus, isFocused, validNow, typeInto,
} from './helpers.mjs';

const browser = useBrowser({ requireStudies: true });
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

// Two 2-GPU nodes on two sites (tests/test_studies_parallelism.cpp's pool, 1 GiB each).
function nodePool(parallelism = 'hybrid') {
  const gpus = ['a0', 'a1', 'b0', 'b1'].map((id) => ({
    id, site: id[0] === 'a' ? 'A' : 'B', node: id[0] === 'a' ? 'na' : 'nb', peak_tflops: id[0] === 'a' ? 100 : 50,
    memory_gib: 1, idle_w: id[0] === 'a' ? 50 : 10, active_w: id[0] === 'a' ? 250 : 60,
  }));
  return {
    name: 'two nodes',
    model: { hidden_size: 1000, num_layers: 4, seq_length: 1000, vocab_size: 1000, micro_batch_size: 2, global_batch_size: 8 },
    gpus,
    network: { default: { bandwidth_gbps: 10, latency_ms: 1 }, intra_node: { bandwidth_gbps: 2400, latency_ms: 0.001 } },
    search: { parallelism },
    objective: { lambda: 1 },
  };
}

const fragmentFor = (page, problem) => page.evaluate(async (p) => (await import('./js/share.js')).encodeProblemFragment(p), problem);

test('editor: node column, add a node, intra-node link and parallelism by keyboard; share links carry them', async () => {
  const { context, page, errors } = await browser.freshPage();
  await page.setViewportSize(DESKTOP);
  await page.click('#tab-gpus');
  const node = page.getByLabel('Node of GPU 1', { exact: true });
  await typeInto(node, 'rack-1');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Peak TFLOPS of GPU 1', 'Tab goes on along the row');
  const second = page.getByLabel('Node of GPU 2', { exact: true });
  await typeInto(second, 'rack-1');
  let problem = await problemIn(page);
  assert.equal(problem.gpus[0].node, 'rack-1');
  assert.equal(problem.gpus[1].node, 'rack-1');
  // A node on two sites is refused next to the GPU's site, and typing it away clears the error.
  const third = page.getByLabel('Node of GPU 3', { exact: true });
  await typeInto(third, 'rack-1');
  await page.waitForFunction(() => /must share its site/.test(document.querySelector('[data-path="gpus[2].site"]')?.closest('[data-error-host]')?.textContent ?? ''));
  await typeInto(third, 'rack-2');
  await validNow(page);
  const before = problem.gpus.length;

  // Add a node: 4 GPUs of the chosen type at a new site.
  const count = page.locator('.node-add-count');
  await typeInto(count, '4');
  await page.keyboard.press('Tab');
  assert.ok(await isFocused(page.locator('.node-add-type')), 'Tab reaches the type');
  await page.locator('.node-add-type').selectOption({ index: 0 });
  const type = await page.locator('.node-add-type').inputValue();
  await typeInto(page.locator('.node-add-site'), 'site-z');
  await page.getByRole('button', { name: 'Add node' }).click();
  problem = await problemIn(page);
  assert.equal(problem.gpus.length, before + 4);
  const added = problem.gpus.slice(before);
  assert.deepEqual(added.map((g) => g.id), ['node-0-g0', 'node-0-g1', 'node-0-g2', 'node-0-g3']);
  assert.ok(added.every((g) => g.node === 'node-0' && g.site === 'site-z' && g.type === type), JSON.stringify(added));
  assert.match(await page.textContent('.node-add-note'), /Added node-0: 4 GPUs at site-z/);
  await page.locator('.node-add').scrollIntoViewIfNeeded();
  await screenshot(page, 'groups-editor-gpus-desktop');
  // A count out of range is refused with a note, nothing added.
  await typeInto(count, '0');
  await page.getByRole('button', { name: 'Add node' }).click();
  assert.match(await page.textContent('.node-add-note'), /from 1 to 64/);
  assert.equal((await problemIn(page)).gpus.length, before + 4);

  // The intra-node link, Tab from bandwidth to latency.
  await page.click('#tab-network');
  const bandwidth = page.locator('[data-path="network.intra_node.bandwidth_gbps"]');
  await typeInto(bandwidth, '2400');
  await page.keyboard.press('Tab');
  const latency = page.locator('[data-path="network.intra_node.latency_ms"]');
  assert.ok(await isFocused(latency), 'Tab goes from bandwidth to latency');
  await latency.pressSequentially('0.005', { delay: 10 });
  problem = await problemIn(page);
  assert.deepEqual(problem.network.intra_node, { bandwidth_gbps: 2400, latency_ms: 0.005 });

  // The parallelism setting: focus it by clicking, then choose with the keyboard.
  await page.click('#tab-objective');
  const parallelism = page.locator('[data-path="search.parallelism"]');
  await parallelism.selectOption('hybrid');
  assert.equal((await problemIn(page)).search.parallelism, 'hybrid');
  await validNow(page);
  await screenshot(page, 'groups-editor-desktop');

  // A share link carries every new field and opens them unchanged; an old link opens as it was.
  problem = await problemIn(page);
  const hash = await fragmentFor(page, problem);
  const reopened = await browser.freshPage(hash);
  assert.deepEqual(await problemIn(reopened.page), problem);
  await reopened.page.click('#tab-objective');
  assert.equal(await reopened.page.locator('[data-path="search.parallelism"]').inputValue(), 'hybrid');
  await reopened.page.click('#tab-gpus');
  assert.equal(await reopened.page.getByLabel('Node of GPU 1', { exact: true }).inputValue(), 'rack-1');
  assert.deepEqual(reopened.errors, []);
  await reopened.context.close();
  const old = { ...problem, gpus: problem.gpus.map(({ node: _n, ...g }) => g), network: { ...problem.network } };
  delete old.network.intra_node;
  old.search = { ...problem.search };
  delete old.search.parallelism;
  const oldPage = await browser.freshPage(await fragmentFor(page, old));
  assert.deepEqual(await problemIn(oldPage.page), old, 'a link without the new fields opens as it was');
  assert.deepEqual(oldPage.errors, []);
  await oldPage.context.close();
  assert.deepEqual(errors, []);
  await context.close();
});

for (const [name, size] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  test(`${name}: the 64-A100 example planned in hybrid mode shows its groups in every view, readably`, async () => {
    const { context, page, errors } = await browser.freshPage();
    await page.setViewportSize(size);
    await openExample(page, 'llama70b-64xa100');
    assert.equal((await problemIn(page)).search.parallelism, 'hybrid');
    await page.selectOption('#method', 'memetic');
    await page.click(size === PHONE ? '#dock-plan-button' : '#plan-button');
    await waitStatus(page, 'Done', 90000);
    await page.waitForSelector('#view-topology svg');
    const summary = await page.textContent('#result-stages');
    assert.match(summary, /\[TP \d+ × DP \d+\]/, 'the stage chain names groups');
    const used = Number(/GPUs used(\d+) of 64/.exec(await page.textContent('#result-summary'))?.[1]);
    assert.ok(used > 32, `groups put most of the pool to work: ${used} GPUs`);
    // Pipeline bar: blocks of groups with their size and degrees.
    const blocks = await page.$$eval('#view-pipeline .gt-pb-stage', (gs) => gs.map((g) => ({ gpus: Number(g.dataset.gpus), text: g.textContent })));
    assert.ok(blocks.length >= 2 && blocks.some((b) => b.gpus > 1), JSON.stringify(blocks.map((b) => b.gpus)));
    assert.equal(blocks.reduce((n, b) => n + b.gpus, 0), used);
    assert.ok(blocks.some((b) => /TP \d+ × DP \d+/.test(b.text)), 'a block shows its degrees');
    // Stage table: tensor traffic and gradient sync columns.
    const heads = await page.$$eval('#view-stages thead th', (ths) => ths.map((t) => t.textContent));
    assert.ok(heads.includes('Tensor') && heads.includes('Grad sync'), heads.join('|'));
    const rows = await page.$$eval('#view-stages tbody tr', (trs) => trs.length);
    assert.equal(rows, blocks.length);
    // Topology: one dashed outline per group, inside its site.
    assert.equal(await page.locator('#view-topology .gt-topo-group').count(), blocks.filter((b) => b.gpus > 1).length);
    assert.equal(await page.locator('#view-topology .gt-topo-node.is-used').count(), used);
    // Timeline: the simulated schedule, next to the plan's analytic iteration.
    await page.waitForSelector('#view-timeline svg.gt-tl-svg');
    const formula = Number(await page.getAttribute('#view-timeline svg', 'data-analytic-ms'));
    const shown = Number(await page.getAttribute('#result-iteration-ms', 'data-value'));
    assert.ok(Math.abs(formula - shown) <= 1e-6 * shown, `timeline ${formula} against ${shown}`);
    assert.deepEqual(await smallTexts(page, '#results'), [], 'no text under 9 px');
    await screenshot(page, `groups-64-a100-${name}`);
    // Each view on its own, to look at.
    for (const view of ['pipeline', 'stages', 'timeline', 'topology']) {
      await page.locator(`.view-${view}`).screenshot({ path: join(ARTIFACTS, `groups-64-a100-${name}-${view}.png`) });
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a plan with data shards: the timeline ends with the gradient sync after the drain', async () => {
  const { context, page, errors } = await browser.freshPage();
  const problem = nodePool();
  const plan = { stages: [{ gpus: ['a0', 'a1'], tensor_parallel: 1, layers: 2 }, { gpus: ['b0', 'b1'], tensor_parallel: 2, layers: 2 }] };
  const report = await callModule('evaluate', JSON.stringify(problem), JSON.stringify(plan));
  const simulation = await callModule('simulate', JSON.stringify(problem), JSON.stringify(plan), JSON.stringify({ events: true }));
  assert.ok(report.stages[0].data_parallel_sync_ms > 0, JSON.stringify(report.stages[0]));
  const { problem: valid } = await callModule('validate', JSON.stringify(problem));
  await page.setViewportSize(DESKTOP);
  await page.goto(page.url().replace(/[#?].*$/, '').replace(/[^/]*$/, 'views-fixture.html'));
  await page.waitForFunction(() => window.viewsFixture && document.body.dataset.ready);
  const drawn = await page.evaluate(({ p, r, simulation }) => {
    const v = window.viewsFixture.views;
    const result = { ...r, stage_metrics: r.stages };
    v.renderTimeline(document.getElementById('timeline'), p, result, { simulation });
    v.renderStageTable(document.getElementById('stage-table'), p, result);
    v.renderPipelineBar(document.getElementById('pipeline-bar'), p, result);
    v.renderTopology(document.getElementById('topology'), p, result);
    const svg = document.querySelector('#timeline svg');
    return {
      total: Number(svg.dataset.totalMs), pipeline: Number(svg.dataset.pipelineMs), sync: Number(svg.dataset.syncMs),
      phases: [...svg.querySelectorAll('.gt-tl-phase')].map((g) => g.dataset.phase),
      syncBlocks: svg.querySelectorAll('.gt-tl-sync-block').length,
      tensorParts: svg.querySelectorAll('.gt-tl-tensor').length,
      legend: [...svg.querySelectorAll('.gt-legend text')].map((t) => t.textContent),
      syncCell: [...document.querySelectorAll('#stage-table tbody tr')].map((tr) => tr.children[8]?.textContent),
      groups: document.querySelectorAll('#topology .gt-topo-group').length,
    };
  }, { p: valid, r: report, simulation });
  assert.equal(drawn.total, simulation.iteration_ms, JSON.stringify(drawn));
  assert.ok(Math.abs(drawn.pipeline + drawn.sync - drawn.total) <= 1e-9 * drawn.total);
  assert.ok(drawn.sync > 0);
  assert.deepEqual(drawn.phases.slice(-2), ['cool-down', 'gradient sync'], 'the sync comes after the cool-down');
  assert.equal(drawn.syncBlocks, 1, 'only the stage with two data shards syncs');
  assert.ok(drawn.tensorParts > 0, 'the tensor-parallel stage shows its all-reduces');
  assert.ok(drawn.legend.includes('tensor') && drawn.legend.includes('grad sync'), drawn.legend.join('|'));
  assert.notEqual(drawn.syncCell[0], '–');
  assert.equal(drawn.groups, 2);
  assert.deepEqual(await smallTexts(page, 'main'), []);
  await screenshot(page, 'groups-sync-timeline');
  assert.deepEqual(errors, []);
  await context.close();
});

async function runStudy(page, kind, { seeds, method = 'exact' } = {}) {
  await page.selectOption('#study-kind', kind);
  await page.selectOption('#study-method', method);
  if (seeds !== undefined) await typeInto(page.locator('#study-seeds'), String(seeds));
  await page.click('#study-run');
  await page.waitForFunction(() => /^(Done|Cancelled|The study could not run)/.test(document.getElementById('study-status').textContent), null, { timeout: 90000 });
  assert.match(await page.textContent('#study-status'), /^Done/);
}

test('studies: pipeline only against stage groups, the hybrid subset sweep counting GPUs, the trade-off over group plans', async () => {
  const { context, page, errors } = await browser.freshPage();
  await page.setViewportSize(DESKTOP);
  const opened = await browser.freshPage(await fragmentFor(page, nodePool()));
  await context.close();
  const p = opened.page;
  await p.setViewportSize(DESKTOP);
  await runStudy(p, 'parallelism', { seeds: 1 });
  const rows = await p.$$eval('#study-output .st-parallelism-table tbody tr', (trs) => trs.map((tr) => ({
    side: tr.dataset.side, job: tr.dataset.job, cells: [...tr.querySelectorAll('td')].map((td) => td.textContent),
  })));
  assert.deepEqual(rows.map((r) => r.side), ['pipeline', 'hybrid']);
  assert.deepEqual(rows.map((r) => r.job), ['pipeline/seed=1', 'hybrid/seed=1']);
  assert.equal(rows[1].cells[2], '2', 'the hybrid plan: one group of the 2 GPUs of node na');
  assert.equal(rows[1].cells[3], '1');
  const bars = await p.$$eval('#study-output .st-par-bar', (gs) => gs.map((g) => Number(g.dataset.t)));
  assert.ok(bars[1] < bars[0], `groups are faster here: ${bars}`);
  assert.match(await p.textContent('#study-output figcaption'), /Stage groups make an iteration [\d.]+% faster/);
  // Choosing the hybrid side shows its plan, groups and all.
  await p.click('#study-output .st-parallelism-table button[data-job="hybrid/seed=1"]');
  await p.waitForFunction(() => /Stage groups/.test(document.getElementById('result-origin')?.textContent ?? '') || /Pipeline only/.test(document.getElementById('result-origin')?.textContent ?? ''));
  assert.match(await p.textContent('#result-stages'), /^na \[TP \d × DP \d\] \(4\)$/);
  assert.deepEqual(await smallTexts(p, '#studies'), []);
  await p.locator('#study-output').screenshot({ path: join(ARTIFACTS, 'groups-parallelism-study.png') });

  await runStudy(p, 'subset');
  const points = await p.$$eval('#study-output .st-subset-table tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  const heads = await p.$$eval('#study-output .st-subset-table thead th', (ths) => ths.map((t) => t.textContent));
  assert.ok(heads.includes('GPUs used'), heads.join('|'));
  assert.equal(points[0][0], '1');
  assert.equal(points[0][3], '2', 'k = 1 stage uses both GPUs of a node');
  assert.match(await p.textContent('#study-output .st-subset-chart'), /stages, k/);
  await p.locator('#study-output').screenshot({ path: join(ARTIFACTS, 'groups-subset-study.png') });

  // The trade-off in hybrid mode: each lambda's plan may be a group, its GPUs counted.
  await p.selectOption('#study-kind', 'pareto');
  await typeInto(p.locator('#study-lambdas'), '0, 1');
  await runStudy(p, 'pareto', { seeds: 1 });
  const tradeoff = await p.$$eval('#study-output .st-tradeoff-table tbody tr', (trs) => trs.map((tr) => ({ lambda: Number(tr.dataset.lambda), job: tr.dataset.job })));
  assert.deepEqual(tradeoff.map((r) => r.lambda), [0, 1]);
  await p.click(`#study-output circle.st-point[data-job="${tradeoff[1].job}"]`);
  await p.waitForFunction(() => /λ = 1/.test(document.getElementById('result-origin')?.textContent ?? ''));
  assert.match(await p.textContent('#result-stages'), /\[TP \d × DP \d\]/, 'the time-optimal plan is a group');
  assert.deepEqual(opened.errors, []);
  assert.deepEqual(errors, []);
  await opened.context.close();
});
