// Measures the page's targets (not a test; prints a table for docs/performance.md):
//   node tests/browser/measure.mjs
// - time to interactive from localhost (performance mark 'geotrain-interactive',
//   set when the editor, the module and the first check are ready), cold and reload;
// - the 14-GPU example (examples/table7-14gpu.json, memetic, its own seed and
//   settings; another with EXAMPLE=llama70b-64xa100, say) planned in the page's
//   worker 2 s after the page is ready (and 1 s after opening it), against the native CLI on the same problem, and the
//   processor time of the page's busiest worker thread meanwhile (Linux: /proc), which the
//   machine's load does not stretch as it stretches wall time;
// - the size of what the page loads: its JavaScript and the wasm module.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { workerProcessorMs } from './worker-cpu.mjs';
import { gzipSync } from 'node:zlib';
import {
  REPO_ROOT, WEB_ROOT, download, ensureExamples, launchBrowser, openExample, openPage, startWebServer, waitReady,
  waitStatus,
} from './helpers.mjs';

const RUNS = Number(process.env.RUNS ?? 5);
const cli = process.env.GEOTRAIN_CLI ?? join(REPO_ROOT, 'build/native/core/geotrain');
// PROBLEM=file plans any problem file (imported through the page's Import button), e.g. a pool
// from tests/bench/geotrain_geo_pool.
const problemFile = process.env.PROBLEM;
const exampleName = problemFile ? problemFile.split('/').pop().replace(/\.json$/, '') : (process.env.EXAMPLE ?? 'table7-14gpu');
const example = problemFile ?? join(REPO_ROOT, `examples/${exampleName}.json`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// RUNS runs of the CLI: the median of its own elapsed_ms, the median of its whole processor time
// (reading, checking, planning, writing, as the page worker's figure counts it: bash's \`times\`,
// its children's user and system time; null without bash), and the last run's result.
function nativeFigures() {
  const seconds = (text) => { const [, m, sec] = text.match(/(\d+)m([\d.]+)s/); return 60 * Number(m) + Number(sec); };
  const elapsed = [], cpu = [];
  let result = null;
  for (let i = 0; i < RUNS; i++) {
    let out;
    try {
      out = execFileSync('bash', ['-c', '"$@"; times', 'bash', cli, 'solve', example, '--method', 'memetic'], { encoding: 'utf8' });
    } catch {
      out = null;  // no bash: the CLI alone, without its processor time
    }
    if (out === null) {
      result = JSON.parse(execFileSync(cli, ['solve', example, '--method', 'memetic'], { encoding: 'utf8' }));
    } else {
      const lines = out.trimEnd().split('\n');
      const [user, system] = lines.pop().split(/\s+/).map(seconds);
      lines.pop();  // the shell's own times
      cpu.push(1000 * (user + system));
      result = JSON.parse(lines.join('\n'));
    }
    elapsed.push(result.elapsed_ms);
  }
  return { elapsed: median(elapsed), cpu: cpu.length ? median(cpu) : null, result };
}

async function pageFigures(browser, url) {
  const cold = [], reload = [], plan = [], cpu = [];
  let wire = 0;
  let result = null;
  const wireSizes = [];
  for (let i = 0; i < RUNS; i++) {
    const { context, page } = await openPage(browser);
    // What travels on the first load (compressed bodies; 0 for the second worker's revalidated copy).
    const onFinished = (request) => {
      if (/\.(js|mjs|wasm)$/.test(new URL(request.url()).pathname)) wireSizes.push(request.sizes().then((s) => s.responseBodySize));
    };
    if (i === 0) page.on('requestfinished', onFinished);
    await page.goto(url);
    await waitReady(page);
    cold.push(await page.evaluate(() => performance.getEntriesByName('geotrain-interactive')[0].startTime));
    if (i === 0) {
      await page.waitForTimeout(1500);  // the planning worker loads the module after the page is ready
      page.off('requestfinished', onFinished);
      wire = (await Promise.all(wireSizes)).reduce((a, b) => a + b, 0);
    }
    await page.reload();
    await waitReady(page);
    reload.push(await page.evaluate(() => performance.getEntriesByName('geotrain-interactive')[0].startTime));
    // A user reads the page for a moment before planning; the planning worker
    // starts 1 s after the page is ready and warms up (web/worker.js).
    await page.waitForTimeout(2000);
    if (problemFile) {
      const text = readFileSync(problemFile);
      const name = JSON.parse(text).name;
      await page.setInputFiles('#import-file', { name: `${exampleName}.json`, mimeType: 'application/json', buffer: text });
      await page.waitForFunction((n) => JSON.parse(document.getElementById('problem-json').value).name === n, name, { timeout: 60000 });
    } else {
      await openExample(page, exampleName);
    }
    await page.selectOption('#method', 'memetic');
    // ... and looks at the example a moment before pressing Plan: the editor's and the checker's
    // work on opening it is done, so the figure is the plan's alone.
    await page.waitForTimeout(1000);
    const before = workerProcessorMs();
    await page.click('#plan-button');
    await waitStatus(page, 'Done', 120000);
    cpu.push(workerProcessorMs(before));
    result = (await download(page, '#download-plan-button')).value;
    plan.push(result.elapsed_ms);
    await context.close();
  }
  return { cold: median(cold), reload: median(reload), plan: median(plan), cpu: median(cpu), wire, result };
}

function sizes() {
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(js|wasm)$/.test(name)) files.push(path);
    }
  };
  walk(join(WEB_ROOT, 'js'));
  files.push(join(WEB_ROOT, 'worker.js'), join(WEB_ROOT, 'wasm/geotrain.js'), join(WEB_ROOT, 'wasm/geotrain.wasm'));
  let raw = 0, gzip = 0;
  for (const f of files) {
    const bytes = readFileSync(f);
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  const wasm = statSync(join(WEB_ROOT, 'wasm/geotrain.wasm')).size;
  return { raw, gzip, wasm, files: files.length };
}

await ensureExamples();
const server = await startWebServer();
const browser = await launchBrowser();
try {
  const { elapsed: native, cpu: nativeCpu, result: native_result } = nativeFigures();
  const page = await pageFigures(browser, server.url);
  const size = sizes();
  const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
  console.log(`| figure (median of ${RUNS}) | target | measured |`);
  console.log('| --- | --- | --- |');
  console.log(`| time to interactive, cold | < 1 s | ${page.cold.toFixed(0)} ms |`);
  console.log(`| time to interactive, reload | < 1 s | ${page.reload.toFixed(0)} ms |`);
  console.log(`| ${exampleName}, memetic, in the page's worker | <= 2x native | ${page.plan.toFixed(0)} ms (${(page.plan / native).toFixed(2)}x) |`);
  console.log(`| ${exampleName}, memetic, native CLI | | ${native.toFixed(0)} ms |`);
  if (page.cpu !== null && nativeCpu !== null) {
    console.log(`| ${exampleName}, memetic, processor time of the page's worker thread | <= 2x native | ${page.cpu.toFixed(0)} ms (${(page.cpu / nativeCpu).toFixed(2)}x) |`);
    console.log(`| ${exampleName}, memetic, processor time of the native CLI process | | ${nativeCpu.toFixed(0)} ms |`);
  }
  console.log(`| JavaScript + wasm the page loads (${size.files} files) | < 1 MB | ${kb(size.raw)} (${kb(size.gzip)} gzipped; wasm ${kb(size.wasm)}) |`);
  console.log(`| the same over the wire from web/serve.mjs (gzip), first load | < 1 MB | ${kb(page.wire)} |`);
  const same = page.result.iteration_ms === native_result.iteration_ms && page.result.evaluations === native_result.evaluations;
  console.log(`\nsame plan in the page and natively: ${same} (T_iter ${page.result.iteration_ms} ms, ${page.result.evaluations} evaluations)`);
} finally {
  await browser.close();
  await server.close();
}
