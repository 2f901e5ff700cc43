// The engines' own Python, run on the launch bundles where it needs no GPU
// (issue 22): Megatron-Core's layout parser and argument parser, torch's
// pipelining signatures and the template's imports, DeepSpeed's topology on
// the rank map, FlashFlex's argument parser and validate_args
// (tests/fixtures/engines/run_engine_pieces.py). Each engine's test is skipped,
// saying why, when the engine is not installed here (none is in CI: pip cannot
// reach a registry there); FlashFlex is found through FLASHFLEX_HOME.
// Run: GEOTRAIN_CLI=build/<dir>/core/geotrain node --test tests/engine_pieces.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run, useCli } from './cli_harness.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const script = path.join(root, 'tests/fixtures/engines/run_engine_pieces.py');
const python = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const harness = useCli('geotrain-engine-pieces-');

// The golden bundles.
function goldenBundles() {
  const golden = path.join(root, 'tests/golden/launch');
  return fs.readdirSync(golden).filter((f) => f.endsWith('.json')).sort().map((f) => ({
    name: f, problem: JSON.parse(fs.readFileSync(path.join(root, 'examples', f), 'utf8')),
    bundle: JSON.parse(fs.readFileSync(path.join(golden, f), 'utf8')),
  }));
}

// The 64-A100 example planned for each engine (its golden plan mixes tensor
// degrees, which only FlashFlex runs); made only when some engine is installed.
function plannedBundles() {
  const out = [];
  const example = path.join(root, 'examples/llama70b-64xa100.json');
  for (const engine of ['megatron-core', 'deepspeed', 'torch']) {
    const solved = run(['solve', example, '--engine', engine], undefined, 120000);
    assert.equal(solved.code, 0, solved.stderr);
    const r = run(['launch', example, harness.write('plan.json', solved.stdout)]);
    assert.equal(r.code, 0, r.stderr);
    out.push({ name: `llama70b planned for ${engine}`, problem: JSON.parse(fs.readFileSync(example, 'utf8')), bundle: JSON.parse(r.stdout) });
  }
  return out;
}

// A probe that needs no bundle the engine can run: its answer says whether it is installed.
const probe = { bundle: { megatron: { expressible: true, arguments: ['--pipeline-model-parallel-size 1'] },
  torch: { expressible: true, text: '' }, deepspeed: { expressible: true, text: '', parts: [0, 1] },
  flashflex: { expressible: true, arguments: [], ranks: [] }, plan: [] }, problem: { model: {} } };

let planned = null;
for (const engine of ['megatron-core', 'torch', 'deepspeed', 'flashflex']) {
  test(`${engine}: its own code accepts every bundle`, (t) => {
    const first = spawnSync(python, [script, engine], { input: JSON.stringify(probe), encoding: 'utf8' });
    const skip = JSON.parse(first.stdout.trim() || '{}').skip;
    if (skip) {
      t.skip(skip);
      return;
    }
    planned ??= plannedBundles();
    const part = { 'megatron-core': 'megatron', torch: 'torch', deepspeed: 'deepspeed', flashflex: 'flashflex' }[engine];
    let ran = 0;
    for (const { name, problem, bundle } of [...goldenBundles(), ...planned]) {
      if (!bundle[part].expressible) continue;
      const r = spawnSync(python, [script, engine], { input: JSON.stringify({ bundle, problem }), encoding: 'utf8' });
      const answer = JSON.parse(r.stdout.trim().split('\n').at(-1) || '{}');
      assert.equal(r.status, 0, `${name}: ${answer.error ?? r.stderr}`);
      ran += 1;
    }
    assert.ok(ran >= 1, 'no bundle this engine can run');
  });
}
