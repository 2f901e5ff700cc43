// What the CLI's Node tests share: the binary (env GEOTRAIN_CLI), a temporary
// folder for the files they write, running it, and a relative comparison.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const cli = process.env.GEOTRAIN_CLI;

// The hand pool of tests/test_cost_model.cpp (lambda 1; sites X and Y where a test needs them).
export const handPool = {
  name: 'hand pool',
  model: { hidden_size: 1000, num_layers: 4, seq_length: 1000, vocab_size: 1000,
           micro_batch_size: 1, global_batch_size: 4 },
  gpus: [
    { id: 'g0', peak_tflops: 100, memory_gib: 80, idle_w: 50, active_w: 250 },
    { id: 'g1', peak_tflops: 50, memory_gib: 80, idle_w: 10, active_w: 60 },
    { id: 'g2', peak_tflops: 100, memory_gib: 80, idle_w: 20, active_w: 120 },
  ],
  network: {
    default: { bandwidth_gbps: 10, latency_ms: 1 },
    links: [{ from: 'g1', to: 'g0', bandwidth_gbps: 100, latency_ms: 0.5 },
            { from: 'g2', to: 'g1', bandwidth_gbps: 40, latency_ms: 0 }],
  },
  objective: { lambda: 1, t_ref_ms: 10, e_ref_j: 2 },
};

// Registers the hooks that check the binary and make (then remove) the temporary folder.
export function useCli(prefix) {
  const harness = { dir: null };
  before(() => {
    assert.ok(cli, 'set GEOTRAIN_CLI to the geotrain binary');
    assert.ok(fs.existsSync(cli), `no CLI at ${cli}`);
    harness.dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  after(() => {
    if (harness.dir) fs.rmSync(harness.dir, { recursive: true, force: true });
  });
  harness.write = (name, value) => {
    const file = path.join(harness.dir, name);
    fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
    return file;
  };
  return harness;
}

export function run(args, input, timeout = 60000) {
  const r = spawnSync(cli, args, { input, encoding: 'utf8', timeout });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function near(actual, expected, what) {
  assert.ok(Math.abs(actual - expected) <= 1e-9 * Math.abs(expected), `${what}: ${actual} vs ${expected}`);
}
