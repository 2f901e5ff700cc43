// `geotrain simulate`, `solve --simulate` and `geotrain robustness` from outside (simulator.md,
// docs/simulation.md): a schedule worked out by hand, the report's fields against evaluate's, the
// events, traces, robustness's determinism, and errors that name their field.
// Run: GEOTRAIN_CLI=build/<dir>/core/geotrain node --test tests/simulate.cli.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { handPool, near, run, useCli } from './cli_harness.mjs';

const examples = fileURLToPath(new URL('../examples/', import.meta.url));
const { write } = useCli('geotrain-simulate-');

function json(args) {
  const r = run(args);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

// handPool (tests/cli_harness.mjs): H = T = V = 1000, u = 1, M = 4, fp16. g0 and g2 at 100 TFLOPS:
// a layer 3 * 24e6 * 1000 / 1e14 = 0.72 ms, the head 0.06 ms; an activation of 2e6 B over the
// default 10 Gbps (1.25e9 B/s), 1 ms link: 1 + 1.6 = 2.6 ms, both ways between g0 and g2.
// Plan g0 (3 layers) -> g2 (1 layer): f0 = 0.72, b0 = 1.44, tau0 = 2.16 + 2.6 = 4.76;
// f1 = 0.26, b1 = 0.52, tau1 = 0.78 + 2.6 = 3.38. Analytic: 8.14 + 3 * 4.76 = 22.42 ms.
// Blocking sends, stage 0 running F0 F1 B0 F2 B1 F3 B2 B3, stage 1 F0 B0 F1 B1 F2 B2 F3 B3:
// S0 F0 0-0.72 +0.72-3.32; F1 3.32-4.04 +4.04-6.64.  S1 F0 3.32-3.58, B0 3.58-4.10 +4.10-6.70;
// F1 6.70-6.96, B1 6.96-7.48 +7.48-10.08.  S0 B0 6.70-8.14; F2 8.14-8.86 +8.86-11.46; B1 11.46-12.90;
// F3 12.90-13.62 +13.62-16.22.  S1 F2 11.46-11.72, B2 11.72-12.24 +12.24-14.84; F3 16.22-16.48,
// B3 16.48-17.00 +17.00-19.60.  S0 B2 16.22-17.66; B3 19.60-21.04. Makespan 21.04 ms.
const handPlan = { stages: [{ gpu: 'g0', layers: 3 }, { gpu: 'g2', layers: 1 }] };

test('a two-stage schedule worked out by hand', () => {
  const r = json(['simulate', write('hand.json', handPool), write('plan.json', handPlan), '--events']);
  near(r.analytic_iteration_ms, 22.42, 'analytic');
  near(r.iteration_ms, 21.04, 'simulated');
  near(r.makespan_ms, 21.04, 'makespan');
  near(r.difference, (21.04 - 22.42) / 22.42, 'difference');
  // Busy: stage 0 4 * 4.76 = 19.04, stage 1 4 * 3.38 = 13.52 of 21.04 each.
  near(r.stages[0].busy_ms, 19.04, 'busy 0');
  near(r.stages[1].idle_ms, 21.04 - 13.52, 'idle 1');
  near(r.bubble_fraction, 1 - (19.04 + 13.52) / (2 * 21.04), 'bubble');
  assert.equal(r.sends, 'blocking');
  // 2 stages x 4 micro-batches x (F, B) and one send each: 16 + 8 events.
  assert.equal(r.events.length, 24);
  const at = (stage, k, kind) => r.events.find((e) => e.stage === stage && e.micro_batch === k && e.kind === kind);
  near(at(0, 1, 'B').start_ms, 11.46, 'B(0,1) waits for its own send');
  near(at(1, 3, 'send_b').end_ms, 19.60, 'the last gradient');
  near(at(0, 3, 'B').end_ms, 21.04, 'the end');
  assert.deepEqual(Object.keys(r.events[0]), ['replica', 'stage', 'micro_batch', 'kind', 'start_ms', 'end_ms']);
  // The stage's own phases: stage 0's first backward at 6.70, its last forward ends 13.62.
  near(r.stages[0].warmup_end_ms, 6.70, 'warm-up end');
  near(r.stages[0].cooldown_start_ms, 13.62, 'cool-down start');
});

test('overlapped sends are never slower, and the analytic figure is evaluate\'s', () => {
  for (const name of ['three-sites', 'straggler-4gpu', 'asymmetric-link']) {
    const problem = `${examples}${name}.json`;
    const plan = json(['solve', problem, '--method', 'metis-improved']);
    const planFile = write(`${name}-plan.json`, plan);
    const blocking = json(['simulate', problem, planFile]);
    const overlapped = json(['simulate', problem, planFile, '--sends', 'overlapped']);
    near(blocking.analytic_iteration_ms, plan.iteration_ms, `${name} analytic`);
    assert.ok(overlapped.iteration_ms <= blocking.iteration_ms * (1 + 1e-12), name);
    assert.equal(overlapped.sends, 'overlapped');
    assert.equal(blocking.stages.length, plan.stages.length);
    assert.equal(blocking.events, undefined, 'events only when asked');
  }
});

test('solve --simulate adds the simulation of the plan it prints', () => {
  const problem = `${examples}three-sites.json`;
  const r = json(['solve', problem, '--method', 'metis-improved', '--simulate']);
  near(r.simulation.analytic_iteration_ms, r.iteration_ms, 'analytic');
  const direct = json(['simulate', problem, write('ts-plan.json', r)]);
  assert.equal(r.simulation.iteration_ms, direct.iteration_ms);
  assert.equal(r.simulation.problem, undefined);
});

test('events of the first and last micro-batches only, the rest merged', () => {
  const r = json(['simulate', write('hand.json', handPool), write('plan.json', handPlan), '--events', '--events-each-end', '1']);
  assert.deepEqual([...new Set(r.events.map((e) => e.micro_batch))].sort(), [0, 3]);
  assert.equal(r.events_each_end, 1);
  assert.equal(r.merged.length, 2);
  // Stage 1 runs micro-batches 1 and 2 from F1 at 6.70 to B2's send at 14.84.
  near(r.merged[1].start_ms, 6.70, 'merged start');
  near(r.merged[1].end_ms, 14.84, 'merged end');
});

test('a trace slows the iterations it reaches, deterministically', () => {
  const problem = write('hand.json', handPool);
  const plan = write('plan.json', handPlan);
  // From 30 ms on g2 computes 3 times slower; from 50 ms the g0 -> g2 link carries half its bandwidth.
  const trace = write('trace.json', { iterations: 4, changes: [
    { at_ms: 30, gpu: 'g2', slowdown: 3 },
    { at_ms: 50, link: { from: 'g0', to: 'g2' }, bandwidth_factor: 0.5 },
  ] });
  const r = json(['simulate', problem, plan, '--trace', trace]);
  const times = r.trace.iteration_ms;
  assert.equal(times.length, 4);
  near(times[0], 21.04, 'the first iteration ends before any change');
  assert.ok(times[1] > times[0] && times[3] > times[1], times.join());
  near(r.trace.total_ms, times.reduce((a, t) => a + t, 0), 'total');
  assert.deepEqual(json(['simulate', problem, plan, '--trace', trace]).trace, r.trace);
  // --iterations overrides the trace's.
  assert.equal(json(['simulate', problem, plan, '--trace', trace, '--iterations', '2']).trace.iteration_ms.length, 2);
});

test('bad options and traces are refused with the field named', () => {
  const problem = write('hand.json', handPool);
  const plan = write('plan.json', handPlan);
  const sends = run(['simulate', problem, plan, '--sends', 'sideways']);
  assert.equal(sends.code, 1);
  assert.match(sends.stderr, /options\.sends: must be "blocking" or "overlapped", got "sideways"/);
  const trace = write('bad-trace.json', { changes: [{ at_ms: -1, gpu: 'nope', slowdown: 0 },
    { at_ms: 5, link: { from_site: 'A', to: 'g1' }, bandwidth_factor: 2 }] });
  const bad = run(['simulate', problem, plan, '--trace', trace]);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /options\.trace\.changes\[0\]\.at_ms: must be >= 0/);
  assert.match(bad.stderr, /options\.trace\.changes\[0\]\.gpu: no GPU has the id "nope"/);
  assert.match(bad.stderr, /options\.trace\.changes\[0\]\.slowdown: must be > 0/);
  assert.match(bad.stderr, /options\.trace\.changes\[1\]\.link: must name either/);
  const plans = run(['robustness', problem, '--plans', '40']);
  assert.equal(plans.code, 1);
  assert.match(plans.stderr, /options\.plans: must be/);
  const jitter = run(['robustness', problem, '--jitter', '1.5']);
  assert.match(jitter.stderr, /options\.jitter: must be in \[0, 1\), got 1\.5/);
});

// Two sites (replicas.md): a0, a1 at A and b0, b1 at B, 100 TFLOPS; inside a site 100 Gbps,
// 0.1 ms; between them 10 Gbps, 10 ms. H = T = V = 1000, u = 1, M = 4, 4 layers.
// Replica 0 a0 (2 layers) -> a1 (2 layers) on 3 micro-batches, replica 1 b0 -> b1 on 1:
// f0 = 0.48, b0 = 0.96, f1 = 0.50, b1 = 1.00 ms (the head adds 0.06 to stage 1's 1.44),
// sends inside a site 0.1 + 2e6 / 1.25e10 s = 0.26 ms. Replica 0 (blocking):
// F(0,0) 0-0.48 +-0.74; F(0,1) 0.74-1.22 +-1.48; F(1,0) 0.74-1.24; B(1,0) 1.24-2.24 +-2.50;
// F(1,1) 2.50-3.00; B(0,0) 2.50-3.46; F(0,2) 3.46-3.94 +-4.20; B(1,1) 3.00-4.00 +-4.26;
// F(1,2) 4.26-4.76; B(0,1) 4.26-5.22; B(1,2) 4.76-5.76 +-6.02; B(0,2) 6.02-6.98.
// Replica 1: F 0-0.48 +-0.74, F 0.74-1.24, B 1.24-2.24 +-2.50, B 2.50-3.46: 3.46 ms.
// Across replicas, each stage's ring crosses A -> B and back: the pipe A -> B carries
// 2 (R - 1) / R (X_0 + X_1) = (2 * 2.4e7) + (2 * 2.4e7 + 2e6) = 9.8e7 B over 1.25e9 B/s
// plus 2 (R - 1) latencies: 78.4 + 20 = 98.4 ms. T_sim = 6.98 + 98.4 = 105.38 ms.
const twoSites = {
  name: 'two sites',
  model: { hidden_size: 1000, num_layers: 4, seq_length: 1000, vocab_size: 1000, micro_batch_size: 1, global_batch_size: 4 },
  gpus: ['a0', 'a1', 'b0', 'b1'].map((id) => ({ id, site: id[0].toUpperCase(), peak_tflops: 100, memory_gib: 80, idle_w: 50, active_w: 250 })),
  network: { intra_site: { bandwidth_gbps: 100, latency_ms: 0.1 }, inter_site: { bandwidth_gbps: 10, latency_ms: 10 } },
  objective: { lambda: 1, t_ref_ms: 10, e_ref_j: 2 },
};
const replicaPlan = { replicas: [
  { micro_batches: 3, stages: [{ gpu: 'a0', layers: 2 }, { gpu: 'a1', layers: 2 }] },
  { micro_batches: 1, stages: [{ gpu: 'b0', layers: 2 }, { gpu: 'b1', layers: 2 }] },
] };

test('a replica plan: each replica\'s pipeline, then the sync phase, worked out by hand', () => {
  const problem = write('two-sites.json', twoSites);
  const plan = write('replicas.json', replicaPlan);
  const r = json(['simulate', problem, plan, '--events']);
  assert.equal(r.makespan_ms.length, 2);
  near(r.makespan_ms[0], 6.98, 'replica 0');
  near(r.makespan_ms[1], 3.46, 'replica 1');
  near(r.sync_start_ms, 6.98, 'the sync starts when the last replica drains');
  near(r.cross_replica_sync_ms, 98.4, 'T_xsync');
  assert.equal(r.data_parallel_sync_ms, 0);
  assert.equal(r.sync_every, 1);
  near(r.iteration_ms, 105.38, 'T_sim');
  near(r.analytic_iteration_ms, json(['evaluate', problem, plan]).iteration_ms, 'evaluate\'s T_iter');
  near(r.analytic_iteration_ms, 105.38, 'the formula agrees here');
  assert.equal(r.replicas.length, 2);
  assert.equal(r.replicas[1].micro_batches, 1);
  const at = (replica, stage, k, kind) => r.events.find((e) => e.replica === replica && e.stage === stage && e.micro_batch === k && e.kind === kind);
  near(at(0, 0, 2, 'B').start_ms, 6.02, 'B(0,2) of replica 0');
  near(at(1, 0, 0, 'B').end_ms, 3.46, 'replica 1 drains');
  // 2 replicas x 2 stages: (3 + 1) micro-batches x 2 operations x 2 stages + 1 send each = 24 events.
  assert.equal(r.events.length, 24);
  // sync_every 4: the cross-replica sync once every four iterations, 6.98 + 98.4 / 4 = 31.58 ms.
  const local = json(['simulate', write('two-sites-h4.json', { ...twoSites, training: { sync_every: 4 } }), plan]);
  near(local.iteration_ms, 31.58, 'T_sim with sync_every 4');
  assert.equal(local.sync_every, 4);
  // A trace: a1 computes twice as slowly from 110 ms, inside the second iteration (105.38 ms on).
  // The third runs it throughout: f1 = 1.00, b1 = 2.00 ms on replica 0's stage 1, so
  // F(0,0) 0-0.48 +-0.74; F(0,1) 0.74-1.22 +-1.48; F(1,0) 0.74-1.74; B(1,0) 1.74-3.74 +-4.00;
  // F(1,1) 4.00-5.00; B(0,0) 4.00-4.96; F(0,2) 4.96-5.44 +-5.70; B(1,1) 5.00-7.00 +-7.26;
  // F(1,2) 7.26-8.26; B(0,1) 7.26-8.22; B(1,2) 8.26-10.26 +-10.52; B(0,2) 10.52-11.48;
  // replica 1 is untouched (3.46): 11.48 + 98.4 = 109.88 ms.
  const trace = write('replica-trace.json', { iterations: 3, changes: [{ at_ms: 110, gpu: 'a1', slowdown: 2 }] });
  const replayed = json(['simulate', problem, plan, '--trace', trace]).trace.iteration_ms;
  near(replayed[0], 105.38, 'before the change');
  assert.ok(replayed[1] > 105.38 && replayed[1] < 109.88, replayed.join());
  near(replayed[2], 109.88, 'slowed throughout');
});

test('solve --simulate with replicas, and the best-plans features refuse them naming the field', () => {
  const problem = write('two-sites-r2.json', { ...twoSites, search: { replicas: 2, time_limit_s: 5, seed: 1 } });
  const solved = json(['solve', problem, '--simulate']);
  assert.equal(solved.replicas.length, 2);
  assert.equal(solved.simulation.makespan_ms.length, 2);
  near(solved.simulation.analytic_iteration_ms, solved.iteration_ms, 'the simulated plan is the printed one');
  for (const args of [['solve', problem, '--rank-by', 'simulated'], ['robustness', problem]]) {
    const r = run(args);
    assert.equal(r.code, 1, args.join(' '));
    assert.match(r.stderr, /search\.replicas: ranking by the simulation and the robustness study compare one-pipeline plans/);
  }
});

test('robustness: the best few plans, the same for the same seed', () => {
  const problem = `${examples}three-sites.json`;
  const args = ['robustness', problem, '--plans', '4', '--scenarios', '30', '--seed', '3'];
  const r = json(args);
  assert.equal(r.study, 'robustness');
  assert.equal(r.plans.length, 4);
  assert.equal(r.seed, 3);
  for (const p of r.plans) {
    assert.equal(p.scenario_ms.length, 30);
    const sorted = [...p.scenario_ms].sort((a, b) => a - b);
    near(p.worst_ms, sorted[29], 'worst');
    near(p.p90_ms, sorted[26], 'p90: the 27th of 30');
    near(p.median_ms, sorted[14], 'median: the 15th of 30');
    near(p.p90_degradation, p.p90_ms / p.simulated_iteration_ms - 1, 'degradation');
  }
  // Plan 1 is the planner's best by the formula; most_robust the lowest 90th percentile.
  const objectives = r.plans.map((p) => p.objective);
  assert.deepEqual(objectives, [...objectives].sort((a, b) => a - b));
  const p90 = r.plans.map((p) => p.p90_ms);
  assert.equal(r.most_robust, p90.indexOf(Math.min(...p90)));
  assert.deepEqual(json(args), r);
  // Another seed, other scenarios; no scenarios, the plans as planned only.
  assert.notDeepEqual(json([...args.slice(0, -1), '4']).plans[0].scenario_ms, r.plans[0].scenario_ms);
  const none = json(['robustness', problem, '--plans', '2', '--scenarios', '0']);
  assert.equal(none.plans[0].scenario_ms, undefined);
  near(none.plans[0].analytic_iteration_ms, r.plans[0].analytic_iteration_ms, 'same best plan');
});
