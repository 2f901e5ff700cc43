// docs/formats.md against the planner, so that the reference cannot drift from the code:
// - every field the parsers know (core/model/problem_json.cpp, objective_json.cpp, plan_json.cpp)
//   has a row in a field table, and every row names a field they know;
// - every row's bounds are tried on both sides through `geotrain validate` (problem fields) or
//   `geotrain evaluate` (plan fields): a value at a bound draws no error naming the field, one
//   beyond it an error naming it; integers refuse a fraction, lists of values refuse another;
// - every default written as a JSON value gives what leaving the field out gives, every
//   "required" field left out is reported by name, and any other default (words) means leaving
//   the field out is fine;
// - a problem holding every documented field validates with no "unknown field" warning.
// A row whose bounds this test cannot read fails it: write bounds in one of the forms below.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from './cli_harness.mjs';
import { inlineText, parseBlocks } from '../web/tools/markdown.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DOC = 'docs/formats.md';
const COLUMNS = ['field', 'type', 'unit', 'default', 'bounds', 'meaning'];

const link = (bandwidth_gbps, latency_ms) => ({ bandwidth_gbps, latency_ms });
// A valid problem with every section present, so that each field can be set, removed or pushed
// past its bounds alone. Sites A and B, one node of two GPUs.
const BASE = {
  name: 'probe',
  model: { hidden_size: 1024, num_layers: 8, seq_length: 512, vocab_size: 50000, micro_batch_size: 2, global_batch_size: 16 },
  gpus: [
    { id: 'g0', type: 'A100-SXM-80GB', site: 'A' },
    { id: 'g1', type: 'A100-SXM-80GB', site: 'A', node: 'n1' },
    { id: 'g2', type: 'T4', site: 'B' },
  ],
  network: {
    default: link(1, 20), intra_node: link(600, 0.01), intra_site: link(100, 0.1), inter_site: link(10, 10),
    site_links: [{ from: 'A', to: 'B', ...link(5, 12) }],
    links: [{ from: 'g0', to: 'g2', ...link(2, 25) }],
  },
  objective: { weights: { energy: 1 } },
  search: { time_limit_s: 5 },
  sites: { A: {} },
  training: { iterations: 1000 },
};
const BASE_PLAN = { stages: [{ gpu: 'g0', layers: 4 }, { gpu: 'g2', layers: 4 }] };

// A pool of `n` GPUs on one site (for the array-length and group probes).
function poolOf(n) {
  const problem = structuredClone(BASE);
  problem.gpus = Array.from({ length: n }, (_, i) => ({ id: `x${i}`, type: 'T4', site: 'A' }));
  problem.network = { default: link(10, 1) };
  delete problem.sites;
  return problem;
}
// A one-stage plan whose stage is a group of `n` GPUs of poolOf(65), tensor degree t.
function groupPlan(n, t = n >= 1 && n <= 64 ? n : 1) {
  return { stages: [{ gpus: Array.from({ length: n }, (_, i) => `x${i}`), tensor_parallel: t, layers: 8 }] };
}

// ---- the tables ------------------------------------------------------------------------------

function fieldTables() {
  const blocks = parseBlocks(readFileSync(join(ROOT, DOC), 'utf8'));
  const rows = [];
  let heading = null;
  for (const block of blocks) {
    if (block.type === 'heading') heading = block;
    if (block.type !== 'table') continue;
    const head = block.head.map((cell) => inlineText(cell).trim());
    if (head.join('|') !== COLUMNS.join('|')) continue;
    // The object a table describes: the code spans of its heading, or the top level.
    const paths = heading.inline.filter((n) => n.type === 'code').map((n) => n.text);
    block.rows.forEach((cells, r) => {
      const code = cells[0].find((n) => n.type === 'code');
      assert.ok(code, `${DOC}:${block.rowLines[r]}: the field cell must hold the field's name in code`);
      rows.push({
        key: code.text, line: block.rowLines[r], paths: paths.length ? paths : [''],
        type: inlineText(cells[1]).trim(), unit: inlineText(cells[2]).trim(),
        defaultCell: cells[3], bounds: cells[4],
      });
    });
  }
  return rows;
}

// Bounds forms: "—"; "[a, b]", "(a, b]" (a, b numbers, or names such as `population - 1` or
// `model.num_layers`), optionally "0 or [a, b]"; "one of `x`, `y`"; "non-empty"; "a known name".
function readBounds(cell, where) {
  const text = inlineText(cell).trim();
  if (text === '—') return { kind: 'none' };
  if (text === 'non-empty') return { kind: 'non-empty' };
  if (text === 'a known name') return { kind: 'known' };
  if (text.startsWith('one of ')) return { kind: 'enum', values: cell.filter((n) => n.type === 'code').map((n) => n.text) };
  const m = /^(0 or )?([[(])\s*([^,]+?)\s*,\s*([^\])]+?)\s*([\])])$/.exec(text);
  assert.ok(m, `${where}: bounds "${text}" are in no form this test reads`);
  return { kind: 'range', zero: Boolean(m[1]), openLow: m[2] === '(', low: m[3], high: m[4], openHigh: m[5] === ')' };
}

// ---- running the CLI -------------------------------------------------------------------------

function validate(problem) {
  return run(['validate', '-'], JSON.stringify(problem));
}
const errorsOf = (stderr) => stderr.split('\n').filter((l) => l.startsWith('error: ')).map((l) => l.slice(7));
const warningsOf = (stderr) => stderr.split('\n').filter((l) => l.startsWith('warning: ')).map((l) => l.slice(9));

// Object access by a path such as "network.links[0]" (created on the way when `create`).
function walk(root, path, create = false) {
  let object = root;
  for (const part of path.split('.').filter(Boolean)) {
    const m = /^([^[]+)(?:\[(\d+)\])?$/.exec(part);
    if (object[m[1]] === undefined && create) object[m[1]] = {};
    object = object[m[1]];
    if (m[2] !== undefined) object = object[Number(m[2])];
    if (object === undefined) return undefined;
  }
  return object;
}

// ---- one field -------------------------------------------------------------------------------

// Where a documented object lives in a probe document, and the path its messages use.
function locate(tablePath) {
  const plan = tablePath === 'plan' || tablePath.startsWith('plan.');
  const inFile = (plan ? tablePath.replace(/^plan\.?/, '') : tablePath).replace(/\[\]/g, '[0]').replace(/\.NAME$/, '.A');
  return { plan, inFile };
}

// Runs the document with `key` of the object at `at` set to `value` (undefined: removed);
// returns {code, errors, warnings, stdout}.
function probe(row, at, value, { plan: isPlan, adjust } = {}) {
  let problem = structuredClone(BASE);
  let plan = structuredClone(BASE_PLAN);
  if (adjust) ({ problem, plan } = adjust({ problem, plan }, value));
  const doc = isPlan ? plan : problem;
  const object = at === '' ? doc : walk(doc, at, true);
  if (value === undefined) delete object[row.key];
  else object[row.key] = value;
  return outcome(isPlan ? evaluateWith(problem, plan) : validate(problem));
}

const outcome = (r) => ({ code: r.code, stdout: r.stdout, errors: errorsOf(r.stderr), warnings: warningsOf(r.stderr) });

// `geotrain evaluate` reads the problem from standard input and the plan from a file.
const scratch = mkdtempSync(join(tmpdir(), 'docs-formats-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
let planCount = 0;
function evaluateWith(problem, plan) {
  const file = join(scratch, `plan-${planCount++}.json`);
  writeFileSync(file, JSON.stringify(plan));
  return run(['evaluate', '-', file], JSON.stringify(problem));
}

// What a probe of a field needs besides the field itself: (docs, value) => docs.
const numberOr = (value, fallback) => (typeof value === 'number' ? value : fallback);
const ADJUST = {
  // A document without a network is fine for one GPU only.
  network: () => (docs, value) => {
    if (value === undefined) docs.problem.gpus = [docs.problem.gpus[0]], delete docs.problem.sites, docs.problem.network = {};
    return docs;
  },
  // The head count must divide H: H is the count itself while the count is one H may be.
  'model.num_attention_heads': () => (docs, value) => {
    if (Number.isInteger(value) && value >= 1 && value <= 1000000) docs.problem.model.hidden_size = value;
    return docs;
  },
  // B must stay a multiple of u: with u = 1 every B is one.
  'model.global_batch_size': () => (docs) => {
    docs.problem.model.micro_batch_size = 1;
    return docs;
  },
  // The four weights may not all be 0: another one carries the objective.
  'objective.weights': (row) => (docs) => {
    docs.problem.objective.weights = row.key === 'energy' ? { time: 1 } : { energy: 1 };
    return docs;
  },
  // active_w below idle_w is a fault of active_w, which would hide idle_w's own range check.
  'gpus[0].idle_w': () => (docs, value) => {
    docs.problem.gpus[0].active_w = Math.max(numberOr(value, 0), 1e6);
    return docs;
  },
  'gpus[0].active_w': () => (docs) => {
    docs.problem.gpus[0].idle_w = 0;
    return docs;
  },
  // A stage group: GPUs of one site, in a pool large enough for any group.
  'stages[0].gpus': () => (docs, value) => (Array.isArray(value)
    ? { problem: poolOf(65), plan: groupPlan(value.length) } : docs),
  // A tensor degree must divide its group: a group of that many GPUs, or of 2 (d = 2 divides u).
  'stages[0].tensor_parallel': () => (docs, value) => {
    const size = Number.isInteger(value) && value > 2 && value <= 64 ? value : 2;
    return { problem: poolOf(65), plan: groupPlan(size, 1) };
  },
};

function adjustFor(inFile, row) {
  const make = ADJUST[inFile ? `${inFile}.${row.key}` : row.key] ?? ADJUST[inFile];
  return make ? make(row) : undefined;
}

const errorNamed = (errors, path) => errors.find((e) => e.startsWith(`${path}: `));

// The value of a bound: a number, or a field of the effective problem (`population - 1`).
function boundValue(text, effective, objectPath) {
  const m = /^([A-Za-z_.]+)(?:\s*-\s*(\d+))?$/.exec(text);
  if (!m) {
    const x = Number(text);
    assert.ok(Number.isFinite(x), `bound "${text}" is neither a number nor a field`);
    return x;
  }
  const value = m[1].includes('.') ? walk(effective, m[1]) : walk(effective, objectPath)[m[1]];
  assert.equal(typeof value, 'number', `bound "${text}": no such number in the problem`);
  return value - Number(m[2] ?? 0);
}

function checkRow(row, tablePath) {
  const where = `${DOC}:${row.line} ${tablePath ? `${tablePath}.` : ''}${row.key}`;
  const { plan, inFile } = locate(tablePath);
  const path = inFile ? `${inFile}.${row.key}` : row.key;
  // Plan messages name plan-level fields "plan.X", stage fields "stages[q].X".
  const messagePaths = plan && !inFile ? [path, `plan.${path}`] : [path];
  const named = (errors) => messagePaths.map((p) => errorNamed(errors, p)).find(Boolean);
  const adjust = adjustFor(inFile, row);
  const tryValue = (value) => probe(row, inFile, value, { plan, adjust });
  const accepted = (value, why) => {
    const r = tryValue(value);
    assert.equal(named(r.errors), undefined, `${where}: ${why} ${JSON.stringify(value)} should be accepted: ${r.errors.join(' / ')}`);
    const unknown = r.warnings.find((w) => w.startsWith(`${path}: unknown field`));
    assert.equal(unknown, undefined, `${where}: the parser does not know the field`);
  };
  const refused = (value, why) => {
    const r = tryValue(value);
    assert.ok(named(r.errors), `${where}: ${why} ${JSON.stringify(value)} should be refused naming ${path}: got ${r.errors.join(' / ') || 'no error'}`);
  };

  // Defaults: "required", a JSON value, or words (then leaving the field out must be fine).
  const defaultCode = row.defaultCell.length === 1 && row.defaultCell[0].type === 'code' ? row.defaultCell[0].text : null;
  const defaultText = inlineText(row.defaultCell).trim();
  if (/^required\b/.test(defaultText)) {
    refused(undefined, 'leaving out the required field');
  } else if (defaultCode !== null) {
    const value = JSON.parse(defaultCode);
    const without = tryValue(undefined);
    const withDefault = tryValue(value);
    assert.equal(without.code, 0, `${where}: leaving the field out: ${without.errors.join(' / ')}`);
    assert.equal(withDefault.code, 0, `${where}: the default ${defaultCode}: ${withDefault.errors.join(' / ')}`);
    assert.equal(withDefault.stdout, without.stdout, `${where}: ${defaultCode} is not what leaving the field out gives`);
  } else {
    assert.equal(named(tryValue(undefined).errors), undefined, `${where}: leaving the field out (default "${defaultText}") is refused`);
  }

  const bounds = readBounds(row.bounds, where);
  const effective = plan ? EFFECTIVE_POOL : EFFECTIVE_BASE;
  const objectPath = inFile;
  if (bounds.kind === 'none') {
    if (['string', 'any'].includes(row.type)) accepted('free text', 'a string');
  } else if (bounds.kind === 'non-empty') {
    accepted('x-any', 'a name');
    refused('', 'an empty name');
  } else if (bounds.kind === 'known') {
    refused('no-such-name', 'an unknown name');
  } else if (bounds.kind === 'enum') {
    assert.ok(bounds.values.length >= 2, `${where}: list the values in code`);
    for (const v of bounds.values) accepted(v, 'the value');
    refused('not-a-value', 'another value');
  } else if (row.type === 'array') {
    // Lengths: arrays of that many GPUs (the pool, or a stage group).
    const low = boundValue(bounds.low, effective, objectPath);
    const high = boundValue(bounds.high, effective, objectPath);
    for (const [n, ok] of [[low, true], [high, true], [low - 1, false], [high + 1, false]]) {
      const r = plan ? tryValue(groupPlan(n).stages[0].gpus) : outcome(validate(poolOf(n)));
      const error = named(r.errors);
      if (ok) assert.equal(error, undefined, `${where}: ${n} entries should be accepted: ${r.errors.join(' / ')}`);
      else assert.ok(error, `${where}: ${n} entries should be refused naming ${path}: got ${r.errors.join(' / ') || 'no error'}`);
    }
  } else {
    assert.ok(['integer', 'number'].includes(row.type), `${where}: a range needs type integer or number, not ${row.type}`);
    const low = boundValue(bounds.low, effective, objectPath);
    const high = boundValue(bounds.high, effective, objectPath);
    const integer = row.type === 'integer';
    if (bounds.openLow) {
      refused(low, 'the excluded lower bound');
      accepted(low + (high - low) * 1e-6, 'a value just inside the lower bound');
    } else {
      accepted(low, 'the lower bound');
      refused(integer ? low - 1 : low > 0 ? low / 2 : low - 0.5, 'a value below the bounds');
    }
    accepted(high, 'the upper bound');
    refused(integer ? high + 1 : high > 0 ? high * 1.5 : high + 0.5, 'a value above the bounds');
    if (bounds.zero) accepted(0, 'zero');
    if (integer && low + 0.5 < high) refused(low + 0.5, 'a fraction');
    refused('1', 'a string');
  }
}

// ---- the tests -------------------------------------------------------------------------------

const rows = fieldTables();
const EFFECTIVE_BASE = JSON.parse(validate(BASE).stdout);
const EFFECTIVE_POOL = JSON.parse(validate(poolOf(65)).stdout);

test('docs/formats.md has field tables for every object of a problem and a plan', () => {
  const paths = new Set(rows.flatMap((r) => r.paths));
  for (const p of ['', 'model', 'gpus[]', 'network', 'network.default', 'network.links[]', 'objective', 'objective.weights',
    'sites.NAME', 'training', 'search', 'plan', 'plan.stages[]']) assert.ok(paths.has(p), `no table for "${p}"`);
  assert.ok(rows.length >= 60, `only ${rows.length} rows`);
});

test('every field the parsers know is documented, and every documented field is known', () => {
  const source = (file) => readFileSync(join(ROOT, 'core/model', file), 'utf8');
  const known = new Set();
  for (const file of ['problem_json.cpp', 'objective_json.cpp']) {
    const text = source(file);
    for (const m of text.matchAll(/open_object\([^;{]*\{([^}]*)\}/g)) for (const k of m[1].matchAll(/"(\w+)"/g)) known.add(k[1]);
    for (const m of text.matchAll(/const auto \w+ = \{([^}]*)\};/g)) for (const k of m[1].matchAll(/"(\w+)"/g)) known.add(k[1]);
  }
  for (const m of source('plan_json.cpp').matchAll(/r\.(?:string|integer|array|number)\(\w+, "?[\w.]*"?\w*, "(\w+)"/g)) known.add(m[1]);
  for (const m of source('plan_json.cpp').matchAll(/contains\("(\w+)"\)/g)) known.add(m[1]);
  assert.ok(known.size >= 50, `read only ${known.size} field names from the parsers: has their code changed shape?`);
  const documented = new Set(rows.map((r) => r.key));
  const missing = [...known].filter((k) => !documented.has(k));
  const unknown = [...documented].filter((k) => !known.has(k));
  assert.deepEqual(missing, [], `fields the parsers read but ${DOC} does not list`);
  assert.deepEqual(unknown, [], `fields ${DOC} lists but the parsers do not read`);
});

for (const row of rows) {
  for (const tablePath of row.paths) {
    test(`${tablePath ? `${tablePath}.` : ''}${row.key}: bounds and default as documented`, () => checkRow(row, tablePath));
  }
}

test('a problem with every documented field validates with no unknown field', () => {
  const problem = structuredClone(BASE);
  problem.version = 1;
  problem.description = 'every field';
  problem.story = 'a test';
  for (const row of rows) {
    for (const tablePath of row.paths) {
      const { plan, inFile } = locate(tablePath);
      if (plan || row.type === 'object' || row.type === 'array' || !inFile) continue;
      const object = walk(problem, inFile, true);
      if (object[row.key] !== undefined) continue;
      const code = row.defaultCell.length === 1 && row.defaultCell[0].type === 'code' ? JSON.parse(row.defaultCell[0].text) : null;
      const bounds = readBounds(row.bounds, row.key);
      object[row.key] = code ?? (bounds.kind === 'enum' ? bounds.values[0] : row.type === 'string' || row.type === 'any' ? 'note' : 1);
    }
  }
  problem.search.time_limit_s = 5;
  const r = validate(problem);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(warningsOf(r.stderr).filter((w) => w.includes('unknown field')), []);
  const effective = JSON.parse(r.stdout);
  assert.equal(effective.gpus[0].price_per_hour, undefined, 'price_per_hour 0 is not written out');
  assert.equal(effective.search.boundary_shift, 'paper');
});
