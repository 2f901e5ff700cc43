// Browser tests of the plan views (web/js/views/*.js) on the fixture page web/views-fixture.html, in
// real headless Chromium. Fixtures are real planner outputs (web/fixtures/*.json). Every test fails
// on any console error or page error; screenshots go to build/artifacts/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../web/serve.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ARTIFACTS = `${ROOT}build/artifacts/`;
const CASES = ['three-sites', 'straggler-4gpu', 'paper-testbed-6gpu', 'world-wide', 'untrusted', 'infeasible',
               'evaluate-report', 'single-gpu', 'large-512'];

let server;
let browser;
let page;
const problems = [];  // console errors and page errors of the current test

async function fixture(name) {
  return JSON.parse(await readFile(`${ROOT}web/fixtures/${name}.json`, 'utf8'));
}

function metricsOf(result) {
  return result.stage_metrics ?? result.stages;
}

async function open(name) {
  await page.goto(`${server.url}views-fixture.html?case=${name}`);
  await page.waitForFunction((n) => document.body.dataset.ready === n, name, { timeout: 15000 });
}

function assertNoProblems() {
  assert.deepEqual(problems.splice(0), [], 'console errors or page errors');
}

before(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  server = await startServer({ port: 0 });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage({ viewport: { width: 960, height: 1000 } });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page: ${error.message}`));
});

after(async () => {
  await browser?.close();
  await server?.close();
});

for (const name of CASES) {
  test(`${name}: every view draws the plan's stages, bottleneck and totals`, async () => {
    const data = await fixture(name);
    const stages = metricsOf(data.chosen);
    const q = stages.length;
    await open(name);
    const seen = await page.evaluate(() => {
      const count = (selector) => document.querySelectorAll(selector).length;
      const svg = document.querySelector('#timeline svg');
      return {
        barStages: count('#pipeline-bar .gt-pb-stage'),
        barBottleneck: [...document.querySelectorAll('#pipeline-bar .gt-pb-stage.is-bottleneck')]
          .map((g) => Number(g.dataset.stage)),
        tableRows: count('#stage-table tbody tr'),
        tableBottleneck: [...document.querySelectorAll('#stage-table tbody tr.is-bottleneck')]
          .map((tr) => Number(tr.dataset.stage)),
        tableInfeasible: count('#stage-table tbody tr.is-infeasible'),
        timelineTotal: Number(svg.dataset.totalMs),
        timelineAnalytic: Number(svg.dataset.analyticMs),
        timelineDrawn: Number(svg.dataset.drawnMicroBatches),
        timelineBlocks: count('#timeline .gt-tl-block'),
        timelineRowsB: [...document.querySelectorAll('#timeline .gt-tl-bubble.is-bottleneck')]
          .map((r) => Number(r.dataset.stage)),
        phases: [...document.querySelectorAll('#timeline .gt-tl-phase')].map((g) => g.dataset.phase),
        nodes: count('#topology .gt-topo-node'),
        usedNodes: count('#topology .gt-topo-node.is-used'),
        edges: count('#topology .gt-topo-edge'),
        comparisonRows: count('#comparison tbody tr'),
        errorRows: count('#comparison tbody tr.is-error'),
        convergence: count('#convergence .gt-conv-line'),
        svgsWithoutName: [...document.querySelectorAll('figure svg')]
          .filter((s) => s.getAttribute('role') !== 'img' || !s.getAttribute('aria-label') ||
                         s.firstElementChild?.tagName !== 'title').length,
      };
    });
    const bottleneck = data.chosen.bottleneck_stage;
    assert.equal(seen.barStages, q);
    assert.deepEqual(seen.barBottleneck, [bottleneck]);
    assert.equal(seen.tableRows, q);
    assert.deepEqual(seen.tableBottleneck, [bottleneck]);
    assert.equal(seen.tableInfeasible, stages.filter((s) => s.fits === false).length);
    // The timeline draws the simulated schedule next to the cost model's iteration time.
    assert.ok(Math.abs(seen.timelineAnalytic - data.chosen.iteration_ms) <= 1e-6 * data.chosen.iteration_ms,
              `timeline's formula ${seen.timelineAnalytic} against iteration_ms ${data.chosen.iteration_ms}`);
    assert.ok(seen.timelineTotal > 0 && Number.isFinite(seen.timelineTotal), `simulated ${seen.timelineTotal}`);
    // At most 64 micro-batches and about 4000 forwards and backwards are drawn: all of them, or the
    // first and last halves.
    const cap = Math.min(64, Math.max(4, Math.floor(4000 / (2 * q))));
    const m = data.chosen.micro_batches;
    assert.equal(seen.timelineDrawn, m <= cap ? m : 2 * Math.floor(cap / 2));
    assert.equal(seen.timelineBlocks, 2 * seen.timelineDrawn * q);
    assert.deepEqual(seen.timelineRowsB, [bottleneck]);
    assert.ok(seen.phases.includes('steady state') || q === 1 || data.chosen.micro_batches === 1, seen.phases.join());
    assert.equal(seen.nodes, data.problem.gpus.length);
    assert.equal(seen.usedNodes, q);
    assert.equal(seen.edges, q - 1);
    // The chosen plan, when it is one of the baselines (same method and stages), is listed once.
    const stagesKey = (r) => JSON.stringify((r.stages || []).map((s) => [s.gpu, s.layers]));
    const others = data.baselines.filter((b) => !(b.method === data.chosen.method && stagesKey(b) === stagesKey(data.chosen)));
    assert.equal(seen.comparisonRows, 1 + others.length);
    assert.equal(seen.errorRows, data.baselines.filter((b) => 'error' in b).length);
    assert.equal(seen.convergence, 1);
    assert.equal(seen.svgsWithoutName, 0, 'every view SVG has role="img", an aria-label and a <title>');
    await page.screenshot({ path: `${ARTIFACTS}views-${name}.png`, fullPage: true });
    assertNoProblems();
  });
}

test('three-sites: labels, hand-checked totals and gains', async () => {
  await open('three-sites');
  const seen = await page.evaluate(() => ({
    blocks: [...document.querySelectorAll('#pipeline-bar .gt-pb-stage')].map((g) => g.querySelector('text').textContent),
    caption: document.querySelector('#pipeline-bar figcaption').textContent,
    total: Number(document.querySelector('#timeline svg').dataset.analyticMs),
    gains: [...document.querySelectorAll('#comparison tbody tr')].map((tr) => tr.querySelector('.gt-cmp-gain')?.textContent),
    edgeTips: [...document.querySelectorAll('#topology .gt-topo-edge > title')].map((t) => t.textContent),
    linkItems: document.querySelectorAll('#topology .gt-topo-links li').length,
  }));
  // Stage blocks show GPU id, type, site and layers (plan g3:4, g4:2, g6:1, g5:5).
  assert.deepEqual(seen.blocks, ['g3A30B4 layers', 'g4A30B2 layers', 'g6V100-32GBC1 layer', 'g5A100-SXM-80GBC5 layers']);
  assert.match(seen.caption, /Iteration 1\.34 s/);
  assert.match(seen.caption, /bottleneck: stage 1 \(g3, 125 ms per micro-batch\)/);
  // Stage times 125.4154 + 118.1813 + 97.7904 + 117.1908 = 458.5779 ms; M = 64 / 8 = 8;
  // T = 458.5779 + 7 * 125.4154 = 1336.4859 ms.
  assert.ok(Math.abs(seen.total - 1336.4859124633504) < 1e-9);
  // Chosen 1336.49 ms / 793.30 J against uniform 2811.80 ms / 2174.77 J: -52.47% and -63.52%;
  // metis 2963.53 ms / 2060.70 J: -54.90%, -61.50%; metis-improved 1550.07 ms / 699.51 J: -13.78%, +13.41%.
  assert.deepEqual(seen.gains, [undefined, '-52.5% time-63.5% energy', '-54.9% time-61.5% energy',
                                '-13.8% time+13.4% energy']);
  // The one cross-site hop g4 (site B) -> g6 (site C) uses the B->C site link: 12 Gbps, 8 ms.
  assert.equal(seen.edgeTips.length, 3);
  assert.match(seen.edgeTips[1], /g4 → g6: 12 Gbps, 8 ms latency \(site link\)/);
  assert.match(seen.edgeTips[1], /back g6 → g4: 12 Gbps, 8 ms latency \(site link\)/);
  assert.equal(seen.linkItems, 3);
  for (const view of ['pipeline-bar', 'stage-table', 'timeline', 'topology', 'comparison', 'convergence']) {
    await page.locator(`#${view}`).screenshot({ path: `${ARTIFACTS}views-three-sites-${view}.png` });
  }
  assertNoProblems();
});

test('the timeline draws the module\'s schedule: 1F1B precedences in both send modes', async () => {
  await open('three-sites');
  const seen = {};
  for (const sends of ['blocking', 'overlapped']) {
    seen[sends] = await page.evaluate(async (mode) => {
      const data = await (await fetch('fixtures/three-sites.json')).json();
      const simulation = await window.viewsFixture.simulate(data.problem, data.chosen, { sends: mode, events: true });
      const box = document.createElement('div');
      document.body.appendChild(box);
      window.viewsFixture.views.renderTimeline(box, data.problem, data.chosen, { simulation });
      const list = [...box.querySelectorAll('[data-kind]')].map((g) => ({
        kind: g.dataset.kind, q: Number(g.dataset.stage), i: Number(g.dataset.microBatch),
        start: Number(g.dataset.startMs), end: Number(g.dataset.endMs),
      }));
      const svg = box.querySelector('svg');
      const out = { list, total: Number(svg.dataset.totalMs), pipeline: Number(svg.dataset.pipelineMs), iteration: simulation.iteration_ms };
      box.remove();
      return out;
    }, sends);
    const { list, total, pipeline, iteration } = seen[sends];
    const at = new Map(list.map((b) => [`${b.kind},${b.i},${b.q}`, b]));
    // 8 micro-batches on 4 stages: 64 forwards and backwards, 48 transfers.
    assert.equal(list.filter((b) => b.kind === 'F' || b.kind === 'B').length, 2 * 8 * 4);
    assert.equal(list.filter((b) => b.kind.startsWith('send')).length, 2 * 8 * 3);
    for (const b of list) {
      if (b.kind === 'F' && b.q > 0) assert.ok(b.start >= at.get(`send_f,${b.i},${b.q - 1}`).end - 1e-9, `${sends}: F(${b.q},${b.i})`);
      if (b.kind === 'B') assert.ok(b.start >= at.get(`F,${b.i},${b.q}`).end - 1e-9, `${sends}: B(${b.q},${b.i})`);
      if (b.kind === 'B' && b.q < 3) assert.ok(b.start >= at.get(`send_b,${b.i},${b.q + 1}`).end - 1e-9, `${sends}: B(${b.q},${b.i})`);
    }
    assert.equal(total, iteration);
    assert.equal(at.get('B,7,0').end, pipeline, 'the last backward of the first stage ends the pipeline');
  }
  assert.ok(seen.overlapped.total <= seen.blocking.total);
  assertNoProblems();
});

test('large-512: capped drawing with an axis break stays exact', async () => {
  await open('large-512');
  const seen = await page.evaluate(() => ({
    drawn: Number(document.querySelector('#timeline svg').dataset.drawnMicroBatches),
    blocks: document.querySelectorAll('#timeline .gt-tl-block').length,
    merged: document.querySelectorAll('#timeline .gt-tl-merged-band').length,
    breaks: document.querySelectorAll('#timeline .gt-tl-break').length,
    note: document.querySelector('#timeline .gt-note')?.textContent ?? '',
    elements: document.querySelectorAll('#timeline *').length,
  }));
  // 96 stages: at most 4000 / (2 * 96) = 20 micro-batches, so the first 10 and the last 10 of 2048.
  assert.equal(seen.drawn, 20);
  assert.equal(seen.blocks, 2 * 20 * 96);
  assert.equal(seen.merged, 96);
  assert.equal(seen.breaks, 1);
  assert.match(seen.note, /micro-batches 1–10 and 2039–2048 of 2,048 \(20 drawn\)/);
  assert.ok(seen.elements < 12000, `${seen.elements} elements`);
  for (const view of ['timeline', 'topology']) {
    await page.locator(`#${view}`).screenshot({ path: `${ARTIFACTS}views-large-512-${view}.png` });
  }
  assertNoProblems();
});

test('untrusted names render as text and inject nothing', async () => {
  for (const name of ['untrusted', 'infeasible']) {
    await open(name);
    const seen = await page.evaluate(() => {
      const views = document.querySelector('main');
      return {
        pwned: window.__pwned,
        injected: views.querySelectorAll('#injected, .injected, img, script, b, i, co, iframe').length,
        handlers: [...views.querySelectorAll('*')].filter((n) =>
          [...n.attributes].some((a) => a.name.startsWith('on'))).length,
        foreignSvgs: views.querySelectorAll('svg svg').length,
        barText: document.querySelector('#pipeline-bar .gt-pb-stage title').textContent,
        tableIds: [...document.querySelectorAll('#stage-table .gt-st-id')].map((s) => s.textContent),
        siteLabels: [...document.querySelectorAll('#topology .gt-topo-site > title')].map((t) => t.textContent),
        scripts: document.querySelectorAll('script').length,
      };
    });
    assert.equal(seen.pwned, undefined);
    assert.equal(seen.injected, 0);
    assert.equal(seen.handlers, 0);
    assert.equal(seen.foreignSvgs, 0);
    assert.equal(seen.scripts, 1, 'only the fixture page\'s own module script');
    assert.match(seen.barText, /^Stage 1: <script>window\.__pwned = 2<\/script>/);
    assert.equal(seen.tableIds[1], '<b id="injected">bold</b>');
    assert.match(seen.siteLabels[0], /^Site <img src=x onerror="window\.__pwned=3">/);
  }
  await page.screenshot({ path: `${ARTIFACTS}views-untrusted-text.png`, fullPage: true });
  assertNoProblems();
});

test('infeasible plans and error baselines are shown as such', async () => {
  await open('untrusted');
  const untrusted = await page.evaluate(() => ({
    uniform: document.querySelector('#comparison tr[data-method="uniform"]').className,
    uniformBadge: document.querySelector('#comparison tr[data-method="uniform"] .gt-badge')?.textContent,
    error: document.querySelector('#comparison tr.is-error').textContent,
  }));
  assert.match(untrusted.uniform, /is-infeasible/);
  assert.equal(untrusted.uniformBadge, 'infeasible');
  assert.match(untrusted.error, /baseline 4input error: options\.method: must be one of .*"no-such-method"/);
  await open('infeasible');
  const infeasible = await page.evaluate(() => ({
    overflow: [...document.querySelectorAll('#pipeline-bar .gt-pb-stage.is-infeasible')].map((g) => g.dataset.stage),
    badge: document.querySelector('#stage-table tr.is-infeasible .gt-badge')?.textContent,
    caption: document.querySelector('#pipeline-bar figcaption').textContent,
  }));
  // The uniform plan puts 3 layers on the 2 GiB GPU (stage 3, index 2): 3.47 GiB needed.
  assert.deepEqual(infeasible.overflow, ['2']);
  assert.equal(infeasible.badge, 'does not fit');
  assert.match(infeasible.caption, /infeasible: 1 stage over memory/);
  assertNoProblems();
});

test('views show an error result or missing plan as a note, and redraw in place', async () => {
  await open('three-sites');
  const seen = await page.evaluate(async () => {
    const { views } = window.viewsFixture;
    const data = await (await fetch('fixtures/three-sites.json')).json();
    const bad = { error: { kind: 'planning', messages: ['no plan fits: <b>memory</b>'] } };
    const box = document.createElement('div');
    document.body.appendChild(box);
    const notes = [];
    for (const render of [views.renderPipelineBar, views.renderStageTable, views.renderTimeline]) {
      render(box, data.problem, bad);
      notes.push(box.textContent);
    }
    views.renderComparison(box, data.problem, { chosen: bad, baselines: [] });
    notes.push(box.textContent);
    views.renderTopology(box, data.problem, bad);
    const topologyNodes = box.querySelectorAll('.gt-topo-node.is-unused').length;
    const bold = box.querySelectorAll('b').length;
    views.renderConvergence(box, []);
    notes.push(box.textContent);
    views.renderPipelineBar(box, data.problem, data.chosen);
    views.renderPipelineBar(box, data.problem, data.chosen);
    const figures = box.querySelectorAll('figure').length;
    box.remove();
    return { notes, topologyNodes, bold, figures };
  });
  for (const note of seen.notes.slice(0, 4)) assert.match(note, /planning error: no plan fits: <b>memory<\/b>/);
  assert.match(seen.notes[4], /Waiting for the first generation/);
  assert.equal(seen.topologyNodes, 7);
  assert.equal(seen.bold, 0);
  assert.equal(seen.figures, 1);
  assertNoProblems();
});

test('convergence draws best-so-far as one step path for 500 points', async () => {
  await open('three-sites');
  const seen = await page.evaluate(() => {
    const points = [];
    let best = 2;
    for (let g = 1; g <= 500; g++) {
      if (g % 10 === 0) best -= 0.002;  // 50 improvements: 2 - 50 * 0.002 = 1.9 at the end
      points.push({ generation: g, evaluations: g * 200, elapsed_ms: g * 10, objective: best });
    }
    const box = document.createElement('div');
    document.body.appendChild(box);
    const started = performance.now();
    window.viewsFixture.views.renderConvergence(box, points);
    const ms = performance.now() - started;
    const path = box.querySelector('.gt-conv-line').getAttribute('d');
    const out = {
      ms,
      segments: (path.match(/V/g) || []).length,
      best: box.querySelector('.gt-conv-best').textContent,
      caption: box.querySelector('figcaption').textContent,
      elements: box.querySelectorAll('*').length,
    };
    box.remove();
    return out;
  });
  assert.equal(seen.segments, 50);  // one vertical step per improvement
  assert.equal(seen.best, '1.9');
  assert.match(seen.caption, /Best 1\.9 · generation 500 · 100,000 evaluations · 5 s/);
  assert.ok(seen.elements < 80, `${seen.elements} elements`);
  console.log(`# convergence redraw of 500 points: ${seen.ms.toFixed(2)} ms (informational)`);
  assertNoProblems();
});

test('the comparison tells two plans of replicas apart, and lists one plan once', async () => {
  const seen = await page.evaluate(() => {
    const stage = (gpu, layers) => ({ gpu, layers });
    const plan = (method, replicas, iteration_ms) => ({
      method, iteration_ms, energy_j: 10, objective: iteration_ms / 100, gpus_used: 4, feasible: true,
      replicas: replicas.map(([micro_batches, stages]) => ({ micro_batches, stages })),
    });
    // Same method, no top-level stages: two replicas of (a0, a1) and (b0, b1), against the same
    // replicas with other shares, and against the very same plan.
    const chosen = plan('uniform', [[2, [stage('a0', 2), stage('a1', 2)]], [2, [stage('b0', 2), stage('b1', 2)]]], 80);
    const otherShares = plan('uniform', [[3, [stage('a0', 2), stage('a1', 2)]], [1, [stage('b0', 2), stage('b1', 2)]]], 90);
    const rows = (baselines) => {
      const box = document.createElement('div');
      document.body.appendChild(box);
      window.viewsFixture.views.renderComparison(box, { gpus: [] }, { chosen, baselines });
      const count = box.querySelectorAll('tbody tr').length;
      box.remove();
      return count;
    };
    return { differ: rows([otherShares]), same: rows([structuredClone(chosen)]) };
  });
  assert.equal(seen.differ, 2, 'another plan of replicas of the same method is its own row');
  assert.equal(seen.same, 1, 'the chosen plan again is listed once');
  assertNoProblems();
});
