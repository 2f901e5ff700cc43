// Replicas on the page (issue 21, point 5): the replicas setting, pipe capacities, sync period and
// compression typed with real key events; share links that carry them and old links that still
// plan as before; the 512-A100 example planned with replicas, every view per replica and readable
// (no text under 9 px) at 1280x800 and 390x844, the replica chooser worked by keyboard; and the
// replicas study, where one pipeline gives way to replicas.
// Run: node --test tests/browser/replicas.test.mjs
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  ARTIFACTS, REPO_ROOT, isFocused, openExample, problemIn, screenshot, smallTexts as smallTextsIn, typeInto, useBrowser, validNow, waitStatus,
} from './helpers.mjs';

import { paceSetter, replicaResult, syncPhases, totalMicroBatches } from '../../web/js/views/replica-plan.js';
import { writePipeCapacity } from '../../web/js/editor/pipe-capacities.js';
import { writeSiteLinkHalf } from '../../web/js/editor/site-matrix.js';

const browser = useBrowser({ requireStudies: true });
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const OLD_LINKS = JSON.parse(await readFile(join(REPO_ROOT, 'tests/browser/old-links.json'), 'utf8')).links;

// Text under 9 px in `selector`, HTML lists, labels, options and paragraphs too.
const smallTexts = (page, selector) => smallTextsIn(page, selector, ['li', 'label', 'option', 'p']);

// Two sites of one 2-GPU node each: a pipeline across both sites or a replica per site. At 1 and
// 10 Gbps one pipeline wins, at 100 and 1000 Gbps two replicas do (the wasm module's own study).
function twoSitePool() {
  const gpus = [];
  for (const site of ['A', 'B']) for (const g of [0, 1]) gpus.push({ id: `${site}0g${g}`, site, node: `${site}0`, peak_tflops: 100, memory_gib: 40, idle_w: 50, active_w: 300 });
  return {
    name: 'two sites, replicas',
    model: { hidden_size: 2048, num_layers: 8, seq_length: 1024, vocab_size: 32000, micro_batch_size: 4, global_batch_size: 64 },
    gpus,
    network: { intra_node: { bandwidth_gbps: 2400, latency_ms: 0.005 }, intra_site: { bandwidth_gbps: 100, latency_ms: 0.05 }, inter_site: { bandwidth_gbps: 10, latency_ms: 20 } },
    objective: { lambda: 1 },
    search: { parallelism: 'hybrid', time_limit_s: 2 },
  };
}

test('replica figures the views draw, worked by hand', () => {
  // Two replicas: R1 takes 3 micro-batches in 100 ms, its first stage's data shards sync in 5 ms;
  // R2 takes 1 in 60 ms. The cross-replica sync takes 40 ms every H = 4 iterations.
  const result = {
    replicas: [
      { micro_batches: 3, pipeline_ms: 100, stage_metrics: [{ stage_ms: 20, data_parallel_sync_ms: 5, layers: 2, energy_j: 1 }, { stage_ms: 30, layers: 2, energy_j: 2 }] },
      { micro_batches: 1, pipeline_ms: 60, stage_metrics: [{ stage_ms: 30, layers: 2, energy_j: 4 }, { stage_ms: 30, layers: 2, energy_j: 8 }] },
    ],
    cross_replica_sync_ms: 40, sync_every: 4,
  };
  // T_iter = max(100, 60) + max dp 5 + 40 / 4 = 115 ms.
  assert.deepEqual(syncPhases(result), { pipelines: 100, groups: 5, cross: 40, H: 4, perIteration: 10 });
  assert.equal(totalMicroBatches(result), 4);
  assert.equal(paceSetter(result), 0);
  // R1 alone: its pipeline and its own sync, 100 + 5 = 105 ms; energy 1 + 2 = 3 J. R2: 60 + 0 ms.
  const r1 = replicaResult(result, 0);
  assert.equal(r1.iteration_ms, 105);
  assert.equal(r1.energy_j, 3);
  assert.equal(r1.micro_batches, 3);
  assert.equal(replicaResult(result, 1).iteration_ms, 60);
  // Equal pipelines: none stands out.
  assert.equal(paceSetter({ replicas: [{ pipeline_ms: 7 }, { pipeline_ms: 7 }] }), -1);
});

test('a pipe capacity gets its pair its own site link, and clearing it gives the pair back', () => {
  const problem = { network: { inter_site: { bandwidth_gbps: 10, latency_ms: 20, capacity_gbps: 40 } } };
  writePipeCapacity(problem, 'A', 'B', 25);
  assert.deepEqual(problem.network.site_links, [{ from: 'A', to: 'B', bandwidth_gbps: 10, latency_ms: 20, capacity_gbps: 25 }]);
  writePipeCapacity(problem, 'A', 'B', 30);
  assert.equal(problem.network.site_links[0].capacity_gbps, 30);
  writePipeCapacity(problem, 'A', 'B', undefined);
  assert.equal(problem.network.site_links, undefined, 'an entry that only held the capacity goes');
  // A site link of its own keeps its figures; only the capacity goes.
  problem.network.site_links = [{ from: 'B', to: 'A', bandwidth_gbps: 5, latency_ms: 20, capacity_gbps: 3 }];
  writePipeCapacity(problem, 'B', 'A', undefined);
  assert.deepEqual(problem.network.site_links, [{ from: 'B', to: 'A', bandwidth_gbps: 5, latency_ms: 20 }]);
  // Clearing the site matrix's bandwidth of a pair with a capacity keeps the entry and its capacity
  // (the bandwidth falls back to the inter-site figure it overrode).
  problem.network.site_links = [{ from: 'A', to: 'B', bandwidth_gbps: 5, latency_ms: 20, capacity_gbps: 25 }];
  writeSiteLinkHalf(problem, 'A', 'B', 'bandwidth_gbps', undefined);
  assert.deepEqual(problem.network.site_links, [{ from: 'A', to: 'B', bandwidth_gbps: 10, latency_ms: 20, capacity_gbps: 25 }]);
});

const fragmentFor = (page, problem) => page.evaluate(async (p) => (await import('./js/share.js')).encodeProblemFragment(p), problem);
const focusedLabel = (page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.labels?.[0]?.textContent);

test('editor: replicas, sync period, compression and pipe capacities by keyboard; the share link carries them', async () => {
  const { context, page, errors } = await browser.freshPage();
  await page.setViewportSize(DESKTOP);
  const start = await browser.freshPage(await fragmentFor(page, twoSitePool()));
  await context.close();
  const p = start.page;
  await p.setViewportSize(DESKTOP);
  await p.click('#tab-objective');
  // The replicas setting: a select moved with the arrow keys, then the count typed.
  const mode = p.getByLabel('Replicas', { exact: true });
  await mode.focus();
  await p.keyboard.press('ArrowDown');
  await p.waitForFunction(() => JSON.parse(document.getElementById('problem-json').value).search.replicas === 'auto');
  await p.keyboard.press('ArrowDown');
  await p.waitForFunction(() => JSON.parse(document.getElementById('problem-json').value).search.replicas === 2);
  const count = p.getByLabel('Replicas R', { exact: true });
  assert.ok(await count.isVisible(), 'exactly R shows the count');
  await typeInto(count, '4');
  assert.equal((await problemIn(p)).search.replicas, 4);
  // A count the planner refuses gets its message at the field.
  await typeInto(count, '0');
  await p.waitForFunction(() => /must be in \[1, 512\], got 0/.test(document.querySelector('.replica-count .field-error')?.textContent ?? ''));
  await typeInto(count, '2');
  // Sync period and compression, with the plain note about H > 1.
  const period = p.getByLabel('Sync every (iterations)', { exact: true });
  await typeInto(period, '10');
  await p.keyboard.press('Tab');
  assert.match(await p.textContent('#replica-sync-note'), /every 10 iterations is local SGD: it changes the optimiser, and how it converges is not modelled/);
  const compression = p.getByLabel('Sync compression', { exact: true });
  assert.ok(await isFocused(compression), 'Tab goes from the sync period to the compression');
  await p.keyboard.type('0.5', { delay: 15 });
  await typeInto(compression, '2');
  await p.waitForFunction(() => /sync_compression|\(0, 1\]/.test([...document.querySelectorAll('.field-error')].map((e) => e.textContent).join(' ')));
  await typeInto(compression, '0.5');
  // Pipe capacities: the inter-site default's and one directed pair's.
  await p.click('#tab-network');
  const between = p.locator('.link-spec[data-path="network.inter_site"]');
  await typeInto(between.getByLabel('Pipe capacity (Gbps)'), '40');
  const cell = p.getByLabel('Pipe capacity from A to B (Gbps)', { exact: true });
  assert.equal(await cell.getAttribute('placeholder'), '40', 'an empty cell shows the inter-site capacity it uses');
  await typeInto(cell, '25');
  await p.keyboard.press('Tab');
  assert.equal(await focusedLabel(p), 'Pipe capacity from B to A (Gbps)', 'Tab goes on to the other direction');
  await validNow(p);
  const problem = await problemIn(p);
  assert.equal(problem.search.replicas, 2);
  assert.equal(problem.training.sync_every, 10);
  assert.equal(problem.training.sync_compression, 0.5);
  assert.equal(problem.network.inter_site.capacity_gbps, 40);
  assert.deepEqual(problem.network.site_links, [{ from: 'A', to: 'B', bandwidth_gbps: 10, latency_ms: 20, capacity_gbps: 25 }],
    'the pair gets its own site link with the figures it used, and the capacity');
  // Clearing the capacity takes the entry away again: the pair is as before.
  await typeInto(p.getByLabel('Pipe capacity from A to B (Gbps)', { exact: true }), '25');
  await p.getByLabel('Pipe capacity from A to B (Gbps)', { exact: true }).press('ControlOrMeta+a');
  await p.keyboard.press('Backspace');
  assert.equal((await problemIn(p)).network.site_links, undefined);
  await typeInto(p.getByLabel('Pipe capacity from A to B (Gbps)', { exact: true }), '25');
  await p.click('#tab-objective');
  await p.locator('#editor').screenshot({ path: join(ARTIFACTS, 'replicas-editor-desktop.png') });
  // The share link carries every new field.
  await p.click('#share-button');
  await p.waitForFunction(() => document.getElementById('share-link').value.includes('#'));
  const link = await p.inputValue('#share-link');
  const again = await browser.freshPage(link.slice(link.indexOf('#')));
  await again.page.waitForFunction(() => JSON.parse(document.getElementById('problem-json').value).name === 'two sites, replicas');
  const shared = await problemIn(again.page);
  assert.deepEqual({ search: shared.search, training: shared.training, network: shared.network },
    { search: (await problemIn(p)).search, training: (await problemIn(p)).training, network: (await problemIn(p)).network });
  await again.page.setViewportSize(PHONE);
  await again.page.click('#tab-objective');
  assert.equal(await again.page.getByLabel('Replicas', { exact: true }).inputValue(), 'count');
  assert.equal(await again.page.getByLabel('Replicas R', { exact: true }).inputValue(), '2');
  // At 390 px the section is typed into as well.
  await typeInto(again.page.getByLabel('Sync every (iterations)', { exact: true }), '1');
  assert.match(await again.page.textContent('#replica-sync-note'), /convergence is not modelled/);
  assert.deepEqual(await smallTexts(again.page, '#editor'), []);
  await again.page.locator('#editor').screenshot({ path: join(ARTIFACTS, 'replicas-editor-phone.png') });
  assert.deepEqual(errors, []);
  assert.deepEqual(start.errors, []);
  assert.deepEqual(again.errors, []);
  await start.context.close();
  await again.context.close();
});

test('an old link opens and plans exactly as before: one pipeline, drawn by the one-pipeline views', async () => {
  const old = OLD_LINKS[0];
  const { context, page, errors } = await browser.freshPage(old.link);
  await page.waitForFunction((n) => JSON.parse(document.getElementById('problem-json').value).name === n, old.name);
  const problem = await problemIn(page);
  assert.equal(problem.search?.replicas, undefined);
  await page.selectOption('#method', old.method);
  await page.click('#plan-button');
  await waitStatus(page, 'Done', 60000);
  await page.waitForSelector('#view-pipeline svg');
  const t = Number(await page.getAttribute('#result-iteration-ms', 'data-value'));
  assert.ok(Math.abs(t - old.iteration_ms) <= 1e-9 * old.iteration_ms, `${t} vs ${old.iteration_ms}`);
  assert.equal(await page.locator('#view-pipeline .gt-pb-stage').count(), old.stages.length);
  assert.equal(await page.locator('#results .gt-rb-replica, #results .gt-replica-chooser').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the 512-A100 example planned with replicas: every view per replica, readable at 1280x800 and 390x844', async () => {
  const { context, page, errors } = await browser.freshPage();
  await page.setViewportSize(DESKTOP);
  await openExample(page, 'geo-512xa100');
  // "auto" plans one pipeline over three sites here (28.4 s); one replica per site is 4 exactly.
  await page.click('#tab-objective');
  await page.getByLabel('Replicas', { exact: true }).focus();
  await page.keyboard.press('ArrowDown');  // auto -> exactly R
  await page.waitForFunction(() => Number.isInteger(JSON.parse(document.getElementById('problem-json').value).search.replicas));
  await typeInto(page.getByLabel('Replicas R', { exact: true }), '4');
  await page.waitForFunction(() => JSON.parse(document.getElementById('problem-json').value).search.replicas === 4);
  await page.selectOption('#method', 'memetic');
  await page.click('#plan-button');
  await waitStatus(page, 'Done', 120000);
  await page.waitForSelector('#view-topology .gt-rtopo-svg');
  // Pipeline: one bar per replica whose shares sum to M = 1024 / 8.
  const bars = await page.$$eval('#view-pipeline .gt-rb-replica', (gs) => gs.map((g) => ({ m: Number(g.dataset.microBatches), t: Number(g.dataset.pipelineMs) })));
  assert.equal(bars.length, 4, `${bars.length} replicas`);
  assert.equal(bars.reduce((n, b) => n + b.m, 0), 128);
  assert.match(await page.textContent('#result-stages'), new RegExp(`^${bars.length} replicas × \\d+ stages?`));
  // Timeline: the lanes, then the cross-replica sync phase ending at the iteration time.
  const shown = Number(await page.getAttribute('#result-iteration-ms', 'data-value'));
  const total = Number(await page.getAttribute('#view-timeline .gt-rt-svg', 'data-total-ms'));
  const pipelines = Number(await page.getAttribute('#view-timeline .gt-rt-svg', 'data-pipelines-ms'));
  assert.ok(Math.abs(total - shown) <= 1e-6 * shown, `timeline ${total} against ${shown}`);
  assert.equal(pipelines, Math.max(...bars.map((b) => b.t)));
  assert.equal(await page.locator('#view-timeline .gt-rt-lane').count(), bars.length);
  assert.ok(await page.locator('#view-timeline .gt-rt-phase.is-cross').count() === 1, 'the cross-replica sync phase');
  await page.waitForSelector('#view-timeline .gt-tl-svg');  // simulated by the module, then drawn
  assert.ok(await page.locator('#view-timeline .gt-tl-svg').count() === 1, 'one replica\'s own 1F1B schedule');
  // Topology: every used GPU in a replica, each replica outlined, the loaded site pipes drawn and listed.
  assert.equal(await page.locator('#view-topology .gt-topo-node.is-used').count(), 512);
  const outlined = await page.$$eval('#view-topology .gt-rtopo-outline', (rs) => new Set(rs.map((r) => r.dataset.replica)).size);
  assert.equal(outlined, bars.length);
  const pipes = await page.locator('#view-topology .gt-rtopo-pipe').count();
  assert.ok(pipes >= 1, 'the cross-site sync loads site pipes');
  assert.equal(await page.locator('#view-topology .gt-rtopo-pipes-table tbody tr').count(), pipes);
  // Stages: the replicas' table, and the chosen replica's own stage table.
  assert.equal(await page.locator('#view-stages .gt-replica-table tbody tr').count(), bars.length);
  assert.deepEqual(await page.evaluate(() => document.querySelectorAll('#view-stages .gt-replica-body .gt-st-table tbody tr').length > 0), true);
  assert.deepEqual(await smallTexts(page, '#results'), [], 'no text under 9 px at 1280');
  await screenshot(page, 'replicas-512-desktop');
  for (const view of ['pipeline', 'stages', 'timeline', 'topology']) {
    await page.locator(`.view-${view}`).screenshot({ path: join(ARTIFACTS, `replicas-512-desktop-${view}.png`) });
  }
  // 390 px: the same plan, the replica chooser worked by keyboard.
  await page.setViewportSize(PHONE);
  const chooser = page.locator('#view-stages select[data-replica-chooser="stages"]');
  const before = await page.getAttribute('#view-stages .gt-replica-body', 'data-replica');
  await chooser.focus();
  await page.keyboard.press(before === String(bars.length - 1) ? 'ArrowUp' : 'ArrowDown');
  const after = await page.getAttribute('#view-stages .gt-replica-body', 'data-replica');
  assert.notEqual(after, before, 'the arrow key chose another replica');
  assert.equal(await chooser.inputValue(), after);
  const firstGpu = await page.textContent('#view-stages .gt-replica-body tbody tr .gt-st-id');
  assert.ok(firstGpu.length > 0);
  await page.locator('#view-timeline select[data-replica-chooser="timeline"]').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowUp');
  await page.waitForSelector('#view-timeline .gt-tl-svg');
  assert.ok(await page.locator('#view-timeline .gt-tl-svg').count() === 1);
  assert.deepEqual(await smallTexts(page, '#results'), [], 'no text under 9 px at 390');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `the page does not scroll sideways (${width} px); the drawings scroll in their boxes`);
  for (const view of ['pipeline', 'stages', 'timeline', 'topology']) {
    await page.locator(`.view-${view}`).screenshot({ path: join(ARTIFACTS, `replicas-512-phone-${view}.png`) });
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('the replicas study: where one pipeline gives way to replicas, and a point\'s plan in the views', async () => {
  const { context, page } = await browser.freshPage();
  const opened = await browser.freshPage(await fragmentFor(page, twoSitePool()));
  await context.close();
  const p = opened.page;
  await p.setViewportSize(DESKTOP);
  const kind = p.locator('#study-kind');
  await kind.focus();
  // The replicas study is the last in the list: End picks it, by keyboard.
  await p.keyboard.press('End');
  assert.equal(await kind.inputValue(), 'replicas');
  assert.equal(await p.textContent('.study-field-values label'), 'Base cross-site bandwidth (Gbps)');
  assert.ok(await p.locator('#study-sync-every').isVisible());
  assert.ok(!(await p.locator('#study-seeds').isVisible()), 'one seed per plan: no seeds field');
  await typeInto(p.locator('#study-values'), '1, 10, 100, 1000');
  await typeInto(p.locator('#study-sync-every'), '1');
  await p.locator('#study-run').focus();
  await p.keyboard.press('Enter');
  await p.waitForFunction(() => /^(Done|Cancelled|The study could not run)/.test(document.getElementById('study-status').textContent), null, { timeout: 90000 });
  assert.match(await p.textContent('#study-status'), /^Done: 8 plans/);
  const rows = await p.$$eval('#study-output .st-replicas-table tbody tr', (trs) => trs.map((tr) => ({
    value: Number(tr.dataset.value), winner: tr.children[6].textContent, r: tr.children[5].textContent,
  })));
  assert.deepEqual(rows.map((r) => r.value), [1, 10, 100, 1000]);
  assert.deepEqual(rows.map((r) => r.winner), ['one pipeline', 'one pipeline', 'replicas', 'replicas']);
  assert.match(await p.textContent('#st-replicas-crossover'), /^replicas win from 100 Gbps/);
  assert.equal(await p.locator('#study-output .st-crossover-line').count(), 1);
  // A replicas point's plan, chosen by keyboard, in the plan views.
  const point = p.locator('#study-output circle.st-point.is-win').last();
  await point.focus();
  await p.keyboard.press('Enter');
  await p.waitForFunction(() => /One pipeline against replicas/.test(document.getElementById('result-origin')?.textContent ?? ''));
  await p.waitForSelector('#view-pipeline .gt-rb-replica');
  assert.equal(await p.locator('#view-pipeline .gt-rb-replica').count(), 2);
  assert.deepEqual(await smallTexts(p, '#studies'), []);
  await p.locator('#study-output').screenshot({ path: join(ARTIFACTS, 'replicas-study-desktop.png') });
  await p.setViewportSize(PHONE);
  assert.deepEqual(await smallTexts(p, '#studies'), []);
  const wide = await p.evaluate(() => [document.documentElement.scrollWidth, document.querySelector('#study-output figcaption').getBoundingClientRect().right]);
  assert.ok(wide[0] <= 390 && wide[1] <= 390, `the study fits the phone's width: ${wide}`);
  await p.locator('#study-output').screenshot({ path: join(ARTIFACTS, 'replicas-study-phone.png') });
  assert.deepEqual(opened.errors, []);
  await opened.context.close();
});
