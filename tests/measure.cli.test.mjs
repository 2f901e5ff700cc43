// geotrain import and geotrain calibrate from outside: the five commands of
// docs/measured-clusters.md on examples/measured/, all-or-nothing refusals,
// --report, and the sources a problem keeps through validate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { run, useCli } from './cli_harness.mjs';

const examples = new URL('../examples/measured/', import.meta.url).pathname;
const fixtures = new URL('./fixtures/measured/', import.meta.url).pathname;
const ex = (name) => path.join(examples, name);
const harness = useCli('geotrain-measure-');

function importCluster() {
  const lab = run(['import', ex('lab-1.smi.csv'), ex('lab-1.topo.txt'), ex('lab-1.nccl.txt'), '--site', 'lab', '--into', ex('model.json')]);
  assert.equal(lab.code, 0, lab.stderr);
  const labFile = harness.write('lab.json', lab.stdout);
  const all = run(['import', ex('cloud-1.smi.csv'), ex('cloud-2.smi.csv'), ex('cloud-1.topo.txt'), ex('cloud-2.topo.txt'),
    ex('cloud.nccl.txt'), ex('lab-cloud.iperf.json'), ex('lab-cloud.ping.txt'), '--site', 'cloud', '--into', labFile]);
  assert.equal(all.code, 0, all.stderr);
  return { lab, all, file: harness.write('cluster.json', all.stdout) };
}

test('import: the example cluster in two commands, each file summarised on stderr', () => {
  const { lab, all, file } = importCluster();
  assert.match(lab.stderr, /note: lab-1\.smi\.csv \(nvidia-smi --query-gpu CSV\): host lab-1: 4 GPUs \(4 added, 0 updated\)/);
  assert.match(all.stderr, /note: lab-cloud\.iperf\.json \(iperf3 --json\): lab -> cloud: 0\.739891 Gbps, back 0\.910842 Gbps \(TCP\)/);
  const problem = JSON.parse(all.stdout);
  assert.equal(problem.gpus.length, 20);
  assert.equal(problem.name, 'lab and cloud, measured');  // the --into file's own fields stay
  const toCloud = problem.network.site_links.find((l) => l.from === 'lab' && l.to === 'cloud');
  assert.equal(toCloud.bandwidth_gbps, 0.739891);
  assert.equal(toCloud.latency_ms, 10.356);
  assert.equal(toCloud.sources.latency_ms, 'imported: lab-cloud.ping.txt line 15 (ping average round trip 20.712 ms, half each way)');
  // validate keeps every source.
  const valid = run(['validate', file]);
  assert.equal(valid.code, 0, valid.stderr);
  const checked = JSON.parse(valid.stdout);
  assert.deepEqual(checked.gpus[0].sources, problem.gpus[0].sources);
  assert.deepEqual(checked.network.site_links.map((l) => l.sources), problem.network.site_links.map((l) => l.sources));
});

test('import --report lists every change; a new problem says what it put in', () => {
  const r = run(['import', ex('lab-1.smi.csv'), '--report']);
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.changes.length, 4);
  assert.deepEqual(report.changes[0].path, 'gpus[0]');
  assert.equal(report.changes[0].what, 'added');
  assert.equal(report.files[0].format, 'nvidia-smi --query-gpu CSV');
  assert.match(r.stderr, /warning: model: a placeholder/);
  assert.match(r.stderr, /warning: network\.default: a placeholder of 10 Gbps and 1 ms/);
});

test('import is all or nothing: every bad file named with its line, nothing printed', () => {
  const r = run(['import', ex('lab-1.smi.csv'), path.join(fixtures, 'truncated.smi.csv'), path.join(fixtures, 'failed.nccl.txt')]);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^error: truncated\.smi\.csv line 3: 3 fields where the header has 4 \(a line cut short\?\)$/m);
  assert.match(r.stderr, /^error: failed\.nccl\.txt line 49: nccl-tests reports wrong results/m);
  const missing = run(['import', path.join(fixtures, 'nope.csv')]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /error: measurement: cannot read .*nope\.csv/);
  const usage = run(['import']);
  assert.equal(usage.code, 2);
});

test('--host names the host of a file whatever its name', () => {
  const r = run(['import', path.join(fixtures, 'a100-node.smi.csv'), '--host', 'dgx-7']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).gpus[5].id, 'dgx-7-g5');
});

test('calibrate: a plan and its measured time, as a number or a Megatron-LM log', () => {
  const { file } = importCluster();
  const solved = run(['solve', file, '--time-limit', '10']);
  assert.equal(solved.code, 0, solved.stderr);
  const plan = harness.write('plan.json', solved.stdout);
  const modelled = JSON.parse(solved.stdout).iteration_ms;
  // Measured 2.2 times slower than the model at compute_util 1.
  const r = run(['calibrate', file, '--run', `${plan}:${2.2 * modelled}`, '--report']);
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.fit.runs.length, 1);
  assert.ok(Math.abs(report.fit.runs[0].error) < 1e-9, JSON.stringify(report.fit.runs[0]));
  const a100 = report.fit.types.find((t) => t.type === 'A100-SXM-80GB');
  assert.ok(a100.compute_util > 0 && a100.compute_util < 1 / 2.2 + 1e-9, String(a100.compute_util));
  assert.match(report.problem.gpus.find((g) => g.type === 'A100-SXM-80GB').sources.compute_util, /^calibrated: 1 run \(plan\.json /);
  assert.match(r.stderr, /note: A100-SXM-80GB: compute_util 1 -> 0\.45\d\d \(16 GPUs\)/);
  assert.match(r.stderr, /note: rms error 0% by bisection/);
  // The log: its median interval, the first left out.
  const fromLog = run(['calibrate', file, '--run', `${plan}:${path.join(examples, 'train.log')}`]);
  assert.equal(fromLog.code, 0, fromLog.stderr);
  assert.match(fromLog.stderr, /measured: median of \d+ logged intervals in train\.log \(the first, with start-up, left out\)/);
});

test('calibrate refuses what it cannot use', () => {
  const { file } = importCluster();
  assert.equal(run(['calibrate', file]).code, 2);
  const bad = run(['calibrate', file, '--run', 'no-colon']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--run takes PLAN:MS or PLAN:LOGFILE, got 'no-colon'/);
  const plan = harness.write('p.json', { stages: [{ gpu: 'cloud-1-g0', layers: 32 }] });
  const negative = run(['calibrate', file, '--run', `${plan}:-5`]);
  assert.equal(negative.code, 1);
  assert.match(negative.stderr, /the measured iteration time must be a positive number of ms/);
  const log = run(['calibrate', file, '--run', `${plan}:${path.join(fixtures, 'no-iterations.log')}`]);
  assert.equal(log.code, 1);
  assert.match(log.stderr, /no-iterations\.log: no "elapsed time per iteration \(ms\): \.\.\." line/);
});
