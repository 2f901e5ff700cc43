// The WebAssembly module under Node.js: same plans and figures as the native
// CLI for the same problem and seed, and errors as documents, never aborts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
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

// Wall time is the only figure allowed to differ.
function comparable(result) {
  const { elapsed_ms, ...rest } = result;
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
    const planText = JSON.stringify({ stages: plan.stages });
    const wasm = JSON.parse(module.evaluate(problem, planText));
    const viaCli = JSON.parse(execFileSync(cli, ['evaluate', problemPath, '-'], { input: planText, encoding: 'utf8' }));
    assert.deepEqual(wasm, viaCli);
  });
}

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
