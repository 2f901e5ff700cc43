// Run: node tests/browser/make-fixtures.cjs (after a build); rewrites web/fixtures/*.json.
// Generates web/fixtures/*.json with the native CLI (build/native/core/geotrain); error objects
// ({error: {kind, messages}}) come from the wasm module, which returns them as JSON.
const fs = require('fs');
const os = require('os');
const {execFileSync} = require('child_process');
const path = require('path');
const ROOT = path.resolve(__dirname, '../..');
const src = fs.readFileSync(path.join(ROOT, 'web/wasm/geotrain.js'), 'utf8');
const factory = new Function('module', 'exports', 'require', '__filename', '__dirname',
  src + '\nreturn createGeoTrain;')({exports: {}}, {}, require, 'geotrain.js', path.join(ROOT, 'web/wasm'));

function untrustedProblem() {
  return {
    name: '<script>window.__pwned = 1</script>untrusted',
    description: 'Hostile names: every id, site and type must render as text.',
    model: {hidden_size: 2048, num_layers: 12, seq_length: 1024, vocab_size: 50257, micro_batch_size: 4,
            global_batch_size: 32, precision: 'fp16'},
    gpus: [
      {id: '<script>window.__pwned = 2</script>', type: 'A100-SXM-80GB', site: '<img src=x onerror="window.__pwned=3">'},
      {id: '<b id="injected">bold</b>', type: 'A100-SXM-80GB', site: '<img src=x onerror="window.__pwned=3">'},
      {id: '"><svg onload="window.__pwned=4">', type: '<i class="injected">Evil GPU</i>', site: 'Site "B" & <co>',
       peak_tflops: 120, memory_gib: 2, idle_w: 30, active_w: 200},
      {id: 'g&amp;3', type: 'T4', site: 'Site "B" & <co>'},
    ],
    network: {default: {bandwidth_gbps: 10, latency_ms: 5}, intra_site: {bandwidth_gbps: 100, latency_ms: 0.1},
              inter_site: {bandwidth_gbps: 10, latency_ms: 5}},
    objective: {lambda: 1.0},
  };
}

function largeProblem(gpuCount, siteCount) {
  const types = ['A100-SXM-80GB', 'A30', 'V100-32GB', 'RTX-3090', 'T4', 'L4', 'H100-SXM', 'A40'];
  const gpus = [];
  for (let i = 0; i < gpuCount; i++) {
    gpus.push({id: `n${String(i).padStart(3, '0')}`, type: types[(i * 7 + (i >> 3)) % types.length],
               site: `dc-${String(i % siteCount).padStart(2, '0')}`});
  }
  return {
    name: `large-${gpuCount}`,
    description: `${gpuCount} GPUs of eight types on ${siteCount} sites; a stress case for the views.`,
    model: {hidden_size: 4096, num_layers: 96, seq_length: 2048, vocab_size: 50257, micro_batch_size: 1,
            global_batch_size: 2048, precision: 'fp16'},
    gpus,
    network: {default: {bandwidth_gbps: 10, latency_ms: 20}, intra_site: {bandwidth_gbps: 200, latency_ms: 0.05},
              inter_site: {bandwidth_gbps: 10, latency_ms: 20}},
    objective: {lambda: 1.0},
  };
}

function singleGpuProblem() {
  return {
    name: 'single-gpu',
    description: 'One GPU: the pipeline has a single stage.',
    model: {hidden_size: 1024, num_layers: 8, seq_length: 1024, vocab_size: 50257, micro_batch_size: 4,
            global_batch_size: 16, precision: 'fp16'},
    gpus: [{id: 'solo', type: 'A100-SXM-80GB', site: 'home'}],
    network: {default: {bandwidth_gbps: 10, latency_ms: 10}},
    objective: {lambda: 0.5},
  };
}

factory({wasmBinary: fs.readFileSync(path.join(ROOT, 'web/wasm/geotrain.wasm'))}).then((M) => {
  const wasmCall = (fn, ...args) => JSON.parse(M[fn](...args.map((a) => typeof a === 'string' ? a : JSON.stringify(a))));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gt-fix-'));
  const cli = (...args) => {
    const files = args.map((a, k) => {
      if (typeof a === 'string') return a;
      const f = path.join(tmp, `arg${k}.json`);
      fs.writeFileSync(f, JSON.stringify(a));
      return f;
    });
    try {
      return JSON.parse(execFileSync(path.join(ROOT, 'build/native/core/geotrain'), files, {encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe']}));
    } catch (e) {
      return {error: {kind: 'cli', messages: [String(e.stderr || e.message).trim()]}};
    }
  };
  const call = (fn, p, opt) => {
    if (fn === 'validate') return {problem: cli('validate', p)};
    if (fn === 'evaluate') return cli('evaluate', p, opt);
    if (fn === 'solve') return cli('solve', p, '--method', opt.method);
    throw new Error(fn);
  };
  const validated = (p) => {
    const v = call('validate', p);
    if (v.error) throw new Error(JSON.stringify(v.error));
    return v.problem;
  };
  const solve = (p, method) => call('solve', p, {method});
  const write = (name, data) => {
    const file = path.join(ROOT, 'web/fixtures', name + '.json');
    fs.writeFileSync(file, JSON.stringify(data, null, name.startsWith('large') ? 0 : 1) + '\n');
    console.log(file, fs.statSync(file).size);
  };
  const example = (n) => JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', n + '.json'), 'utf8'));
  const baselines = (p) => ['uniform', 'metis', 'metis-improved'].map((m) => solve(p, m));
  const must = (r) => { if (r.error) throw new Error(JSON.stringify(r.error)); return r; };
  const note = 'Generated with build/native/core/geotrain (validate, solve --method M, evaluate); error objects from web/wasm';

  for (const [name, method] of [['three-sites', 'brute-force'], ['straggler-4gpu', 'brute-force'],
                                ['world-wide', 'metis-improved'], ['paper-testbed-6gpu', 'brute-force']]) {
    const p = example(name);
    write(name, {case: name, note, problem: validated(p), chosen: must(solve(p, method)), baselines: baselines(p)});
  }
  {
    const p = untrustedProblem();
    const chosen = must(solve(p, 'brute-force'));
    const base = baselines(p);
    base.push(wasmCall('solve', p, {method: 'no-such-method'}));
    write('untrusted', {case: 'untrusted', note, problem: validated(p), chosen, baselines: base});
    // The uniform plan puts layers on the 2 GiB GPU: an infeasible result as the shown plan.
    const uniform = solve(p, 'uniform');
    if (uniform.feasible !== false) throw new Error('expected an infeasible uniform plan');
    write('infeasible', {case: 'infeasible', note, problem: validated(p), chosen: uniform,
                         baselines: [solve(p, 'metis'), chosen]});
  }
  {
    const p = example('asymmetric-link');
    const plan = {stages: p.gpus.map((g, i) => ({gpu: g.id, layers: i === 0 ? 32 - 2 * (p.gpus.length - 1) : 2}))};
    const report = must(call('evaluate', p, plan));
    write('evaluate-report', {case: 'evaluate-report', note: note + ' (evaluate, not solve: stages hold metrics)',
                              problem: validated(p), chosen: report, baselines: baselines(p)});
  }
  {
    const p = singleGpuProblem();
    write('single-gpu', {case: 'single-gpu', note, problem: validated(p), chosen: must(solve(p, 'brute-force')),
                         baselines: baselines(p)});
  }
  {
    const p = largeProblem(512, 16);
    const t0 = Date.now();
    const chosen = must(solve(p, 'metis-improved'));
    console.log('large solve ms', Date.now() - t0);
    write('large-512', {case: 'large-512', note, problem: validated(p), chosen, baselines: baselines(p)});
  }
});
