// `geotrain pareto` and `geotrain sweep` from outside: JSON and CSV, exit codes,
// errors naming their field. Run: GEOTRAIN_CLI=build/<dir>/core/geotrain node --test tests/studies.cli.test.mjs
//
// The hand pool (tests/cli.test.mjs) with g0 on site X and g1, g2 on site Y, lambda 0.5:
//   [g2:4]: T = 4 * (4 * 0.72 + 0.06) = 11.76 ms, E = 0.01176 * 20 + 4 * 100 * 2.94e-3 = 1.4112 J,
//           objective 0.5 * 11.76 / 10 + 0.5 * 1.4112 / 2 = 0.9408: the best one-GPU plan
//           ([g0:4]: 1.323, [g1:4]: 1.5288).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { handPool as costModelPool, near, run, useCli } from './cli_harness.mjs';

const examples = fileURLToPath(new URL('../examples/', import.meta.url));
const harness = useCli('geotrain-studies-');
const { write } = harness;

// The hand pool with g0 on site X, g1 and g2 on site Y, at lambda 0.5.
const handPool = {
  ...costModelPool,
  gpus: costModelPool.gpus.map((g, i) => ({ ...g, site: i === 0 ? 'X' : 'Y' })),
  objective: { ...costModelPool.objective, lambda: 0.5 },
};

test('pareto prints the summary as JSON, the same on every run', () => {
  const pool = write('pool.json', handPool);
  const args = ['pareto', pool, '--lambdas', '0,0.5,1', '--seeds', '2'];
  const r = run(args);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  const out = JSON.parse(r.stdout);
  assert.equal(out.study, 'pareto');
  assert.equal(out.jobs, 6);
  assert.equal(out.missing, 0);
  assert.equal(out.failed, 0);
  assert.deepEqual(out.table.map((row) => row.lambda), [0, 0.5, 1]);
  assert.deepEqual(out.points.map((p) => p.job),
    ['lambda=0/seed=1', 'lambda=0/seed=2', 'lambda=0.5/seed=1', 'lambda=0.5/seed=2', 'lambda=1/seed=1', 'lambda=1/seed=2']);
  assert.deepEqual(out.table[1].stages, [{ gpu: 'g2', layers: 4 }]);
  near(out.table[1].objective, 0.9408, 'objective at lambda 0.5');
  assert.equal(out.table[2].delta_t_pct, 0);
  assert.equal(out.reference.method, 'metis-improved');
  for (const row of out.table) {
    for (const key of ['job', 'iteration_ms', 'energy_j', 'delta_e_pct', 'gpus', 'gpus_used', 'stages',
      'seeds_agreeing', 'knee', 'on_frontier']) assert.ok(key in row, key);
  }
  assert.equal(run(args).stdout, r.stdout);  // no timings in a summary: byte for byte the same
});

test('pareto --format csv prints one line per lambda after a header', () => {
  const r = run(['pareto', write('pool.json', handPool), '--lambdas', '0,1', '--seeds=1', '--format', 'csv']);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 3);
  assert.equal(lines[0], 'lambda,job,iteration_ms,energy_j,delta_t_pct,delta_e_pct,gpus_used,gpus,plan,'
    + 'seeds_agreeing,on_frontier,knee');
  assert.match(lines[1], /^0,lambda=0\/seed=1,/);
  assert.match(lines[2], /^1,lambda=1\/seed=1,[^,]+,[^,]+,0,0,/);
});

test('sweep subset with exact gives the best plan for each GPU count', () => {
  const r = run(['sweep', write('pool.json', handPool), 'subset', '--method', 'exact']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.study, 'subset');
  assert.deepEqual(out.points.map((p) => p.k), [1, 2, 3]);
  assert.deepEqual(out.points[0].stages, [{ gpu: 'g2', layers: 4 }]);
  near(out.points[0].objective, 0.9408, 'k = 1');
  for (const p of out.points) {
    assert.equal(p.feasible, true);
    assert.equal(p.stages.length, p.k);
  }
  const best = Math.min(...out.points.map((p) => p.objective));
  assert.equal(out.points[out.best_k - 1].objective, best);
});

test('sweep latency on three-sites never uses site A, in JSON and in CSV', () => {
  const problem = path.join(examples, 'three-sites.json');
  const r = run(['sweep', problem, 'latency']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.unit, 'ms');
  assert.equal(out.base, 10);
  assert.deepEqual(out.points.map((p) => p.value), [0.1, 1, 5, 10, 50, 100]);
  for (const p of out.points) {
    for (const side of [p.planner, p.metis_improved]) {
      assert.ok(Array.isArray(side.sites_used), JSON.stringify(side));
      assert.ok(!side.sites_used.includes('A'), `site A used at ${p.value} ms`);
    }
    assert.equal(typeof p.gain_pct, 'number');
  }
  const csv = run(['sweep', problem, 'latency', '--values', '1,100', '--seeds', '1', '--format', 'csv']);
  assert.equal(csv.code, 0, csv.stderr);
  const lines = csv.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 3);
  assert.match(lines[0], /^value,unit,planner_iteration_ms,/);
  assert.match(lines[2], /^100,ms,/);
});

test('sweep bandwidth and split run on the hand pool', () => {
  const pool = write('pool.json', handPool);
  const bw = run(['sweep', pool, 'bandwidth', '--values', '1,100', '--seeds', '1']);
  assert.equal(bw.code, 0, bw.stderr);
  const out = JSON.parse(bw.stdout);
  assert.equal(out.unit, 'Gbps');
  assert.equal(out.points.length, 2);
  assert.ok(out.points[1].planner.iteration_ms <= out.points[0].planner.iteration_ms * (1 + 1e-9));
  const split = run(['sweep', pool, 'split', '--format=csv']);
  assert.equal(split.code, 0, split.stderr);
  const lines = split.stdout.trimEnd().split('\n');
  assert.deepEqual(lines.map((l) => l.split(',')[0]), ['split', 'uniform', 'non_uniform']);
});

test('solve --stage-count fixes the number of GPUs', () => {
  const r = run(['solve', write('pool.json', handPool), '--method', 'exact', '--stage-count', '2']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).gpus_used, 2);
});

test('bad study options exit 1 naming the field', () => {
  const pool = write('pool.json', handPool);
  const cases = [
    [['pareto', pool, '--lambdas', '0,1.5'], /^error: study\.lambdas\[1\]: must be in \[0, 1\], got 1\.5$/m],
    [['pareto', pool, '--lambdas', '0,abc'], /--lambdas: must be a decimal number, got 'abc'/],
    [['pareto', pool, '--seeds', '17'], /study\.seeds: must be in \[1, 16\], got 17/],
    [['pareto', pool, '--method', 'metis'], /study\.method: must be memetic or exact, got "metis"/],
    [['sweep', pool, 'latency', '--values', '-1'], /study\.values\[0\]: must be in \[0, 1e6\] ms, got -1/],
    [['sweep', pool, 'bandwidth', '--values', '5,0'], /study\.values\[1\]: must be in \(0, 1e6\] Gbps, got 0/],
  ];
  for (const [args, message] of cases) {
    const r = run(args);
    assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, message);
  }
  const oneSite = structuredClone(handPool);
  for (const g of oneSite.gpus) delete g.site;
  const r = run(['sweep', write('one-site.json', oneSite), 'latency']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^error: study: latency sweep needs GPUs on at least two sites$/m);
});

test('a problem where nothing fits exits 3', () => {
  const tiny = structuredClone(handPool);
  for (const g of tiny.gpus) g.memory_gib = 0.2;
  const r = run(['sweep', write('tiny.json', tiny), 'subset']);
  assert.equal(r.code, 3);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /no feasible plan/);
});

test('usage errors exit 2', () => {
  const pool = write('pool.json', handPool);
  const cases = [
    [['pareto'], /pareto needs PROBLEM\.json/],
    [['sweep', pool], /sweep takes PROBLEM\.json SWEEP, got 1 argument/],
    [['sweep', pool, 'pareto'], /unknown sweep 'pareto'/],
    [['sweep', pool, 'subset', '--lambdas', '0,1'], /unknown option --lambdas for sweep/],
    [['pareto', pool, '--values', '1'], /unknown option --values for pareto/],
    [['pareto', pool, '--format', 'xml'], /--format must be json or csv, got 'xml'/],
    [['pareto', pool, '--seeds'], /--seeds needs a value/],
  ];
  for (const [args, message] of cases) {
    const r = run(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, message);
  }
});

// Two 2-GPU nodes on two sites (tests/test_studies_parallelism.cpp): pipeline best [a0:2, a1:2]
// 14.951667 ms, hybrid best one 2-way tensor-parallel group 12.741333 ms, gain 14.78319 %.
const nodePool = {
  name: 'two nodes',
  model: { hidden_size: 1000, num_layers: 4, seq_length: 1000, vocab_size: 1000, micro_batch_size: 2, global_batch_size: 8 },
  gpus: ['a0', 'a1', 'b0', 'b1'].map((id) => ({
    id, site: id[0] === 'a' ? 'A' : 'B', node: id[0] === 'a' ? 'na' : 'nb', peak_tflops: id[0] === 'a' ? 100 : 50,
    memory_gib: 0.5, idle_w: id[0] === 'a' ? 50 : 10, active_w: id[0] === 'a' ? 250 : 60,
  })),
  network: { default: { bandwidth_gbps: 10, latency_ms: 1 }, intra_node: { bandwidth_gbps: 2400, latency_ms: 0.001 } },
  objective: { lambda: 1 },
};

test('sweep parallelism: pipeline only against stage groups, as JSON and CSV', () => {
  const pool = write('nodes.json', nodePool);
  const r = run(['sweep', pool, 'parallelism', '--method', 'exact']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.study, 'parallelism');
  assert.deepEqual(out.pipeline.stages, [{ gpu: 'a0', layers: 2 }, { gpu: 'a1', layers: 2 }]);
  assert.deepEqual(out.hybrid.stages, [{ gpus: ['a0', 'a1'], layers: 4, tensor_parallel: 2 }]);
  near(out.pipeline.iteration_ms, 14.951666666666667, 'pipeline T');
  near(out.hybrid.iteration_ms, 12.741333333333333, 'hybrid T');
  near(out.gain_pct, ((14.951666666666667 - 12.741333333333333) / 14.951666666666667) * 100, 'gain');
  assert.equal(out.hybrid.gpus_used, 2);
  const csv = run(['sweep', pool, 'parallelism', '--method', 'exact', '--format', 'csv']);
  assert.equal(csv.code, 0, csv.stderr);
  const lines = csv.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 3);
  assert.match(lines[1], /^pipeline,pipeline\/seed=1,true,.*,a0:2 a1:2,,$/);
  assert.match(lines[2], /^hybrid,hybrid\/seed=1,true,.*,a0\+a1\/t2:4,14\.78/);
});

// Issue 11 point 5. Two sites, one GPU each (tests/test_studies_where.cpp): [f:4] 11.76 ms, 2.94 J,
// C = 2.94 / 3.6e6 * 500 g, M = 2.94 / 3.6e6 * 0.1 + 3 * 0.01176 / 3600; [c:4] 23.52 ms, 1.4112 J
// (facility 2.1168 J at PUE 1.5), C = 2.1168 / 3.6e6 * 20 g, M = 2.1168 / 3.6e6 * 0.3 + 2 * 0.02352 / 3600.
// f is the fastest and the cheapest, c the cleanest.
const twoSites = {
  name: 'two sites',
  model: { hidden_size: 1000, num_layers: 4, seq_length: 1000, vocab_size: 1000, micro_batch_size: 1, global_batch_size: 4 },
  gpus: [
    { id: 'f', site: 'fast', peak_tflops: 100, memory_gib: 80, idle_w: 50, active_w: 250, price_per_hour: 3 },
    { id: 'c', site: 'clean', peak_tflops: 50, memory_gib: 80, idle_w: 10, active_w: 60, price_per_hour: 2 },
  ],
  sites: { fast: { carbon_g_per_kwh: 500, pue: 1, price_per_kwh: 0.1 }, clean: { carbon_g_per_kwh: 20, pue: 1.5, price_per_kwh: 0.3 } },
  network: { default: { bandwidth_gbps: 10, latency_ms: 1 } },
  training: { iterations: 1000000 },
  objective: { lambda: 0.5, t_ref_ms: 10, e_ref_j: 2 },
};
const fastCarbon = (2.94 / 3.6e6) * 500;
const fastCost = (2.94 / 3.6e6) * 0.1 + (3 * 0.01176) / 3600;
const cleanCarbon = ((1.4112 * 1.5) / 3.6e6) * 20;
const cleanCost = ((1.4112 * 1.5) / 3.6e6) * 0.3 + (2 * 0.02352) / 3600;

test('pareto --axes carbon,cost: weights per point, four figures, the chosen deltas, CSV', () => {
  const pool = write('two-sites.json', twoSites);
  const r = run(['pareto', pool, '--axes', 'carbon,cost', '--lambdas', '0,1', '--method', 'exact']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(out.axes, ['carbon', 'cost']);
  near(out.c_ref_g, fastCarbon, 'C_ref from metis-improved: [f:4]');
  near(out.m_ref, fastCost, 'M_ref');
  assert.deepEqual(out.table.map((row) => row.stages[0].gpu), ['f', 'c']);  // all money: f; all carbon: c
  near(out.table[0].carbon_g, fastCarbon, 'carbon of [f:4]');
  near(out.table[1].cost, cleanCost, 'money of [c:4]');
  near(out.table[0].delta_c_pct, ((fastCarbon - cleanCarbon) / cleanCarbon) * 100, 'delta C against lambda 1');
  near(out.table[0].delta_m_pct, ((fastCost - cleanCost) / cleanCost) * 100, 'delta M');
  assert.ok(!('delta_t_pct' in out.table[0]));
  assert.deepEqual(out.points[1].weights, { time: 0, energy: 0, carbon: 1, cost: 0 });
  for (const key of ['iteration_ms', 'energy_j', 'carbon_g', 'cost']) assert.ok(key in out.points[0], key);
  const csv = run(['pareto', pool, '--axes=carbon,cost', '--lambdas', '0,1', '--method', 'exact', '--format', 'csv']);
  const lines = csv.stdout.trimEnd().split('\n');
  assert.equal(lines[0], 'lambda,job,iteration_ms,energy_j,carbon_g,cost,delta_c_pct,delta_m_pct,gpus_used,gpus,plan,'
    + 'seeds_agreeing,on_frontier,knee');
  assert.match(lines[2], /^1,lambda=1\/seed=1,23\.52\d*,1\.4112\d*,[^,]+,[^,]+,0,0,1,1×c,c:4,/);
});

test('pareto --axes time,energy prints exactly what pareto always printed', () => {
  const pool = write('pool.json', handPool);
  const plain = run(['pareto', pool, '--lambdas', '0,0.5,1', '--seeds', '2']);
  const named = run(['pareto', pool, '--lambdas', '0,0.5,1', '--seeds', '2', '--axes', 'time,energy']);
  assert.equal(named.code, 0, named.stderr);
  assert.equal(named.stdout, plain.stdout);
});

test('pareto --axes faults name study.axes and exit 1', () => {
  const pool = write('two-sites.json', twoSites);
  const cases = [
    ['carbon,money', /^error: study\.axes\[1\]: must be time, energy, carbon or cost, got "money"$/m],
    ['cost,cost', /^error: study\.axes\[1\]: repeats axes\[0\] \("cost"\); name two different figures$/m],
    ['time', /^error: study\.axes: must list two of time, energy, carbon and cost, got \["time"\]$/m],
    ['time,energy,cost', /^error: study\.axes: must list two/m],
  ];
  for (const [axes, message] of cases) {
    const r = run(['pareto', pool, '--axes', axes]);
    assert.equal(r.code, 1, `${axes}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, message);
  }
  const usage = run(['sweep', pool, 'where', '--axes', 'time,cost']);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /unknown option --axes for sweep/);
});

test('sweep where: each site and the pair, the picks, run totals, CSV', () => {
  const pool = write('two-sites.json', twoSites);
  const r = run(['sweep', pool, 'where', '--method', 'exact']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.study, 'where');
  assert.deepEqual(out.sites, ['fast', 'clean']);
  assert.deepEqual(out.points.map((p) => p.sites), [['fast'], ['clean'], ['fast', 'clean']]);
  const [fast, clean, pair] = out.points;
  near(fast.iteration_ms, 11.76, 'T on fast');
  near(fast.carbon_g, fastCarbon, 'carbon on fast');
  near(clean.carbon_g, cleanCarbon, 'carbon on clean');
  near(clean.objective, 1.5288, 'objective on clean');
  near(fast.run.hours, (1e6 * 0.01176) / 3600, 'run hours');
  near(fast.run.cost, 1e6 * fastCost, 'run money');
  assert.ok(pair.objective <= fast.objective + 1e-12, 'a pair is never worse than either site alone');
  assert.deepEqual(out.fastest.sites, ['fast']);
  assert.deepEqual(out.cleanest.sites, ['clean']);
  assert.deepEqual(out.cheapest.sites, ['fast']);
  assert.deepEqual(out.notes, []);
  const csv = run(['sweep', pool, 'where', '--method', 'exact', '--format', 'csv']);
  const lines = csv.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 4);
  assert.equal(lines[0], 'sites,job,feasible,iteration_ms,energy_j,carbon_g,cost,objective,gpus_used,gpus,sites_used,'
    + 'plan,run_hours,run_energy_kwh,run_carbon_kg,run_cost,marks,error');
  assert.match(lines[1], /^fast,sites=fast\/seed=1,true,11\.76\d*,2\.94\d*,.*,f:4,.*,best fastest cheapest,$/);
  assert.match(lines[2], /^clean,sites=clean\/seed=1,true,23\.52\d*,.*,cleanest,$/);
  assert.match(lines[3], /^fast clean,sites=fast\+clean\/seed=1,true,/);
});

test('sweep where on one site: one row and a note', () => {
  const r = run(['sweep', write('pool.json', costModelPool), 'where', '--method', 'exact']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.points.length, 1);
  assert.match(out.notes[0], /^every GPU is on one site/);
});

test('sweep where on the world-wide example: every site and pair', () => {
  const r = run(['sweep', path.join(examples, 'world-wide.json'), 'where', '--seeds', '1', '--time-limit', '5']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  const n = out.sites.length;
  assert.ok(n >= 2);
  assert.equal(out.points.length, n + (n * (n - 1)) / 2);
  for (const pick of ['best', 'fastest', 'cleanest', 'cheapest']) assert.ok(out[pick]?.sites?.length >= 1, pick);
  assert.ok(out.points.every((p) => p.feasible === false || Number.isFinite(p.carbon_g)));
});
