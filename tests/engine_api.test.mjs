// The launch bundles held against the engines (issue 22): every flag, import,
// API name, keyword and config key a bundle generates must be in the list the
// project keeps of that engine's API (tests/fixtures/engines/*.json, each
// entry with the source file and version it came from, checked against the
// engines by verify_sources.py there), and every Megatron-Core layout string
// must parse with the grammar Megatron-Core documents. Bundles: every golden
// bundle, plus plans made here that reach what the examples do not (data
// shards, one tensor degree, mixed tensor degrees).
// Run: GEOTRAIN_CLI=build/<dir>/core/geotrain node --test tests/engine_api.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run, useCli } from './cli_harness.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const lists = Object.fromEntries(['megatron-core', 'deepspeed', 'torch', 'flashflex'].map((engine) =>
  [engine, JSON.parse(fs.readFileSync(path.join(root, 'tests/fixtures/engines', `${engine}.json`), 'utf8'))]));
const golden = path.join(root, 'tests/golden/launch');
const harness = useCli('geotrain-engine-api-');

// Two 4-GPU nodes at one site: H = 1024, L = 8, u = 2, B = 16 (M = 8).
const pool = {
  name: 'engine api',
  model: { hidden_size: 4096, num_layers: 8, seq_length: 1024, vocab_size: 32000,
           micro_batch_size: 2, global_batch_size: 16, precision: 'fp16' },
  gpus: ['a0', 'a1', 'a2', 'a3', 'b0', 'b1', 'b2', 'b3'].map((id) => ({
    id, node: id[0] === 'a' ? 'na' : 'nb', peak_tflops: 100, memory_gib: 80, idle_w: 50, active_w: 250 })),
  network: { default: { bandwidth_gbps: 10, latency_ms: 1 } },
};
const plans = {
  'one GPU per stage': [{ gpu: 'a0', layers: 3 }, { gpu: 'b0', layers: 5 }],
  'two data shards per stage': [{ gpus: ['a0', 'a1'], layers: 4 }, { gpus: ['b0', 'b1'], layers: 4 }],
  'one tensor degree': [{ gpus: ['a0', 'a1', 'a2', 'a3'], tensor_parallel: 4, layers: 2 },
                        { gpus: ['b0', 'b1', 'b2', 'b3'], tensor_parallel: 4, layers: 6 }],
  'mixed tensor degrees': [{ gpus: ['a0', 'a1', 'a2', 'a3'], tensor_parallel: 4, layers: 5 },
                           { gpus: ['b0', 'b1'], tensor_parallel: 2, layers: 3 }],
  'bf16 shards of two tensor ranks': [{ gpus: ['a0', 'a1', 'a2', 'a3'], tensor_parallel: 2, layers: 4 },
                                      { gpus: ['b0', 'b1', 'b2', 'b3'], tensor_parallel: 2, layers: 4 }],
};

let bundles = null;
function allBundles() {
  if (bundles) return bundles;
  bundles = fs.readdirSync(golden).filter((f) => f.endsWith('.json')).sort().map((f) => ({
    name: f, problem: JSON.parse(fs.readFileSync(path.join(root, 'examples', f), 'utf8')),
    bundle: JSON.parse(fs.readFileSync(path.join(golden, f), 'utf8')),
  }));
  for (const [name, stages] of Object.entries(plans)) {
    const problem = name.startsWith('bf16') ? { ...pool, model: { ...pool.model, precision: 'bf16' } } : pool;
    const problemFile = harness.write('pool.json', problem);
    const r = run(['launch', problemFile, harness.write('plan.json', { stages })]);
    assert.equal(r.code, 0, r.stderr);
    bundles.push({ name, problem, bundle: JSON.parse(r.stdout) });
  }
  return bundles;
}

const names = (entries, key = 'name') => new Set(entries.map((e) => e[key]));
const flagOf = (word) => word.split(/[ =]/)[0];

// Megatron-Core's reading of a layout (pipeline_parallel_layer_layout.py,
// parse_str_to_list): drop commas, unroll (X)*N then c*N, split at |, map each
// character; then validate_layer_layout's rules.
function parseLayout(layout) {
  let text = layout.replace(/,/g, '');
  text = text.replace(/\(([^)]+)\)\*(\d+)/g, (_, unit, n) => unit.repeat(Number(n)));
  text = text.replace(/(.)\*(\d+)/g, (_, unit, n) => unit.repeat(Number(n)));
  const types = { E: 'embedding', L: 'loss', t: 'decoder', m: 'mtp' };
  return text.split('|').map((stage) => [...stage].map((c) => {
    assert.ok(c in types, `invalid layer character ${c} in ${layout}`);
    return types[c];
  }));
}

function validateLayout(layout, numLayers, stages) {
  const parsed = parseLayout(layout);
  assert.equal(parsed.length % stages, 0, `${layout}: stage count divisible by --pipeline-model-parallel-size`);
  const flat = parsed.flat();
  assert.equal(flat[0], 'embedding', `${layout}: the first layer must be the embedding`);
  assert.equal(flat.at(-1), 'loss', `${layout}: the last layer must be the loss`);
  assert.equal(flat.filter((t) => t === 'embedding').length, 1);
  assert.equal(flat.filter((t) => t === 'loss').length, 1);
  assert.equal(flat.filter((t) => t === 'decoder').length, numLayers, `${layout}: decoder layers = --num-layers`);
  assert.equal(flat.filter((t) => t === 'mtp').length, 0, 'MTP layers are not supported in a custom layout');
  return parsed.map((stage) => stage.filter((t) => t === 'decoder').length);
}

// `from A import b, c` and `import A [as x]` lines of a Python text.
function pythonImports(text) {
  const out = [];
  for (const line of text.split('\n')) {
    let m = line.match(/^from ([\w.]+) import ([\w, ]+)$/);
    if (m) for (const name of m[2].split(',').map((s) => s.trim())) out.push({ module: m[1], name });
    m = line.match(/^import ([\w.]+)(?: as (\w+))?$/);
    if (m) out.push({ module: m[1], as: m[2] });
  }
  return out;
}

// Keyword names passed in calls of `callee(` (one level of parentheses).
function keywordsOf(text, callee) {
  const out = new Set();
  for (const m of text.matchAll(new RegExp(`\\b${callee}\\(`, 'g'))) {
    let depth = 0, i = m.index + m[0].length - 1, body = '';
    for (; i < text.length; i += 1) {
      if (text[i] === '(') depth += 1;
      if (text[i] === ')') depth -= 1;
      if (depth === 0) break;
      body += text[i];
    }
    for (const k of body.matchAll(/[(,]\s*(\w+)=/g)) out.add(k[1]);
  }
  return out;
}

function torchrunFlags(commands) {
  return commands.flatMap((c) => c.split(/\s+/)).filter((w) => w.startsWith('--')).map(flagOf);
}

test('Megatron-Core: every flag and value is in its list, every layout parses and reads back into the plan', () => {
  const list = lists['megatron-core'];
  const flags = names(list.flags);
  const torchrun = names(lists.torch.torchrun_flags);
  let layouts = 0;
  for (const { name, problem, bundle } of allBundles()) {
    const part = bundle.megatron;
    if (!part.expressible) continue;
    assert.equal(part.versions.minimum, '0.13.0');
    assert.deepEqual(part.versions.checked_against, list.checked_against);
    for (const word of part.arguments) {
      assert.ok(flags.has(flagOf(word)), `${name}: ${flagOf(word)} is not in megatron-core.json`);
      const value = word.slice(flagOf(word).length + 1);
      const known = list.values.filter((v) => v.flag === flagOf(word));
      if (known.length && !/^[\d.']/.test(value)) assert.ok(known.some((v) => v.value === value), `${name}: ${word}`);
    }
    for (const line of part.torchrun) {
      for (const f of torchrunFlags([line.command.split('pretrain_gpt.py')[0]]))
        assert.ok(torchrun.has(f), `${name}: torchrun ${f} is not in torch.json`);
      assert.match(line.command, /pretrain_gpt\.py/);
    }
    if (part.pipeline_layout) {
      const stages = Number(part.arguments.find((w) => w.startsWith('--pipeline-model-parallel-size ')).split(' ')[1]);
      assert.deepEqual(validateLayout(part.pipeline_layout, problem.model.num_layers, stages),
        bundle.plan.map((s) => s.layers), `${name}: layout`);
      layouts += 1;
    }
  }
  assert.ok(layouts >= 5, `only ${layouts} layouts checked`);
});

test('the layout grammar refuses what Megatron-Core refuses', () => {
  assert.deepEqual(validateLayout('Et*2|(tt|)*2,L', 6, 4), [2, 2, 2, 0]);
  assert.throws(() => validateLayout('t*3|tL', 4, 2), /embedding/);
  assert.throws(() => validateLayout('Et*3|Lt', 4, 2), /loss/);
  assert.throws(() => validateLayout('Et*3|x,L', 3, 2), /invalid layer character x/);
  assert.throws(() => validateLayout('Et*3|t,L', 5, 2), /decoder layers/);
});

test('torch: imports, distributed calls, keywords and torchrun flags are in its list', () => {
  const list = lists.torch;
  const imports = list.imports.map((i) => `${i.module}:${i.name ?? ''}:${i.as ?? ''}`);
  const calls = new Set(list.attributes.filter((a) => a.of === 'torch.distributed').map((a) => a.name));
  const keywords = (call) => new Set(list.keywords.filter((k) => k.call === call).map((k) => k.name));
  const torchrun = names(list.torchrun_flags);
  let scripts = 0;
  for (const { name, bundle } of allBundles()) {
    const part = bundle.torch;
    if (!part.expressible) continue;
    assert.deepEqual(part.versions.checked_against, list.checked_against);
    for (const i of pythonImports(part.text))
      assert.ok(imports.includes(`${i.module}:${i.name ?? ''}:${i.as ?? ''}`), `${name}: import ${JSON.stringify(i)}`);
    for (const m of part.text.matchAll(/\bdist\.(\w+)\(/g)) assert.ok(calls.has(m[1]), `${name}: dist.${m[1]}`);
    for (const [callee, call] of [['PipelineStage', 'PipelineStage'], ['Schedule1F1B', 'Schedule1F1B'], ['schedule\\.step', 'step']])
      for (const k of keywordsOf(part.text, callee)) assert.ok(keywords(call).has(k), `${name}: ${call}(${k}=)`);
    assert.ok(keywordsOf(part.text, 'PipelineStage').has('output_args'));
    for (const f of torchrunFlags(part.torchrun.map((l) => l.command.split('geotrain_pipeline.py')[0])))
      assert.ok(torchrun.has(f), `${name}: torchrun ${f}`);
    scripts += 1;
  }
  assert.ok(scripts >= 5, `only ${scripts} torch scripts checked`);
});

test('DeepSpeed: imports, PipelineModule internals, flags and ds_config keys are in its list', () => {
  const list = lists.deepspeed;
  const imports = list.imports.map((i) => `${i.module}:${i.name}`);
  const attributes = names(list.attributes);
  const keys = names(list.config_keys);
  const flags = names(list.flags);
  let modules = 0;
  for (const { name, bundle } of allBundles()) {
    const part = bundle.deepspeed;
    if (!part.expressible) continue;
    for (const i of pythonImports(part.text)) assert.ok(imports.includes(`${i.module}:${i.name}`), `${name}: ${i.module}.${i.name}`);
    const code = part.text.split('\n').filter((l) => !/^(from|import) /.test(l)).join('\n');
    for (const m of code.matchAll(/(?:\b(?:self|engine|deepspeed|topology)|\))\.(\w+)/g))
      assert.ok(attributes.has(m[1]), `${name}: .${m[1]} is not in deepspeed.json`);
    for (const m of part.text.matchAll(/\._topo\.(\w+)\(/g)) assert.ok(attributes.has(m[1]), `${name}: _topo.${m[1]}`);
    for (const k of keywordsOf(part.text, 'PipeDataParallelTopology'))
      assert.ok(list.keywords.some((e) => e.call === 'PipeDataParallelTopology' && e.name === k), k);
    const walk = (object, prefix) => {
      for (const [key, value] of Object.entries(object)) {
        assert.ok(keys.has(prefix + key), `${name}: ds_config ${prefix + key}`);
        if (value && typeof value === 'object') walk(value, `${prefix}${key}.`);
      }
    };
    walk(part.config, '');
    for (const f of part.torchrun[0].command.split(/\s+/).slice(part.torchrun[0].command.split(/\s+/).indexOf('train.py')))
      if (f.startsWith('--')) assert.ok(flags.has(f), `${name}: train.py ${f}`);
    modules += 1;
  }
  assert.ok(modules >= 5, `only ${modules} DeepSpeed modules checked`);
});

test('FlashFlex: every flag, value and environment variable is in its list; the script is valid sh', () => {
  const list = lists.flashflex;
  const flags = names(list.flags);
  const environment = names(list.environment);
  const heads = Object.fromEntries(list.models.map((m) => [m.name, m.attention_heads]));
  let launches = 0;
  for (const { name, bundle } of allBundles()) {
    const part = bundle.flashflex;
    if (!part.expressible) continue;
    for (const word of part.arguments) {
      const flag = flagOf(word);
      assert.ok(flags.has(flag), `${name}: ${flag} is not in flashflex.json`);
      const known = list.values.filter((v) => v.flag === flag);
      if (known.length) assert.ok(known.some((v) => v.value === word.slice(flag.length + 1)), `${name}: ${word}`);
    }
    for (const m of part.text.matchAll(/\b([A-Z_]+)=/g)) assert.ok(environment.has(m[1]), `${name}: ${m[1]}`);
    // hexiscale/process_args.py's validate_args, on the bundle's lists.
    const ranks = part.hetero_configs.flat().reduce((a, b) => a + b, 0);
    assert.equal(ranks, part.ranks.length, `${name}: world size = sum of hetero_configs`);
    for (const partition of part.layer_partitions)
      assert.equal(partition.reduce((a, b) => a + b, 0), bundle.plan.reduce((a, s) => a + s.layers, 0));
    for (const t of part.hetero_configs.flat()) assert.equal(heads[part.model_size] % t, 0, `${name}: heads % tp`);
    assert.equal(part.global_bsz_size.length, part.hetero_configs.length);
    assert.equal(part.chunks.length, part.hetero_configs.length);
    const script = harness.write('flashflex_launch.sh', part.text);
    const sh = spawnSync('sh', ['-n', script], { encoding: 'utf8' });
    assert.equal(sh.status, 0, `${name}: ${sh.stderr}`);
    launches += 1;
  }
  assert.ok(launches >= 5, `only ${launches} FlashFlex launches checked`);
});
