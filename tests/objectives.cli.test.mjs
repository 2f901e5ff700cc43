// The CLI on objectives.md: --weights, --micro-batch-size, the new figures
// and run totals, and the errors that name their field or flag.
// Run: GEOTRAIN_CLI=build/<dir>/core/geotrain node --test tests/objectives.cli.test.mjs
//
// The priced hand pool of tests/test_objectives.cpp: [g0:1, g1:2, g2:1]
// emits 1428.576 / 3.6e6 g and costs 0.819876 / 3.6e6 + 0.156924 / 3600 per
// iteration of 29.06 ms.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { handPool, near, run, useCli } from './cli_harness.mjs';

const harness = useCli('geotrain-objectives-');
const { write } = harness;
const threeStages = { stages: [{ gpu: 'g0', layers: 1 }, { gpu: 'g1', layers: 2 }, { gpu: 'g2', layers: 1 }] };

const pricedPool = {
  ...handPool,
  gpus: [
    { ...handPool.gpus[0], site: 'a', price_per_hour: 3.6 },
    { ...handPool.gpus[1], site: 'b', price_per_hour: 1.8 },
    { ...handPool.gpus[2], site: 'b' },
  ],
  sites: { a: { carbon_g_per_kwh: 400, pue: 1.5, price_per_kwh: 0.2 }, b: { carbon_g_per_kwh: 100, pue: 1.2, price_per_kwh: 0.1 } },
  training: { iterations: 100000 },
};

test('evaluate reports carbon, money, per-site figures and run totals', () => {
  const r = run(['evaluate', write('priced.json', pricedPool), write('plan.json', threeStages)]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  near(out.carbon_g, 1428.576 / 3.6e6, 'carbon_g');
  near(out.cost, 0.819876 / 3.6e6 + 0.156924 / 3600, 'cost');
  assert.deepEqual(out.sites.map((s) => [s.site, s.gpus_used]), [['a', 1], ['b', 2]]);
  near(out.run.days, 2906 / 86400, 'run.days');
  near(out.run.carbon_kg, 1e5 * 1428.576 / 3.6e6 / 1000, 'run.carbon_kg');
  assert.equal(out.micro_batch_size, 1);
  assert.equal(out.micro_batch_size_mode, 'fixed');
});

test('a file without the new fields prints zeros and no run', () => {
  const r = run(['evaluate', write('plain.json', handPool), write('plan.json', threeStages)]);
  const out = JSON.parse(r.stdout);
  assert.equal(out.carbon_g, 0);
  assert.equal(out.cost, 0);
  assert.equal(out.run, null);
  near(out.iteration_ms, 29.06, 'iteration_ms');
  near(out.energy_j, 3.7888, 'energy_j');
});

test('--weights moves the plan: carbon alone, money alone and time alone', () => {
  const pool = write('priced.json', pricedPool);
  const plans = {};
  for (const weights of ['time=1', 'carbon=1', 'cost=1', 'time=0.5,carbon=0.5']) {
    const r = run(['solve', pool, '--method', 'brute-force', `--weights=${weights}`]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    plans[weights] = out.stages.map((s) => `${s.gpu}:${s.layers}`).join(' ');
    for (const key of ['time', 'energy', 'carbon', 'cost']) assert.ok(key in out.weights);
    assert.ok(out.c_ref_g > 0 || !weights.includes('carbon'));
  }
  // Time alone: the fast g0 alone (11.76 ms). Carbon alone: the clean site b,
  // where g1 alone and g2 alone both draw 1.4112 J (g1: 23.52 ms x 10 W +
  // 4 x 50 W x 5.88 ms; g2: 11.76 ms x 20 W + 4 x 100 W x 2.94 ms), not g0
  // (2.94 J at 400 g/kWh and PUE 1.5).
  assert.equal(plans['time=1'], 'g0:4');
  assert.ok(['g1:4', 'g2:4'].includes(plans['carbon=1']), plans['carbon=1']);
});

test('--micro-batch-size auto chooses u and reports it; the plan evaluates at that u', () => {
  const pool = write('auto.json', { ...handPool, model: { ...handPool.model, micro_batch_size: 4 },
                                    network: { default: { bandwidth_gbps: 400, latency_ms: 0 } } });
  const r = run(['solve', pool, '--micro-batch-size', 'auto', '--method', 'exact']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.micro_batch_size_mode, 'auto');
  assert.ok([1, 2, 4].includes(out.micro_batch_size));
  assert.ok(out.micro_batch_sizes_planned >= 1);
  const fixed = JSON.parse(run(['solve', pool, '--method', 'exact']).stdout);
  assert.ok(out.objective <= fixed.objective * (1 + 1e-12), `${out.objective} vs ${fixed.objective}`);
  const again = run(['evaluate', pool, write('auto-plan.json', r.stdout)]);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(JSON.parse(again.stdout).objective, out.objective);
});

test('bad weights and modes exit naming the flag or field', () => {
  const pool = write('priced.json', pricedPool);
  let r = run(['solve', pool, '--weights', 'speed=1']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--weights: each item is time=X, energy=X, carbon=X or cost=X, got 'speed=1'/);
  r = run(['solve', pool, '--weights', 'time=-1']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /options\.weights\.time: must be in \[0, 1e\+06\]/);
  r = run(['solve', pool, '--weights', 'time=0,energy=0']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /options\.weights: at least one of time, energy, carbon and cost must be > 0/);
  r = run(['solve', pool, '--micro-batch-size', 'big']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /options\.micro_batch_size: must be "fixed" or "auto", got "big"/);
  r = run(['solve', write('bad-site.json', { ...pricedPool, sites: { c: { pue: 1.1 } } })]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /sites\.c: no GPU is on site "c"/);
});
