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
import path from 'node:path';
import { handPool, near, run, useCli } from './cli_harness.mjs';

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
  assert.match(r.stderr, /--seed: must be a number, got 'abc'/);
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
    [['evaluate', pool], /evaluate takes PROBLEM\.json and PLAN\.json/],
    [['solve'], /solve needs PROBLEM\.json/],
    [['solve', pool, pool], /solve takes one PROBLEM\.json/],
    [['solve', pool, '--method'], /--method needs a value/],
    [['solve', pool, '--fast', '1'], /unknown option --fast/],
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
