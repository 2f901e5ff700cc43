// The WebAssembly module under Node.js: same plans and figures as the native
// CLI for the same problem and seed, and errors as documents, never aborts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';

const cli = process.env.GEOTRAIN_CLI;
const wasmDir = process.env.GEOTRAIN_WASM_DIR;
const examplesDir = new URL('../examples/', import.meta.url).pathname;
if (!cli || !wasmDir) throw new Error('set GEOTRAIN_CLI and GEOTRAIN_WASM_DIR (ctest does)');

const createGeoTrain = createRequire(import.meta.url)(path.join(wasmDir, 'geotrain.js'));
// Node 18+ has fetch, which Emscripten 3.1.6 would use on a file path: hand it the bytes.
const module = await createGeoTrain({ wasmBinary: readFileSync(path.join(wasmDir, 'geotrain.wasm')) });

const examples = readdirSync(examplesDir).filter((f) => f.endsWith('.json')).sort();

function runCli(args) {
  return JSON.parse(execFileSync(cli, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
}

// Exact with a node budget exits 4 (not proven) but prints its plan all the same.
function runCliAllowingExit(args) {
  const r = spawnSync(cli, args, { encoding: 'utf8' });
  return JSON.parse(r.stdout);
}

// Wall times (the run's and its certificate's) are the only figures allowed to differ.
function comparable(result) {
  const { elapsed_ms, lower_bound_ms, ...rest } = result;
  return rest;
}

test('examples exist', () => assert.ok(examples.length >= 4, `found ${examples.length}`));

for (const file of examples) {
  const problemPath = path.join(examplesDir, file);
  const problem = readFileSync(problemPath, 'utf8');
  for (const method of ['metis', 'metis-improved', 'uniform', 'memetic']) {
    const seeds = method === 'memetic' ? [1, 7] : [1];
    for (const seed of seeds) {
      test(`${file} ${method} seed ${seed}: wasm equals native`, () => {
        // A generation cap, not a time limit, ends these runs: time would differ.
        const args = ['solve', problemPath, '--method', method, '--seed', String(seed), '--time-limit', '600'];
        const native = runCli(args);
        const wasm = JSON.parse(module.solve(problem, JSON.stringify({ method, seed, time_limit_s: 600 })));
        assert.equal(wasm.error, undefined, JSON.stringify(wasm.error));
        assert.notEqual(native.stop_reason, 'time_limit');
        assert.deepEqual(comparable(wasm), comparable(native));
      });
    }
  }
  test(`${file}: evaluate agrees`, () => {
    const plan = runCli(['solve', problemPath, '--method', 'metis']);
    const planText = JSON.stringify(plan.replicas ? { replicas: plan.replicas } : { stages: plan.stages });
    const wasm = JSON.parse(module.evaluate(problem, planText));
    const viaCli = JSON.parse(execFileSync(cli, ['evaluate', problemPath, '-'], { input: planText, encoding: 'utf8' }));
    assert.deepEqual(wasm, viaCli);
  });
}

// objectives.md: four weights, sites, rents and the micro-batch size as a decision give the same
// plan natively and in wasm, through solve and through the page's stepped Planner.
test('weighted objectives and micro_batch_size auto: wasm equals native', () => {
  const base = JSON.parse(readFileSync(path.join(examplesDir, 'three-sites.json'), 'utf8'));
  const sites = [...new Set(base.gpus.map((g) => g.site || ''))];
  const priced = {
    ...base,
    gpus: base.gpus.map((g, i) => ({ ...g, price_per_hour: 0.5 + (i % 4) })),
    sites: Object.fromEntries(sites.map((s, i) => [s, { carbon_g_per_kwh: 50 + 300 * i, pue: 1.1 + 0.1 * i, price_per_kwh: 0.05 * (i + 1) }])),
    objective: { weights: { time: 0.4, energy: 0.1, carbon: 0.3, cost: 0.2 } },
    search: { ...(base.search || {}), micro_batch_size: 'auto', time_limit_s: 600 },
    training: { iterations: 5000 },
  };
  const file = path.join(os.tmpdir(), `geotrain-priced-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(priced));
  try {
    for (const method of ['memetic', 'exact']) {
      const args = ['solve', file, '--method', method, '--seed', '3'];
      const options = { method, seed: 3 };
      if (method === 'exact') args.push('--max-nodes', '5000'), options.max_nodes = 5000;
      const native = runCliAllowingExit(args);
      const wasm = JSON.parse(module.solve(JSON.stringify(priced), JSON.stringify(options)));
      assert.equal(wasm.error, undefined, JSON.stringify(wasm.error));
      const strip = (r) => { const { bound_history, ...rest } = comparable(r); return rest; };
      assert.deepEqual(strip(wasm), strip(native));
      assert.ok(native.carbon_g > 0 && native.cost > 0 && native.run.days > 0);
      const planner = new module.Planner(JSON.stringify(priced), JSON.stringify(options));
      try {
        let progress;
        do progress = JSON.parse(planner.stepReporting(50, () => true)); while (!progress.done);
        assert.deepEqual(strip(JSON.parse(planner.result())), strip(native));
      } finally {
        planner.delete();
      }
    }
  } finally {
    rmSync(file, { force: true });
  }
});

test('catalogue() and regions() equal the CLI\'s catalogue and catalogue --regions', () => {
  assert.deepEqual(JSON.parse(module.catalogue()), runCli(['catalogue']));
  const regions = JSON.parse(module.regions());
  assert.deepEqual(regions, runCli(['catalogue', '--regions']));
  assert.ok(regions.some((r) => r.region === 'aws:us-east-1' && r.pue === 1.15));
});

test('bad input comes back as an error document naming the field', () => {
  const bad = JSON.parse(module.validate('{"model": {"hidden_size": -1}, "gpus": []}'));
  assert.equal(bad.error.kind, 'input');
  assert.ok(bad.error.messages.some((m) => m.startsWith('model.hidden_size:')), bad.error.messages.join('\n'));
  assert.ok(bad.error.messages.some((m) => m.startsWith('gpus:')));
  const notJson = JSON.parse(module.evaluate('{', '{}'));
  assert.match(notJson.error.messages[0], /^problem: not valid JSON/);
  const deep = JSON.parse(module.validate('['.repeat(100000)));
  assert.match(deep.error.messages[0], /nested deeper/);
});

test('the module keeps working after errors', () => {
  const problem = readFileSync(path.join(examplesDir, examples[0]), 'utf8');
  for (let i = 0; i < 50; i++) module.solve('{"gpus": 3}', '{}');
  const ok = JSON.parse(module.solve(problem, '{"method": "uniform"}'));
  assert.equal(ok.method, 'uniform');
});

// The page's worker steps exact through Planner.stepReporting: exact runs in one go, and the
// callback sees its progress (nodes, the best plan, the lower bound) while it runs.
test('Planner.stepReporting forwards exact\'s live progress', () => {
  const gpus = [];
  for (let i = 0; i < 40; i++) {
    gpus.push({ id: `g${i}`, peak_tflops: 60 + 17 * i + (i % 7) * 13, memory_gib: 16 + (i % 5) * 8, idle_w: 40 + i, active_w: 250 + 3 * i, site: `s${i % 4}` });
  }
  const problem = {
    name: 'hard for exact',
    model: { hidden_size: 2048, num_layers: 48, seq_length: 1024, vocab_size: 50000, micro_batch_size: 2, global_batch_size: 64 },
    gpus,
    network: { intra_site: { bandwidth_gbps: 100, latency_ms: 0.2 }, inter_site: { bandwidth_gbps: 5, latency_ms: 20 } },
    search: { time_limit_s: 1 },
  };
  const planner = new module.Planner(JSON.stringify(problem), '{"method": "exact"}');
  try {
    assert.equal(planner.error(), '');
    const seen = [];
    const last = JSON.parse(planner.stepReporting(50, (text) => { seen.push(JSON.parse(text)); return true; }));
    assert.equal(last.done, true);
    assert.ok(seen.length >= 2, `${seen.length} reports`);
    const withBound = seen.filter((p) => Number.isFinite(p.lower_bound));
    assert.ok(withBound.length >= 1);
    for (const p of withBound) assert.ok(p.nodes > 0 && p.lower_bound <= p.objective, JSON.stringify({ nodes: p.nodes, bound: p.lower_bound, best: p.objective }));
    const result = JSON.parse(planner.result());
    assert.equal(result.stop_reason, 'time_limit');
    assert.equal(result.optimal, false);
  } finally {
    planner.delete();
  }
});

// The simulated schedule (core/sim/): simulate, robustness and solve with search.rank_by give the
// CLI's figures bit for bit, events included.
for (const file of ['three-sites.json', 'straggler-4gpu.json', 'mixed-nodes.json']) {
  test(`${file}: simulate agrees with the CLI, events included, in both send modes`, () => {
    const problemPath = path.join(examplesDir, file);
    const problem = readFileSync(problemPath, 'utf8');
    const plan = JSON.stringify(runCli(['solve', problemPath, '--method', 'metis-improved']));
    for (const sends of ['blocking', 'overlapped']) {
      const wasm = JSON.parse(module.simulate(problem, plan, JSON.stringify({ sends, events: true })));
      const native = JSON.parse(execFileSync(cli, ['simulate', problemPath, '-', '--sends', sends, '--events'], { input: plan, encoding: 'utf8' }));
      assert.equal(wasm.error, undefined, JSON.stringify(wasm.error));
      assert.ok(wasm.events.length > 0);
      assert.deepEqual(wasm, native);
    }
  });
}

test('a plan of replicas: simulate agrees with the CLI, with a shared site pipe', () => {
  // Two sites, each replica crossing from A to B under a capacity (replicas.md): the sends share it.
  const gpu = (id) => ({ id, site: id[0].toUpperCase(), peak_tflops: 100, memory_gib: 80, idle_w: 50, active_w: 250 });
  const problem = JSON.stringify({
    name: 'two sites',
    model: { hidden_size: 1000, num_layers: 4, seq_length: 1000, vocab_size: 1000, micro_batch_size: 1, global_batch_size: 4 },
    gpus: ['a0', 'a1', 'b0', 'b1'].map(gpu),
    network: { intra_site: { bandwidth_gbps: 100, latency_ms: 0.1 },
               inter_site: { bandwidth_gbps: 10, latency_ms: 10, capacity_gbps: 4 } },
    training: { sync_every: 2 },
  });
  const plan = JSON.stringify({ replicas: [
    { micro_batches: 3, stages: [{ gpu: 'a0', layers: 2 }, { gpu: 'b0', layers: 2 }] },
    { micro_batches: 1, stages: [{ gpu: 'a1', layers: 2 }, { gpu: 'b1', layers: 2 }] },
  ] });
  const problemPath = path.join(os.tmpdir(), `geotrain-wasm-replicas-${process.pid}.json`);
  writeFileSync(problemPath, problem);
  try {
    for (const sends of ['blocking', 'overlapped']) {
      const wasm = JSON.parse(module.simulate(problem, plan, JSON.stringify({ sends, events: true })));
      const native = JSON.parse(execFileSync(cli, ['simulate', problemPath, '-', '--sends', sends, '--events'], { input: plan, encoding: 'utf8' }));
      assert.equal(wasm.error, undefined, JSON.stringify(wasm.error));
      assert.equal(wasm.replicas.length, 2);
      assert.equal(wasm.sync_every, 2);
      assert.deepEqual(wasm, native);
    }
  } finally {
    rmSync(problemPath, { force: true });
  }
});

test('robustness and a simulated ranking agree with the CLI', () => {
  const problemPath = path.join(examplesDir, 'three-sites.json');
  const problem = readFileSync(problemPath, 'utf8');
  const wasm = JSON.parse(module.robustness(problem, JSON.stringify({ plans: 3, scenarios: 25, seed: 2 })));
  assert.deepEqual(wasm, runCli(['robustness', problemPath, '--plans', '3', '--scenarios', '25', '--seed', '2']));
  const ranked = JSON.parse(module.solve(problem, JSON.stringify({ rank_by: 'simulated', time_limit_s: 600 })));
  assert.deepEqual(comparable(ranked), comparable(runCli(['solve', problemPath, '--rank-by', 'simulated', '--time-limit', '600'])));
  assert.equal(ranked.rank_by, 'simulated');
  const bad = JSON.parse(module.simulate(problem, '{"stages": []}', '{"sends": "sideways"}'));
  assert.equal(bad.error.kind, 'input');
  assert.match(bad.error.messages.join('\n'), /options\.sends/);
});

// Issue 26: tool outputs merged, and compute_util fitted, the same in the module as in the CLI.
test('importMeasured and calibrate agree with geotrain import and calibrate', () => {
  const measured = path.join(examplesDir, 'measured');
  const names = ['lab-1.smi.csv', 'lab-1.topo.txt', 'lab-1.nccl.txt'];
  const files = names.map((name) => ({ name, text: readFileSync(path.join(measured, name), 'utf8') }));
  const model = readFileSync(path.join(measured, 'model.json'), 'utf8');
  const native = runCli(['import', ...names.map((n) => path.join(measured, n)), '--site', 'lab', '--into', path.join(measured, 'model.json'), '--report']);
  const wasm = JSON.parse(module.importMeasured(model, JSON.stringify(files), JSON.stringify({ site: 'lab' })));
  assert.deepEqual(wasm, native);
  const plan = { stages: [{ gpu: 'lab-1-g0', layers: 16 }, { gpu: 'lab-1-g1', layers: 16 }] };
  const dir = os.tmpdir();
  const problemFile = path.join(dir, `geotrain-wasm-measured-${process.pid}.json`);
  const planFile = path.join(dir, `geotrain-wasm-plan-${process.pid}.json`);
  writeFileSync(problemFile, JSON.stringify(native.problem));
  writeFileSync(planFile, JSON.stringify(plan));
  try {
    const cliFit = runCli(['calibrate', problemFile, '--run', `${planFile}:9000`, '--report']);
    const wasmFit = JSON.parse(module.calibrate(JSON.stringify(native.problem), JSON.stringify([{ name: planFile, plan, iteration_ms: 9000 }])));
    assert.deepEqual(wasmFit, cliFit);
  } finally {
    rmSync(problemFile, { force: true });
    rmSync(planFile, { force: true });
  }
  const refused = JSON.parse(module.importMeasured('', JSON.stringify([{ name: 'x.csv', text: 'index, name\n0' }]), ''));
  assert.equal(refused.error.kind, 'input');
});
