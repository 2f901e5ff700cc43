// `geotrain launch` and `solve --launch` from outside: every example's bundle
// against its golden file (tests/golden/launch/, rewritten by regenerate.sh
// there), the PyTorch and DeepSpeed scripts through `python3 -m py_compile`,
// Megatron's layout against the plan, and the command's usage errors.
// Run: GEOTRAIN_CLI=build/<dir>/core/geotrain node --test tests/launch.cli.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { handPool, run, useCli } from './cli_harness.mjs';

const examples = fileURLToPath(new URL('../examples/', import.meta.url));
const golden = fileURLToPath(new URL('./golden/launch/', import.meta.url));
const harness = useCli('geotrain-launch-');
const { write } = harness;
const exampleNames = fs.readdirSync(examples).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')).sort();
// Debian's python3 (setup.sh installs it); any python3 on PATH otherwise.
const python = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

function goldenBundle(name) {
  return JSON.parse(fs.readFileSync(path.join(golden, `${name}.json`), 'utf8'));
}

// Megatron-Core's reading of a layout: unroll (..)*N and x*N, split at |, count t.
function layoutLayers(layout) {
  let text = layout.replace(/,/g, '');
  text = text.replace(/\(([^)]+)\)\*(\d+)/g, (_, unit, n) => unit.repeat(Number(n)));
  text = text.replace(/(.)\*(\d+)/g, (_, unit, n) => unit.repeat(Number(n)));
  return text.split('|').map((stage) => [...stage].filter((c) => c === 't').length);
}

test('every example has a golden bundle', () => {
  const stored = fs.readdirSync(golden).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')).sort();
  assert.deepEqual(stored, exampleNames, 'run tests/golden/launch/regenerate.sh');
});

for (const name of exampleNames) {
  test(`${name}: launch gives the golden bundle for the stored plan`, () => {
    const expected = goldenBundle(name);
    // A replica plan's bundle keeps its replicas (the plan it launches joins them).
    const plan = write(`${name}-plan.json`, expected.replicas ? { replicas: expected.replicas } : { stages: expected.plan });
    const r = run(['launch', path.join(examples, `${name}.json`), plan]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), expected, `bundle differs; if intended, run tests/golden/launch/regenerate.sh`);
  });
}

test('the golden bundles: layouts read back into the plan, scripts compile under python3', () => {
  let compiled = 0;
  for (const name of exampleNames) {
    const bundle = goldenBundle(name);
    const layers = bundle.plan.map((s) => s.layers);
    if (bundle.megatron.expressible && layers.length > 1) {
      assert.deepEqual(layoutLayers(bundle.megatron.pipeline_layout), layers, `${name}: layout`);
      assert.ok(bundle.megatron.pipeline_layout.startsWith('E') && bundle.megatron.pipeline_layout.endsWith('L'));
    }
    for (const [part, file] of [['torch', 'geotrain_pipeline.py'], ['deepspeed', 'deepspeed_pipeline.py']]) {
      if (!bundle[part].expressible) continue;
      const script = write(`${name}-${file}`, bundle[part].text);
      const r = spawnSync(python, ['-m', 'py_compile', script], { encoding: 'utf8' });
      assert.equal(r.status, 0, `${name} ${file}: ${r.stderr}`);
      compiled += 1;
    }
    assert.match(bundle.torch.pytorch_version, /^2\.4\+$/);
  }
  assert.ok(compiled >= exampleNames.length, `only ${compiled} scripts compiled`);
});

test('a torch script for data shards compiles, and quotes in GPU ids stay inside their strings', () => {
  const pool = write('pool.json', {
    ...handPool,
    gpus: handPool.gpus.map((g, i) => ({ ...g, id: i === 0 ? 'g"0\\' : g.id, node: 'box', site: 'S' })),
    model: { ...handPool.model, micro_batch_size: 2, global_batch_size: 4 },
    network: { default: { bandwidth_gbps: 10, latency_ms: 1 } },
  });
  const plan = write('plan.json', { stages: [{ gpus: ['g"0\\', 'g1'], layers: 2 }, { gpu: 'g2', layers: 2 }] });
  const r = run(['launch', pool, plan, '--target', 'torch']);
  assert.equal(r.code, 0, r.stderr);
  const bundle = JSON.parse(r.stdout);
  assert.equal(bundle.torch.expressible, false, 'two shards then one: refused');
  assert.match(bundle.torch.cannot[0], /^cannot express because stage 1 has data_parallel 2, stage 2 has 1/);
  assert.deepEqual(bundle.torch.nearest_plan.stages, [{ gpu: 'g"0\\', layers: 2 }, { gpu: 'g2', layers: 2 }]);
  const nearest = write('nearest.json', { stages: bundle.torch.nearest_plan.stages });
  const again = JSON.parse(run(['launch', pool, nearest, '--target=torch']).stdout);
  const script = write('nearest.py', again.torch.text);
  const compiled = spawnSync(python, ['-m', 'py_compile', script], { encoding: 'utf8' });
  assert.equal(compiled.status, 0, compiled.stderr);
  assert.ok(again.torch.text.includes('"g\\"0\\\\"'), 'the id as a Python string literal');
});

test('solve --launch adds the bundle of the plan it found', () => {
  const pool = write('pool.json', handPool);
  const r = run(['solve', pool, '--launch', '--method', 'exact']);
  assert.equal(r.code, 0, r.stderr);
  const result = JSON.parse(r.stdout);
  assert.deepEqual(result.launch.plan, result.stages);
  assert.equal(result.launch.world_size, result.stages.length);
});

test('launch refuses bad usage (exit 2) and bad plans (exit 1) with a message', () => {
  const pool = write('pool.json', handPool);
  const plan = write('plan.json', { stages: [{ gpu: 'g0', layers: 4 }] });
  const badTarget = run(['launch', pool, plan, '--target', 'jax']);
  assert.equal(badTarget.code, 2);
  assert.match(badTarget.stderr, /--target must be megatron, torch, deepspeed, flashflex or all, got 'jax'/);
  assert.equal(run(['launch', pool]).code, 2);
  assert.equal(run(['launch', pool, plan, '--format', 'x']).code, 2);
  const wrong = run(['launch', pool, write('bad.json', { stages: [{ gpu: 'g9', layers: 4 }] })]);
  assert.equal(wrong.code, 1);
  assert.match(wrong.stderr, /^error: stages\[0\]\.gpu/m);
});
