// The simulated 1F1B schedule on the page (issue 25): the timeline of a plan made by clicking Plan
// draws the module's events (forwards and backwards told apart, transfers, nothing before its input,
// the phases), the simulated and analytic times side by side, a send-mode choice worked from the
// keyboard, no text under 9 px at 1280x800 or 390x844; the robustness study run from the Studies
// panel as a person would; and a plan too large to draw whole. Screenshots go to build/artifacts/.
// Run: node --test tests/browser/simulation.test.mjs
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callModule, openExample, screenshot, smallTexts as smallTextsOf, typeInto, useBrowser, waitStatus } from './helpers.mjs';


const { freshPage } = useBrowser({ requireStudies: true });
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

// Every visible text of `selector` under 9 px, labels and choosers included (helpers.mjs).
const smallTexts = (page, selector) => smallTextsOf(page, selector, ['label', 'select']);

// Every drawn operation and transfer of the timeline.
const drawnEvents = (page) => page.$$eval('#view-timeline [data-kind]', (nodes) => nodes.map((n) => ({
  stage: Number(n.dataset.stage), k: Number(n.dataset.microBatch), kind: n.dataset.kind,
  start: Number(n.dataset.startMs), end: Number(n.dataset.endMs),
})));

const timelineData = (page) => page.$eval('#view-timeline svg.gt-tl-svg', (svg) => ({ ...svg.dataset }));

test('the timeline of a planned example is the module\'s simulated schedule', async () => {
  const { context, page, errors } = await freshPage();
  await page.setViewportSize(DESKTOP);
  await openExample(page, 'three-sites');
  await page.click('#plan-button');
  await waitStatus(page, 'Done', 60000);
  await page.waitForSelector('#view-timeline svg.gt-tl-svg');
  const data = await timelineData(page);
  assert.equal(data.sends, 'blocking');
  // The analytic time is the plan's headline figure; the simulated one is the module's for this plan.
  const headline = Number(await page.getAttribute('#result-iteration-ms', 'data-value'));
  assert.ok(Math.abs(Number(data.analyticMs) - headline) <= 1e-9 * headline, `${data.analyticMs} against ${headline}`);
  const plan = JSON.parse(await page.inputValue('#problem-json'));
  const stagesText = await page.textContent('#result-stages');
  const stages = [...stagesText.matchAll(/(\w+) \((\d+)\)/g)].map((m) => ({ gpu: m[1], layers: Number(m[2]) }));
  const module = await callModule('simulate', plan, { stages }, { sends: 'blocking' });
  assert.equal(Number(data.simulatedMs), module.iteration_ms);
  assert.ok(Math.abs(module.difference) > 0.01, 'three-sites: the simulation differs from the formula by over 1%');

  // Forwards and backwards of every micro-batch on every stage, told apart; the transfers between rows.
  const events = await drawnEvents(page);
  const m = Number(data.microBatches);
  const q = stages.length;
  assert.equal(events.filter((e) => e.kind === 'F').length, m * q);
  assert.equal(events.filter((e) => e.kind === 'B').length, m * q);
  assert.equal(events.filter((e) => e.kind === 'send_f').length, m * (q - 1));
  assert.equal(events.filter((e) => e.kind === 'send_b').length, m * (q - 1));
  assert.equal(await page.locator('#view-timeline .gt-tl-block.is-forward text').first().textContent(), 'F1');
  assert.match(await page.locator('#view-timeline .gt-tl-block.is-backward text').first().textContent(), /^B\d+$/);
  // A schedule that can happen: nothing starts before its input has arrived.
  const at = new Map(events.map((e) => [`${e.kind},${e.stage},${e.k}`, e]));
  for (const e of events) {
    if (e.kind === 'F' && e.stage > 0) assert.ok(e.start >= at.get(`send_f,${e.stage - 1},${e.k}`).end - 1e-9, `F(${e.stage},${e.k})`);
    if (e.kind === 'B') assert.ok(e.start >= at.get(`F,${e.stage},${e.k}`).end - 1e-9, `B(${e.stage},${e.k}) after its forward`);
    if (e.kind === 'B' && e.stage < q - 1) assert.ok(e.start >= at.get(`send_b,${e.stage + 1},${e.k}`).end - 1e-9, `B(${e.stage},${e.k})`);
  }
  // The phases where the schedule has them: warm-up ends when the last stage starts its first backward.
  const phases = await page.$$eval('#view-timeline .gt-tl-phase', (gs) => gs.map((g) => ({ name: g.dataset.phase, end: Number(g.dataset.endMs) })));
  assert.deepEqual(phases.map((p) => p.name), ['warm-up', 'steady state', 'cool-down']);
  assert.equal(phases[0].end, at.get(`B,${q - 1},0`).start);
  // The formula's end is marked, and the caption says what the difference means.
  assert.equal(await page.locator('#view-timeline .gt-tl-formula-line').count(), 1);
  const caption = await page.textContent('#view-timeline figcaption');
  assert.match(caption, /^Simulated iteration [\d.]+ s \(blocking sends\) against the formula's [\d.]+ s/);
  assert.match(caption, /shorter: the formula adds every stage's time once on top of M − 1 times the slowest stage's/);
  assert.deepEqual(await smallTexts(page, '#results'), [], 'no text under 9 px at 1280x800');
  await screenshot(page, 'simulation-timeline-desktop');
  await page.locator('section.view-timeline').screenshot({ path: 'build/artifacts/simulation-timeline-view.png' });

  // Overlapped sends, chosen from the keyboard: the view asks the module again and redraws in place.
  const select = page.locator('#view-timeline .gt-tl-sends select');
  await select.focus();
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => document.querySelector('#view-timeline svg.gt-tl-svg')?.dataset.sends === 'overlapped');
  const overlapped = await timelineData(page);
  assert.ok(Number(overlapped.simulatedMs) <= Number(data.simulatedMs));
  assert.equal(await page.locator('#view-timeline .gt-tl-sending').count(), 0, 'no GPU waits for a send');
  assert.ok(await page.locator('#view-timeline .gt-tl-sends select').evaluate((s) => s === document.activeElement), 'the choice keeps the focus');

  await page.setViewportSize(PHONE);
  assert.deepEqual(await smallTexts(page, '#results'), [], 'no text under 9 px at 390x844');
  await page.locator('section.view-timeline').screenshot({ path: 'build/artifacts/simulation-timeline-phone.png' });
  assert.deepEqual(errors, []);
  await context.close();
});

test('the tour\'s first step explains the simulated schedule it shows', async () => {
  const { context, page, errors } = await freshPage();
  await page.setViewportSize(DESKTOP);
  await page.getByRole('button', { name: 'Guided tour' }).click();
  await page.waitForFunction(() => document.getElementById('tour')?.dataset.stepState === 'ready', null, { timeout: 60000 });
  const text = await page.textContent('#tour-text');
  assert.match(text, /warm-up/);
  assert.match(text, /light blocks are forwards, dark ones backwards/);
  const caption = await page.textContent('.view-timeline .tour-caption');
  const data = await timelineData(page);
  // The caption's figures are the drawn schedule's: 3 stages, 8 micro-batches, the bubble and both times.
  const shown = /^Hatched = idle\. Here 3 stages and 8 micro-batches leave ([\d.]+)% of the 211 ms simulated iteration idle \(the formula says 211 ms\)\.$/.exec(caption);
  assert.ok(shown, caption);
  assert.ok(Math.abs(Number(shown[1]) - Number(data.bubbleFraction) * 100) < 0.05, `${shown[1]} against ${data.bubbleFraction}`);
  // "for this plan they agree": the exact plan's simulated and analytic times are the same.
  assert.match(text, /for this plan they agree/);
  assert.ok(Math.abs(Number(data.simulatedMs) - Number(data.analyticMs)) < 1e-6 * Number(data.analyticMs));
  // The tour scrolls the timeline into view: what the person sees.
  await page.waitForFunction(() => {
    const box = document.querySelector('.view-timeline .tour-caption')?.getBoundingClientRect();
    return box && box.top >= 0 && box.bottom <= innerHeight;
  }, null, { timeout: 5000 });
  await page.screenshot({ path: 'build/artifacts/simulation-tour-step-1.png' });
  assert.deepEqual(errors, []);
  await context.close();
});

test('the robustness study, run from the Studies panel, and a plan of it shown', async () => {
  const { context, page, errors } = await freshPage();
  await page.setViewportSize(DESKTOP);
  await openExample(page, 'three-sites');
  await page.selectOption('#study-kind', 'robustness');
  assert.equal(await page.isVisible('#study-scenarios'), true);
  assert.equal(await page.isVisible('#study-lambdas'), false);
  await typeInto(page.locator('#study-plans'), '4');
  await typeInto(page.locator('#study-scenarios'), '40');
  await page.click('#study-run');
  await page.waitForFunction(() => document.getElementById('study-status').textContent.startsWith('Done'), null, { timeout: 120000 });
  assert.match(await page.textContent('#study-status'), /^Done: 4 plans, 40 scenarios each/);
  const rows = await page.$$eval('#study-output .st-robustness-table tbody tr', (trs) => trs.map((tr) => tr.dataset.job));
  assert.deepEqual(rows, ['plan-1', 'plan-2', 'plan-3', 'plan-4']);
  assert.equal(await page.locator('#study-output .st-rob-row').count(), 4);
  assert.equal(await page.locator('#study-output .st-rob-dot').count(), 4 * 40);
  // The same figures as the module in Node for the same problem and options.
  const problem = JSON.parse(await page.inputValue('#problem-json'));
  const direct = await callModule('robustness', problem, { plans: 4, scenarios: 40, jitter: 0.3, straggler_slowdown: 2 });
  const starred = await page.$eval('#study-output tr.is-most-robust', (tr) => tr.dataset.job);
  assert.equal(starred, `plan-${direct.most_robust + 1}`);
  const p90 = await page.$$eval('#study-output .st-rob-row', (gs) => gs.map((g) => Number(g.dataset.p90Ms)));
  assert.deepEqual(p90, direct.plans.map((p) => p.p90_ms));
  assert.deepEqual(await smallTexts(page, '#studies'), [], 'no text under 9 px at 1280x800');
  await page.locator('#studies').screenshot({ path: 'build/artifacts/simulation-robustness-desktop.png' });
  // A plan chosen from the keyboard shows in the plan views, its timeline simulated.
  await page.locator('#study-output .st-rob-row[data-job="plan-2"]').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /plan 2 of 4/.test(document.getElementById('result-method')?.textContent ?? ''));
  await page.waitForSelector('#view-timeline svg.gt-tl-svg');
  const shown = await timelineData(page);
  assert.equal(Number(shown.simulatedMs), direct.plans[1].simulated_iteration_ms);
  await page.setViewportSize(PHONE);
  assert.deepEqual(await smallTexts(page, '#studies'), [], 'no text under 9 px at 390x844');
  await page.locator('#studies').screenshot({ path: 'build/artifacts/simulation-robustness-phone.png' });
  assert.deepEqual(errors, []);
  await context.close();
});

test('a plan too large to draw whole: first and last micro-batches, the rest merged at a break', async () => {
  const { context, page, errors } = await freshPage();
  await page.setViewportSize(DESKTOP);
  await openExample(page, 'llama70b-64xa100');
  await page.selectOption('#method', 'metis');
  await page.click('#plan-button');
  await waitStatus(page, 'Done', 60000);
  await page.waitForSelector('#view-timeline svg.gt-tl-svg');
  const data = await timelineData(page);
  const m = Number(data.microBatches);
  const drawn = Number(data.drawnMicroBatches);
  assert.ok(m > 64 && drawn <= 64 && drawn > 0, `${drawn} of ${m} drawn`);
  const ks = [...new Set((await drawnEvents(page)).map((e) => e.k))].sort((a, b) => a - b);
  assert.equal(ks.length, drawn);
  assert.equal(ks[0], 0);
  assert.equal(ks[ks.length - 1], m - 1);
  const q = await page.locator('#view-timeline .gt-tl-bubble').count();
  assert.equal(await page.locator('#view-timeline .gt-tl-merged-band').count(), q);
  assert.equal(await page.locator('#view-timeline .gt-tl-break').count(), 1);
  assert.match(await page.textContent('#view-timeline .gt-note'), new RegExp(`of ${m.toLocaleString('en-US')} \\(${drawn} drawn\\)`));
  assert.deepEqual(await smallTexts(page, '#results'), []);
  await page.locator('section.view-timeline').screenshot({ path: 'build/artifacts/simulation-timeline-large.png' });
  await page.setViewportSize(PHONE);
  assert.deepEqual(await smallTexts(page, '#results'), [], 'no text under 9 px at 390x844');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a plan of replicas: the replica that drains last, then the sync phase', async () => {
  const { context, page, errors } = await freshPage();
  await page.setViewportSize(DESKTOP);
  // Two sites of two GPUs, two replicas (replicas.md); the stage rings cross between the sites, so
  // the cross-replica sync is long next to the pipelines.
  const gpu = (id) => ({ id, site: id[0].toUpperCase(), peak_tflops: 100, memory_gib: 80, idle_w: 50, active_w: 250 });
  const problem = {
    name: 'two sites, two replicas',
    model: { hidden_size: 1000, num_layers: 4, seq_length: 1000, vocab_size: 1000, micro_batch_size: 1, global_batch_size: 8 },
    gpus: ['a0', 'a1', 'b0', 'b1'].map(gpu),
    network: { intra_site: { bandwidth_gbps: 100, latency_ms: 0.1 }, inter_site: { bandwidth_gbps: 10, latency_ms: 10 } },
    objective: { lambda: 1, t_ref_ms: 10, e_ref_j: 2 },
    search: { replicas: 2, time_limit_s: 5, seed: 1 },
  };
  await page.click('#tab-json');
  await page.fill('#problem-json', JSON.stringify(problem, null, 1));
  await page.waitForFunction((n) => JSON.parse(document.getElementById('problem-json').value).name === n, problem.name);
  await page.click('#plan-button');
  await waitStatus(page, 'Done', 60000);
  await page.waitForSelector('#view-timeline svg.gt-tl-svg');
  const data = await timelineData(page);
  assert.equal(data.replicas, '2');
  const solved = await callModule('solve', problem, {});
  const module = await callModule('simulate', problem, solved, { sends: 'blocking' });
  assert.equal(Number(data.simulatedMs), module.iteration_ms);
  assert.equal(Number(data.analyticMs), module.analytic_iteration_ms);
  // The chosen replica's own schedule; the sync phase starts when the last replica has drained.
  const r = Number(data.replica);
  assert.equal(Number(data.pipelineMs), module.makespan_ms[r]);
  assert.equal(Number(data.drainMs), module.sync_start_ms);
  assert.equal(Number(data.syncMs), module.after_drain_ms);
  assert.ok(module.cross_replica_sync_ms > 0);
  const sync = await page.$eval('#view-timeline .gt-tl-phase.is-sync', (g) => g.dataset.phase);
  assert.equal(sync, 'gradient sync');
  // Every stage's all-reduce across the replicas closes the phase, at the drawing's scale.
  assert.equal(await page.locator('#view-timeline .gt-tl-xsync-block').count(), module.replicas[r].stages.length);
  // Its micro-batches only: each replica runs its own share.
  const events = await drawnEvents(page);
  const q = module.replicas[r].stages.length;
  assert.equal(events.filter((e) => e.kind === 'F').length, module.replicas[r].micro_batches * q);
  assert.match(await page.textContent('#view-timeline .gt-tl-replica'), /Replica \d of 2 is drawn/);
  assert.deepEqual(await smallTexts(page, '#view-timeline'), []);
  await page.locator('section.view-timeline').screenshot({ path: 'build/artifacts/simulation-timeline-replicas.png' });
  await page.setViewportSize(PHONE);
  assert.deepEqual(await smallTexts(page, '#view-timeline'), [], 'no text under 9 px at 390x844');
  await page.locator('section.view-timeline').screenshot({ path: 'build/artifacts/simulation-timeline-replicas-phone.png' });
  assert.deepEqual(errors, []);
  await context.close();
});
