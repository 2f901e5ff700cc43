// The `geotrain` command line: exit codes, JSON on stdout, messages on stderr.
// Run: GEOTRAIN_CLI=build/<dir>/core/geotrain node --test tests/cli.test.mjs
//
// Exit codes (core/cli/main.cpp): 0 done, 1 bad input, 2 bad usage, 3 no plan.
// The problem files are written to a temporary folder. The hand pool is the one
// of tests/test_cost_model.cpp, where [g0:1, g1:2, g2:1] works out to
// T = 29.06 ms and E = 3.7888 J, and [g0:4] (the brute-force optimum at
// lambda 1) to T = 4 * (4 * 0.72 + 0.06) = 11.76 ms.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { cli, handPool, near, run, useCli } from './cli_harness.mjs';

const harness = useCli('geotrain-cli-');
const { write } = harness;
const threeStages = { stages: [{ gpu: 'g0', layers: 1 }, { gpu: 'g1', layers: 2 }, { gpu: 'g2', layers: 1 }] };

test('evaluate prints the plan figures as JSON and exits 0', () => {
  const r = run(['evaluate', write('pool.json', handPool), write('plan.json', threeStages)]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  const out = JSON.parse(r.stdout);
  near(out.iteration_ms, 29.06, 'iteration_ms');
  near(out.energy_j, 3.7888, 'energy_j');
  near(out.objective, 2.906, 'objective');  // lambda 1: 29.06 / 10
  assert.equal(out.feasible, true);
  assert.equal(out.stages.length, 3);
  assert.deepEqual(out.stages.map((s) => s.gpu), ['g0', 'g1', 'g2']);
  near(out.stages[1].stage_ms, 6.14, 'stage_ms');  // 2.88 + 2.6 + 0.66
  for (const key of ['compute_ms', 'send_forward_ms', 'send_backward_ms', 'stage_ms', 'memory_gib',
    'memory_limit_gib', 'layers']) {
    assert.ok(key in out.stages[0], key);
  }
});

test('evaluate exits 0 for a well-formed plan that does not fit', () => {
  const small = structuredClone(handPool);
  small.gpus[1].memory_gib = 0.25;  // g1's two layers need 3.52e8 bytes > 2^28
  const r = run(['evaluate', write('small.json', small), write('plan.json', threeStages)]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.feasible, false);
  assert.equal(out.violations.length, 1);
});

test('solve prints the best plan as JSON and exits 0', () => {
  const r = run(['solve', write('pool.json', handPool), '--method', 'brute-force']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.method, 'brute-force');
  assert.deepEqual(out.stages, [{ gpu: 'g0', layers: 4 }]);
  near(out.iteration_ms, 11.76, 'iteration_ms');
  assert.equal(out.feasible, true);
  assert.equal(out.optimal, true);
  assert.equal(out.evaluations, 39);  // f(3, 4) = 3 + 3 * 6 + 3 * 6
  assert.equal(typeof out.elapsed_ms, 'number');
});

test('solve takes --method=, --lambda and --seed', () => {
  const r = run(['solve', write('pool.json', handPool), '--method=uniform', '--lambda', '0.5', '--seed=3']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.method, 'uniform');
  assert.equal(out.lambda, 0.5);
  assert.deepEqual(out.stages, [{ gpu: 'g0', layers: 2 }, { gpu: 'g1', layers: 1 }, { gpu: 'g2', layers: 1 }]);
});

test("solve's output is a plan file for evaluate", () => {
  const pool = write('pool.json', handPool);
  const solved = run(['solve', pool, '--method', 'metis']);
  assert.equal(solved.code, 0, solved.stderr);
  const evaluated = run(['evaluate', pool, write('solved.json', solved.stdout)]);
  assert.equal(evaluated.code, 0, evaluated.stderr);
  near(JSON.parse(evaluated.stdout).iteration_ms, JSON.parse(solved.stdout).iteration_ms, 'iteration_ms');
});

test('- reads the problem from standard input', () => {
  const r = run(['solve', '-', '--method', 'brute-force'], JSON.stringify(handPool));
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).stages, [{ gpu: 'g0', layers: 4 }]);
  const e = run(['evaluate', write('pool.json', handPool), '-'], JSON.stringify(threeStages));
  assert.equal(e.code, 0, e.stderr);
  near(JSON.parse(e.stdout).iteration_ms, 29.06, 'iteration_ms');
});

test('a malformed problem exits 1 naming the field, with nothing on stdout', () => {
  const bad = structuredClone(handPool);
  bad.gpus[1].compute_util = 1.5;
  bad.model.global_batch_size = 5;
  bad.model.micro_batch_size = 2;
  for (const args of [['solve', write('bad.json', bad), '--method', 'uniform'],
    ['evaluate', write('bad.json', bad), write('plan.json', threeStages)]]) {
    const r = run(args);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^error: gpus\[1\]\.compute_util: must be in \(0, 1\], got 1\.5$/m);
    assert.match(r.stderr, /^error: model\.global_batch_size: must be a multiple of model\.micro_batch_size \(2\), got 5$/m);
  }
});

test('text that is not JSON exits 1', () => {
  const r = run(['solve', write('broken.json', '{"model": '), '--method', 'uniform']);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /problem: not valid JSON: parse error at line 1/);
});

test('a malformed plan exits 1 naming the stage', () => {
  const plan = { stages: [{ gpu: 'g0', layers: 2 }, { gpu: 'g9', layers: 2 }] };
  const r = run(['evaluate', write('pool.json', handPool), write('plan.json', plan)]);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /stages\[1\]\.gpu: unknown GPU id "g9"/);
});

test('a missing file exits 1', () => {
  const r = run(['solve', path.join(harness.dir, 'no-such-file.json')]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /problem: cannot read .*no-such-file\.json/);
});

test('a folder given as the problem exits 1 saying it cannot be read', () => {
  const r = run(['solve', harness.dir, '--method', 'uniform']);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^error: problem: cannot read /m);  // not "larger than 64 MiB"
});

test('an unknown method exits 1 naming options.method', () => {
  const r = run(['solve', write('pool.json', handPool), '--method', 'genetic']);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /options\.method: must be one of .*brute-force.*, got "genetic"/);
});

test('bad option values exit 1 naming the option', () => {
  const pool = write('pool.json', handPool);
  let r = run(['solve', pool, '--seed', 'abc']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /--seed: must be a decimal number, got 'abc'/);
  r = run(['solve', pool, '--lambda', '2', '--method', 'uniform']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /options\.lambda: must be in \[0, 1\], got 2/);
  r = run(['solve', pool, '--seed', '1.5', '--method', 'uniform']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /options\.seed: must be an integer, got 1\.5/);
});

test('usage errors exit 2', () => {
  const pool = write('pool.json', handPool);
  const cases = [
    [[], null],
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['evaluate', pool], /evaluate takes PROBLEM\.json PLAN\.json, got 1 argument/],
    [['solve'], /solve needs PROBLEM\.json/],
    [['solve', pool, pool], /solve takes PROBLEM\.json, got 2 arguments/],
    [['solve', pool, '--method'], /--method needs a value/],
    [['solve', pool, '--fast', '1'], /unknown option --fast for solve/],
    [['solve', pool, '--launch=yes'], /--launch takes no value/],
    [['help', 'frobnicate'], /help: unknown command 'frobnicate'/],
  ];
  for (const [args, message] of cases) {
    const r = run(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    if (message) assert.match(r.stderr, message);
  }
});

test('an infeasible pool exits 3 with the reason', () => {
  const tiny = structuredClone(handPool);
  for (const g of tiny.gpus) g.memory_gib = 0.1;  // 1.07e8 bytes: not one layer (1.36e8 + the head)
  const r = run(['solve', write('tiny.json', tiny), '--method', 'brute-force']);
  assert.equal(r.code, 3, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /no feasible plan/);
  assert.match(r.stderr, /holds all 4 layers/);
});

test('brute force beyond its limit exits 3', () => {
  const big = structuredClone(handPool);
  big.model.num_layers = 12;
  big.gpus = Array.from({ length: 12 }, (_, i) => ({ id: `g${i}`, peak_tflops: 100, memory_gib: 80,
    idle_w: 50, active_w: 250 }));
  big.network = { default: { bandwidth_gbps: 10, latency_ms: 1 } };
  const r = run(['solve', write('big.json', big), '--method', 'brute-force']);
  assert.equal(r.code, 3, r.stderr);
  assert.match(r.stderr, /brute force refused/);
});

test('unknown fields are warnings on stderr, not errors', () => {
  const noisy = structuredClone(handPool);
  noisy.gpus[0].colour = 'green';
  const r = run(['solve', write('noisy.json', noisy), '--method', 'uniform']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^warning: gpus\[0\]\.colour: unknown field, ignored$/m);
  JSON.parse(r.stdout);
});

test('validate prints the problem with defaults filled in', () => {
  const r = run(['validate', write('pool.json', handPool)]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.gpus[0].compute_util, 1);
  assert.equal(out.model.precision, 'fp16');
  assert.equal(out.search.population, 200);
});

test('catalogue and help exit 0', () => {
  const c = run(['catalogue']);
  assert.equal(c.code, 0);
  assert.ok(JSON.parse(c.stdout).some((e) => e.type === 'A100-SXM-80GB'));
  const h = run(['--help']);
  assert.equal(h.code, 0);
  assert.match(h.stdout, /geotrain solve PROBLEM\.json/);
});

test('catalogue --regions lists sourced, representative site figures; GPU entries carry prices', () => {
  const r = run(['catalogue', '--regions']);
  assert.equal(r.code, 0, r.stderr);
  const regions = JSON.parse(r.stdout);
  const virginia = regions.find((e) => e.region === 'aws:us-east-1');
  assert.deepEqual(Object.keys(virginia),
    ['region', 'name', 'country', 'carbon_g_per_kwh', 'pue', 'price_per_kwh', 'source', 'year']);
  assert.ok(regions.every((e) => e.source.includes('not live') && e.year >= 2019 && e.year <= 2026));
  const gpus = JSON.parse(run(['catalogue']).stdout);
  assert.ok(gpus.every((e) => e.price_per_hour >= 0 && e.price_source.length > 0));
  assert.equal(run(['catalogue', '--bogus']).code, 2);
});

// ---- Hostile numbers (issue 13) --------------------------------------------------------

test('numbers beyond their limits exit 1 at once, naming the field and the limit', () => {
  const fast = structuredClone(handPool);
  fast.gpus[0].peak_tflops = 1e300;  // effective FLOP/s would overflow; no GPU is 10^300 TFLOPS
  fast.network.default.bandwidth_gbps = 1e-320;
  for (const method of ['uniform', 'metis', 'memetic']) {
    const started = Date.now();
    const r = run(['solve', write('fast.json', fast), '--method', method, '--time-limit', '1']);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^error: gpus\[0\]\.peak_tflops: must be in \[1e-06, 100000\] TFLOPS, got 1e\+300$/m);
    assert.match(r.stderr, /^error: network\.default\.bandwidth_gbps: must be in \[1e-06, 1e\+06\] Gbps, got 1e-320$/m);
    assert.ok(Date.now() - started < 5000, `${method} took ${Date.now() - started} ms`);
  }
});

test('a pool drawing no power gives finite objectives and the time optimum from every method', () => {
  // handPool at lambda 1: the optimum is [g0:4], 11.76 ms (see the top of this file).
  const zero = structuredClone(handPool);
  delete zero.objective.e_ref_j;  // from the baseline, which uses 0 J: then 1 J
  for (const g of zero.gpus) g.idle_w = 0, g.active_w = 0;
  const pool = write('zero.json', zero);
  for (const method of ['brute-force', 'exact', 'memetic']) {
    const r = run(['solve', pool, '--method', method, '--time-limit', '2']);
    assert.equal(r.code, 0, `${method}: ${r.stderr}`);
    const out = JSON.parse(r.stdout);
    near(out.iteration_ms, 11.76, `${method} iteration_ms`);
    near(out.objective, 1.176, `${method} objective`);  // 11.76 / 10
    assert.equal(out.energy_j, 0);
    assert.equal(out.e_ref_j, 1);
  }
});

test('standard input is capped at 64 MiB', () => {
  const r = run(['validate', '-'], ' '.repeat(64 * 1024 * 1024 + 1));
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^error: problem: standard input is larger than 64 MiB$/m);
});

test('a pipe or FIFO is read like a file', () => {
  const pool = write('pool.json', handPool);
  const r = spawnSync('bash', ['-c', 'exec "$0" validate <(cat "$1")', cli, pool], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).name, 'hand pool');
});

test('a number beyond a double is placed at its line and column', () => {
  const r = run(['validate', write('overflow.json', '{\n  "name": 1e400\n}')]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^error: problem: not valid JSON: number out of range at line 2, column 11: 1e400 is beyond/m);
});

test('flag values must be plain decimal numbers', () => {
  const pool = write('pool.json', handPool);
  for (const [flag, value] of [['--seed', '0x10'], ['--lambda', 'nan'], ['--lambda', 'inf'], ['--time-limit', ' 5'],
    ['--max-nodes', '1e7x'], ['--stage-count', '']]) {
    const r = run(['solve', pool, flag, value, '--method', 'exact']);
    assert.equal(r.code, 1, `${flag} ${value}: ${r.stderr}`);
    assert.ok(r.stderr.includes(`error: ${flag}: must be a decimal number, got '${value}'`), r.stderr);
  }
  const huge = run(['solve', pool, '--lambda', '1e999']);
  assert.equal(huge.code, 1);
  assert.match(huge.stderr, /--lambda: 1e999 is out of range/);
  const fine = run(['solve', pool, '--method', 'uniform', '--seed', '1e3', '--lambda', '.5']);
  assert.equal(fine.code, 0, fine.stderr);
});

test('error and warning lists print the first 100, then how many more', () => {
  const stages = Array.from({ length: 5000 }, () => ({ gpu: 'nope', layers: 1 }));
  const r = run(['evaluate', write('pool.json', handPool), write('many.json', { stages })]);
  assert.equal(r.code, 1);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 101);
  assert.equal(lines[100], 'error: ... and 4901 more');  // 5000 unknown ids and the layer sum, 100 listed

  const noisy = structuredClone(handPool);
  for (let i = 0; i < 1000; ++i) noisy[`x${i}`] = i;
  const w = run(['validate', write('noisy.json', noisy)]);
  assert.equal(w.code, 0, w.stderr);
  const warnings = w.stderr.trim().split('\n');
  assert.equal(warnings.length, 101);
  assert.equal(warnings[100], 'warning: ... and 900 more');
});

test('counts read right: one stage, and no infinite plan counts', () => {
  const tiny = structuredClone(handPool);
  // 0.15 GiB = 1.61e8 bytes: one layer and the head on one GPU (1.36e8 + 1.2e7) fit; with two
  // stages the last needs 1.56e8 + 1.2e7 for one layer, which does not.
  for (const g of tiny.gpus) g.memory_gib = 0.15;
  const r = run(['solve', write('tiny.json', tiny), '--method', 'uniform']);
  assert.equal(r.code, 3, r.stderr);
  assert.match(r.stderr, /can hold is 1 layer \(with 1 stage\)/);
  assert.doesNotMatch(r.stderr, /\b1 (stages|layers|GPUs)\b/);

  const wide = structuredClone(handPool);  // 512 GPUs x 1024 layers: more plans than a double holds
  wide.model.num_layers = 1024;
  wide.gpus = Array.from({ length: 512 }, (_, i) => ({ id: `g${i}`, peak_tflops: 100, memory_gib: 80, idle_w: 1,
    active_w: 2 }));
  wide.network = { default: { bandwidth_gbps: 10, latency_ms: 1 } };
  const b = run(['solve', write('wide.json', wide), '--method', 'brute-force']);
  assert.equal(b.code, 3, b.stderr);
  assert.match(b.stderr, /512 GPUs and 1024 layers give more than 1e308 plans/);
  assert.doesNotMatch(b.stderr, /inf/);
});

test('exact stopped before its proof says what the gap proves: at most N times the optimum, never "within"', () => {
  // scaling-12gpu is not proven in one node. With gap g the optimum is at least objective (1 - g),
  // so the plan is at most 1 / (1 - g) times it: the words must carry that factor and that bound.
  const example = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'examples', 'scaling-12gpu.json');
  const r = run(['solve', example, '--method', 'exact', '--max-nodes', '1']);
  assert.equal(r.code, 4, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.ok(out.gap > 0 && out.gap < 1, `a gap strictly between 0 and 1: ${out.gap}`);
  assert.doesNotMatch(r.stderr, /within/);
  const factor = 1 / (1 - out.gap);
  const expected = factor >= 1.1 ? factor : 100 * (factor - 1);
  if (expected < 0.01) {
    // The site-aware root bound (issue 23) leaves almost nothing: below the words' resolution.
    assert.match(r.stderr, /its objective is less than 0\.01% above the optimum/);
  } else {
    const words = factor >= 1.1 ? /at most ([\d.]+) times the optimum/ : /at most ([\d.]+)% above the optimum/;
    const shown = Number(words.exec(r.stderr)?.[1]);
    // Rounded up to three significant digits: never below the true figure, at most 1 % above it.
    assert.ok(shown >= expected && shown <= 1.01 * expected, `${r.stderr} (expected ${expected})`);
  }
  const bound = Number(/the optimum is at least ([\d.e+-]+)/.exec(r.stderr)?.[1]);
  const proven = out.objective * (1 - out.gap);
  assert.ok(bound <= proven && bound >= 0.999 * proven, `the bound ${bound}, rounded down from ${proven}`);
});
