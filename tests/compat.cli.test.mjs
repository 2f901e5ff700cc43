// The compatibility promise: every field the CLI printed before issue 11 (the
// outputs in tests/golden/compat, made at commit a5a6a03) is printed today with
// the same value, for every example and method there; only wall times and the
// certificate's bound may differ.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { run } from './cli_harness.mjs';

const golden = new URL('./golden/compat/', import.meta.url).pathname;
const examples = new URL('../examples/', import.meta.url).pathname;
// Wall times differ run to run; the certificate (a proven lower bound and the
// gap to it) may only tighten as the bounds improve (issue 10), never the plan
// or its figures.
const clockFields = new Set(['elapsed_ms', 'lower_bound_ms', 'bound_history', 'lower_bound', 'gap']);

// Every field of `before`, recursively, equal in `now`.
function expectSuperset(before, now, where) {
  if (before && typeof before === 'object' && !Array.isArray(before)) {
    assert.ok(now && typeof now === 'object', `${where}: not an object`);
    for (const [key, value] of Object.entries(before)) {
      if (clockFields.has(key)) continue;
      assert.ok(key in now, `${where}.${key} missing`);
      expectSuperset(value, now[key], `${where}.${key}`);
    }
  } else if (Array.isArray(before)) {
    assert.ok(Array.isArray(now) && now.length === before.length, `${where}: length`);
    before.forEach((v, i) => expectSuperset(v, now[i], `${where}[${i}]`));
  } else {
    assert.deepEqual(now, before, where);
  }
}

for (const file of readdirSync(golden).filter((f) => f.endsWith('.json')).sort()) {
  const [example, kind] = file.replace(/\.json$/, '').split('.');
  test(`${example} ${kind}: every old field as before`, () => {
    const problem = path.join(examples, `${example}.json`);
    const args = kind === 'evaluate' ? ['evaluate', problem, path.join(golden, `${example}.memetic.json`)]
                                     : ['solve', problem, '--method', kind];
    const r = run(args, undefined, 120000);
    assert.equal(r.code, 0, r.stderr);
    expectSuperset(JSON.parse(readFileSync(path.join(golden, file), 'utf8')), JSON.parse(r.stdout), file);
  });
}
