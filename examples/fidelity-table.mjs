#!/usr/bin/env node
// How far the analytic 1F1B formula, T = sum tau + (M - 1) max tau, is from
// the event-level simulation of the same plan (docs/simulation.md,
// "Fidelity"). For every example and POOLS random heterogeneous pools: the
// planner's best plans (geotrain robustness --scenarios 0: the best few
// candidates, each simulated with blocking sends), the best plan simulated
// with overlapped sends, and one random plan per pool in both send modes.
// Prints the Markdown tables of docs/simulation.md.
//
// Usage: node examples/fidelity-table.mjs [CLI] [POOLS] [SEED]
//   CLI defaults to build/native/core/geotrain, POOLS to 300, SEED to 1.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const cli = path.resolve(process.argv[2] || path.join(here, '../build/native/core/geotrain'));
const poolCount = Number(process.argv[3] || 300);
const seed = Number(process.argv[4] || 1);
const scratch = mkdtempSync(path.join(os.tmpdir(), 'geotrain-fidelity-'));

function run(args) {
  return JSON.parse(execFileSync(cli, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 }));
}

function file(name, value) {
  const p = path.join(scratch, name);
  writeFileSync(p, JSON.stringify(value));
  return p;
}

// mulberry32: a small seeded generator, so the pools are the same on every run.
function generator(s) {
  let a = s >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TYPES = ['H100-SXM', 'A100-SXM-80GB', 'A100-PCIe-40GB', 'L40S', 'A40', 'A10', 'L4', 'T4', 'V100-32GB', 'RTX-4090', 'RTX-3090'];

// A random pool: 3-12 GPUs of catalogue types at 1-4 sites, site links of 1-100 Gbps and 1-80 ms
// (directed, so the two ways may differ), a model of 8-48 layers and 4-64 micro-batches.
function randomPool(index) {
  const rnd = generator(seed * 100003 + index);
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
  const sites = ['A', 'B', 'C', 'D'].slice(0, int(1, 4));
  const gpus = [];
  for (let i = 0, n = int(3, 12); i < n; i++) {
    gpus.push({ id: `g${i}`, type: pick(TYPES), site: pick(sites), compute_util: [0.3, 0.45, 0.6][int(0, 2)] });
  }
  // Links between the sites some GPU is at (a site link naming no GPU's site is refused).
  const used = sites.filter((site) => gpus.some((g) => g.site === site));
  const siteLinks = [];
  for (const from of used) {
    for (const to of used) {
      if (from !== to) siteLinks.push({ from, to, bandwidth_gbps: pick([1, 2, 5, 10, 25, 50, 100]), latency_ms: int(1, 80) });
    }
  }
  const u = pick([1, 2, 4]);
  return {
    name: `random pool ${index}`,
    model: { hidden_size: pick([1024, 2048, 4096]), num_layers: int(8, 48), seq_length: pick([1024, 2048]),
      vocab_size: 50257, micro_batch_size: u, global_batch_size: u * pick([4, 8, 16, 32, 64]), precision: 'fp16' },
    gpus,
    network: { intra_site: { bandwidth_gbps: pick([25, 100, 200]), latency_ms: 0.05 }, inter_site: { bandwidth_gbps: 10, latency_ms: 20 }, site_links: siteLinks },
    objective: { lambda: 1 },
    search: { time_limit_s: 5, max_generations: 150, patience: 40, seed: 1 },
  };
}

// A random plan over a pool: a random subset of GPUs in random order, layers split at random
// (no memory check: the timing of a plan does not depend on whether it fits).
function randomPlan(problem, index) {
  const rnd = generator(seed * 7919 + index);
  const order = problem.gpus.map((g) => g.id).sort(() => rnd() - 0.5);
  const L = problem.model.num_layers;
  const q = 1 + Math.floor(rnd() * Math.min(order.length, L, 8));
  const cuts = new Set();
  while (cuts.size < q - 1) cuts.add(1 + Math.floor(rnd() * (L - 1)));
  const bounds = [0, ...[...cuts].sort((a, b) => a - b), L];
  return { stages: order.slice(0, q).map((gpu, k) => ({ gpu, layers: bounds[k + 1] - bounds[k] })) };
}

// Shape of a plan, for "where and why": Q, M, how uneven the stage times are, the sends' share of them.
// A plan of replicas: its slowest replica's stages, R and all M micro-batches.
function shape(report) {
  if (Array.isArray(report.replicas)) {
    const slowest = report.replicas.reduce((a, r) => (r.makespan_ms > a.makespan_ms ? r : a));
    return { ...shape({ ...slowest, replicas: undefined, micro_batches: report.micro_batches }), r: report.replicas.length };
  }
  const tau = report.stages.map((s) => s.forward_ms + s.backward_ms + s.send_forward_ms + s.send_backward_ms);
  const sends = report.stages.reduce((a, s) => a + s.send_forward_ms + s.send_backward_ms, 0);
  const mean = tau.reduce((a, t) => a + t, 0) / tau.length;
  return { q: tau.length, m: report.micro_batches, imbalance: Math.max(...tau) / mean, sendShare: sends / tau.reduce((a, t) => a + t, 0) };
}

function simulate(problemFile, plan, sends) {
  return run(['simulate', problemFile, file('plan.json', plan), '--sends', sends]);
}

const pct = (x) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;
const quantile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];

// ---- the examples
const examplesDir = here;
const exampleRows = [];
for (const name of readdirSync(examplesDir).filter((f) => f.endsWith('.json')).sort()) {
  const problemFile = path.join(examplesDir, name);
  // Examples that plan replicas (search.replicas): the plan solve prints, itself a plan file.
  const problem = JSON.parse(readFileSync(problemFile, 'utf8'));
  let plan;
  if ((problem.search?.replicas ?? 1) !== 1) {
    plan = run(['solve', problemFile, '--time-limit', '20']);
  } else {
    const robust = run(['robustness', problemFile, '--scenarios', '0', '--plans', '1', '--time-limit', '20']);
    const best = robust.plans[0];
    plan = { stages: best.stages, ...(best.micro_batch_size ? { micro_batch_size: best.micro_batch_size } : {}) };
  }
  const blocking = simulate(problemFile, plan, 'blocking');
  const overlapped = simulate(problemFile, plan, 'overlapped');
  exampleRows.push({ name, blocking, overlapped, shape: shape(blocking) });
}

// ---- the random pools
const planner = { blocking: [], overlapped: [] };
const random = { blocking: [], overlapped: [] };
const reranks = { blocking: [], overlapped: [] };
const failures = [];
for (let i = 0; i < poolCount; i++) {
  const problem = randomPool(i);
  const problemFile = file('problem.json', problem);
  let robust;
  try {
    robust = run(['robustness', problemFile, '--scenarios', '0', '--plans', '8']);
  } catch (error) {
    failures.push(String(error.stderr || error.message).split('\n')[0]);
    continue;  // nothing fits: no plan to compare
  }
  const best = robust.plans[0];
  const blocking = simulate(problemFile, { stages: best.stages }, 'blocking');
  const overlapped = simulate(problemFile, { stages: best.stages }, 'overlapped');
  planner.blocking.push({ i, difference: blocking.difference, shape: shape(blocking) });
  planner.overlapped.push({ i, difference: overlapped.difference, shape: shape(overlapped) });
  // Re-ranked by the simulation: is the analytic best also the simulated best of the candidates?
  const robustOverlapped = run(['robustness', problemFile, '--scenarios', '0', '--plans', '8', '--sends', 'overlapped']);
  for (const [sends, r] of [['blocking', robust], ['overlapped', robustOverlapped]]) {
    const first = r.plans[0];
    const bySim = r.plans.reduce((a, p) => (p.simulated_iteration_ms < a.simulated_iteration_ms ? p : a));
    reranks[sends].push({ i, candidates: r.plans.length, changed: bySim !== first, gain: 1 - bySim.simulated_iteration_ms / first.simulated_iteration_ms });
  }
  const plan = randomPlan(problem, i);
  const rb = simulate(problemFile, plan, 'blocking');
  const ro = simulate(problemFile, plan, 'overlapped');
  random.blocking.push({ i, difference: rb.difference, shape: shape(rb), problem, plan });
  random.overlapped.push({ i, difference: ro.difference, shape: shape(ro) });
}
rmSync(scratch, { recursive: true, force: true });

// ---- the tables
const out = [];
out.push(`Made by \`node examples/fidelity-table.mjs ${path.relative(process.cwd(), cli)} ${poolCount} ${seed}\`.`, '');
out.push('#### Examples: the planner\'s plan', '');
out.push('| example | stages (replicas × stages) | M | analytic (ms) | simulated, blocking (ms) | difference | simulated, overlapped (ms) | difference |');
out.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of exampleRows) {
  const stages = r.shape.r ? `${r.shape.r} × ${r.shape.q}` : r.shape.q;
  out.push(`| ${r.name} | ${stages} | ${r.shape.m} | ${r.blocking.analytic_iteration_ms.toFixed(1)} | ` +
    `${r.blocking.iteration_ms.toFixed(1)} | ${pct(r.blocking.difference)} | ${r.overlapped.iteration_ms.toFixed(1)} | ${pct(r.overlapped.difference)} |`);
}
const why = [...new Set(failures.map((f) => f.replace(/^error: /, '').replace(/:.*$/, '')))].join('; ');
out.push('', `#### ${planner.blocking.length} random pools: the difference (simulated - analytic) / analytic`, '');
if (failures.length) out.push(`(${failures.length} of ${poolCount} pools left out: ${why}.)`, '');
out.push('| plans | sends | min | 10th pct | median | 90th pct | max | within ±1% | beyond ±5% |');
out.push('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const [label, set] of [['planner\'s best', planner], ['random', random]]) {
  for (const sends of ['blocking', 'overlapped']) {
    const d = set[sends].map((x) => x.difference).sort((a, b) => a - b);
    const share = (f) => `${Math.round((100 * d.filter(f).length) / d.length)}%`;
    out.push(`| ${label} | ${sends} | ${pct(d[0])} | ${pct(quantile(d, 0.1))} | ${pct(quantile(d, 0.5))} | ${pct(quantile(d, 0.9))} | ` +
      `${pct(d[d.length - 1])} | ${share((x) => Math.abs(x) <= 0.01)} | ${share((x) => Math.abs(x) > 0.05)} |`);
  }
}
// Where: the difference by how uneven the stages are and by micro-batches per stage.
out.push('', '#### Where the difference is largest (random plans, blocking sends): mean |difference| by plan shape', '');
const bins = [['max tau / mean tau < 1.2', (s) => s.imbalance < 1.2], ['1.2 to 2', (s) => s.imbalance >= 1.2 && s.imbalance < 2],
  ['2 or more', (s) => s.imbalance >= 2]];
const mq = [['M < Q', (s) => s.m < s.q], ['Q <= M < 4Q', (s) => s.m >= s.q && s.m < 4 * s.q], ['M >= 4Q', (s) => s.m >= 4 * s.q]];
out.push(`| stage imbalance | ${mq.map(([l]) => l).join(' | ')} |`);
out.push(`| --- | ${mq.map(() => '---:').join(' | ')} |`);
for (const [label, inBin] of bins) {
  const cells = mq.map(([, inM]) => {
    const d = random.blocking.filter((x) => inBin(x.shape) && inM(x.shape) && x.shape.q > 1).map((x) => Math.abs(x.difference));
    return d.length ? `${(100 * d.reduce((a, x) => a + x, 0) / d.length).toFixed(1)}% (${d.length})` : '–';
  });
  out.push(`| ${label} | ${cells.join(' | ')} |`);
}
out.push('', '#### The largest differences (random plans)', '');
out.push('| pool | sends | stages | M | max tau / mean tau | sends\' share of tau | difference |');
out.push('| ---: | --- | ---: | ---: | ---: | ---: | ---: |');
// The largest each way: below the formula with overlapped sends, below and above it with blocking ones.
const byDifference = (list, sends) => list.map((x) => ({ ...x, sends })).sort((a, b) => a.difference - b.difference);
const blockingSorted = byDifference(random.blocking, 'blocking');
const rows = [...byDifference(random.overlapped, 'overlapped').slice(0, 4), ...blockingSorted.slice(0, 4),
  ...blockingSorted.slice(-4).reverse()];
for (const x of rows) {
  out.push(`| ${x.i} | ${x.sends} | ${x.shape.q} | ${x.shape.m} | ${x.shape.imbalance.toFixed(2)} | ${(100 * x.shape.sendShare).toFixed(0)}% | ${pct(x.difference)} |`);
}
if (process.env.FIDELITY_DUMP) writeFileSync(process.env.FIDELITY_DUMP, JSON.stringify(blockingSorted.slice(-3).map(({ problem, plan, difference }) => ({ problem, plan, difference }))));
out.push('', '#### Ranking the planner\'s best plans by the simulation', '');
out.push('| sends | pools | candidates (mean) | simulated-fastest is not the analytic best | its gain: median | its gain: largest |');
out.push('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const sends of ['blocking', 'overlapped']) {
  const list = reranks[sends];
  const changed = list.filter((r) => r.changed);
  const gains = changed.map((r) => r.gain).sort((a, b) => a - b);
  out.push(`| ${sends} | ${list.length} | ${(list.reduce((a, r) => a + r.candidates, 0) / list.length).toFixed(1)} | ` +
    `${changed.length} (${Math.round((100 * changed.length) / list.length)}%) | ${gains.length ? pct(quantile(gains, 0.5)) : '–'} | ${gains.length ? pct(gains[gains.length - 1]) : '–'} |`);
}
console.log(out.join('\n'));
