// The page as a newcomer meets it (issue 9, points 3 to 7; issue 13, the page's part): honest run
// states for exact (budget, live nodes / bound / gap, "not proven optimal", cancel keeps its best
// plan), big and hostile links refused before any heavy work and never stored, capped message
// lists, text never under 9 px at 1280 and 390 px, Plan in reach on a phone, the tour beside the
// view it points at, one format per quantity, and notices that replace each other.
// Run: node --test tests/browser/page-states.test.mjs
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { deflateRawSync } from 'node:zlib';
import { openExample, problemIn, REPO_ROOT, screenshot, useBrowser, waitReady, waitStatus } from './helpers.mjs';

const browser = useBrowser();
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const linkFor = (text) => '#p=1.' + deflateRawSync(Buffer.from(text)).toString('base64url');
const readExample = async (name) => JSON.parse(await readFile(`${REPO_ROOT}/examples/${name}.json`, 'utf8'));

// 40 distinct GPUs on four sites, 48 layers: exact cannot prove the optimum within a few seconds.
function hardProblem(timeLimitS) {
  const gpus = [];
  for (let i = 0; i < 40; i++) {
    gpus.push({ id: `g${i}`, peak_tflops: 60 + 17 * i + (i % 7) * 13, memory_gib: 16 + (i % 5) * 8, idle_w: 40 + i, active_w: 250 + 3 * i, site: `s${i % 4}` });
  }
  return {
    name: 'hard for exact',
    model: { hidden_size: 2048, num_layers: 48, seq_length: 1024, vocab_size: 50000, micro_batch_size: 2, global_batch_size: 64 },
    gpus,
    network: { intra_site: { bandwidth_gbps: 100, latency_ms: 0.2 }, inter_site: { bandwidth_gbps: 5, latency_ms: 20 } },
    objective: { lambda: 0.5 },
    search: { time_limit_s: timeLimitS },
  };
}

async function sizedPage(size, hash = '') {
  const opened = await browser.freshPage(hash);
  await opened.page.setViewportSize(size);
  return opened;
}

async function chooseMethod(page, method) {
  await page.locator('#method').selectOption(method);
}

test('exact: budget before the run, live nodes, bound and gap, and a time-limit stop says "not proven optimal"', async () => {
  const { context, page, errors } = await sizedPage(DESKTOP, linkFor(JSON.stringify(hardProblem(3))));
  assert.equal((await problemIn(page)).name, 'hard for exact');
  await chooseMethod(page, 'exact');
  await page.waitForFunction(() => document.getElementById('run-budget').textContent.includes('3 s'));
  assert.match(await page.textContent('#run-budget'), /Budget: 3 s or 2,000,000,000 nodes/);
  await page.click('#plan-button');
  await page.waitForFunction(() => /^\d{1,3}(,\d{3})*$/.test(document.getElementById('run-nodes').textContent) &&
    document.getElementById('run-nodes').textContent !== '0', null, { timeout: 10000 });
  assert.ok(await page.isVisible('#run-nodes'), 'nodes show during the run');
  await waitStatus(page, 'Stopped at the time limit', 20000);
  const status = await page.textContent('#run-status');
  assert.match(status, /exact's best plan so far, not proven optimal: its objective is (at most [\d.,]+(× the optimum| % above the optimum)|less than 0\.01 % above the optimum); the optimum is at least \d/);
  assert.ok(!(await page.getAttribute('#run-status', 'class')).includes('good'), 'not shown as a plain success');
  assert.match(await page.textContent('#run-gap'), /^(at most [\d.,]+(× the optimum| % above the optimum)|less than 0\.01 % above the optimum)$/);
  assert.match(await page.textContent('#run-bound'), /^\d/);
  assert.match(await page.textContent('#result-method'), /^exact: not proven optimal \(stopped at the time limit; its objective is (at most|less than) \d/);
  await screenshot(page, 'states-exact-time-limit');
  assert.deepEqual(errors, []);
  await context.close();
});

test('cancelling exact keeps its best plan so far', async () => {
  const { context, page, errors } = await sizedPage(DESKTOP, linkFor(JSON.stringify(hardProblem(60))));
  await chooseMethod(page, 'exact');
  await page.click('#plan-button');
  await page.waitForFunction(() => /^\d/.test(document.getElementById('run-objective').textContent) &&
    /^\d/.test(document.getElementById('run-nodes').textContent), null, { timeout: 15000 });
  await page.click('#cancel-button');
  await waitStatus(page, 'Cancelled: exact\'s best plan so far, not proven optimal', 15000);
  await page.waitForSelector('#results:not([hidden]) #result-method');
  assert.match(await page.textContent('#result-method'), /^exact: not proven optimal \(cancelled/);
  const stages = await page.textContent('#result-stages');
  assert.ok(stages.includes('→'), `a plan is shown: ${stages}`);
  // Still usable afterwards (a fresh worker took over).
  await chooseMethod(page, 'uniform');
  await page.click('#plan-button');
  await waitStatus(page, 'Done: uniform found a plan');
  assert.deepEqual(errors, []);
  await context.close();
});

test('references from an infeasible baseline are explained next to an objective above 1', async () => {
  // The fast GPU holds the LM head, the slow one cannot: METIS-style orders from the fastest, so its
  // plans (and metis-improved's) end on the slow GPU and do not fit; the optimum runs slow -> fast.
  const problem = {
    name: 'head-heavy',
    model: { hidden_size: 4096, num_layers: 8, seq_length: 2048, vocab_size: 128000, micro_batch_size: 1, global_batch_size: 8 },
    gpus: [{ id: 'fast', peak_tflops: 400, memory_gib: 16, idle_w: 50, active_w: 300, site: 'a' },
      { id: 'slow', peak_tflops: 100, memory_gib: 6, idle_w: 50, active_w: 300, site: 'a' }],
    network: { default: { bandwidth_gbps: 100, latency_ms: 0.1 } },
  };
  const { context, page, errors } = await sizedPage(DESKTOP, linkFor(JSON.stringify(problem)));
  await chooseMethod(page, 'exact');
  await page.click('#plan-button');
  await waitStatus(page, 'Done: exact proved this plan optimal');
  assert.ok(Number(await page.getAttribute('#result-objective', 'data-value')) > 1, 'the optimum scores above 1');
  const references = await page.textContent('#result-references');
  assert.match(references, /metis-improved baseline, whose plan does not fit in memory/);
  assert.match(references, /objective may be above 1/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a 4,500-GPU link is refused at once, off the main thread, and never replaces or persists the problem', async () => {
  const { context, page, errors } = await sizedPage(DESKTOP);
  await openExample(page, 'three-sites');
  const kept = await problemIn(page);
  const stored = await page.evaluate(() => localStorage.getItem('geotrain.problem.v1'));
  const big = await readExample('three-sites');
  big.gpus = Array.from({ length: 4500 }, (_, i) => ({ id: `gpu-${i}`, type: 'A100-SXM-80GB', site: `site-${i % 9}` }));
  const hash = linkFor(JSON.stringify(big));
  // The main thread's longest stall while the link is read, checked and refused.
  await page.evaluate(() => {
    window.__gaps = { last: performance.now(), max: 0 };
    window.__tick = setInterval(() => {
      const now = performance.now();
      window.__gaps.max = Math.max(window.__gaps.max, now - window.__gaps.last);
      window.__gaps.last = now;
    }, 20);
  });
  const started = Date.now();
  await page.evaluate((h) => { location.hash = h; }, hash);
  const notice = page.locator('.notice-error');
  await notice.waitFor();
  const refusedMs = Date.now() - started;
  const stallMs = await page.evaluate(() => window.__gaps.max);
  assert.match(await notice.textContent(), /4,500 GPUs; the planner takes at most 512/);
  assert.match(await notice.textContent(), /Your current problem is unchanged/);
  assert.ok(refusedMs < 5000, `refused in ${refusedMs} ms`);
  assert.ok(stallMs < 500, `the page never stalled more than 500 ms (longest: ${Math.round(stallMs)} ms)`);
  assert.deepEqual(await problemIn(page), kept);
  assert.equal(await page.evaluate(() => localStorage.getItem('geotrain.problem.v1')), stored, 'storage still holds the problem');
  // A new tab opens on the kept problem.
  const tab = await context.newPage();
  await tab.goto(page.url().split('#')[0]);
  await waitReady(tab);
  assert.equal((await problemIn(tab)).name, kept.name);
  await screenshot(page, 'states-big-link');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a deeply nested link as the first page load: refused, the module loads, nothing stored', async () => {
  const nested = `{"name": "deep", "description": ${'['.repeat(2000000)}${']'.repeat(2000000)}}`;
  const { context, page, errors } = await sizedPage(PHONE, linkFor(nested));
  const notice = page.locator('.notice-error');
  await notice.waitFor();
  assert.match(await notice.textContent(), /nests more than 64 levels/);
  assert.notEqual((await problemIn(page)).name, 'deep');
  assert.equal(await page.evaluate(() => localStorage.getItem('geotrain.problem.v1')?.includes('deep') ?? false), false);
  await page.click('#dock-plan-button');
  await waitStatus(page, 'Done', 30000);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a thousand unknown fields: the warnings list stops at 100 and says how many more', async () => {
  const problem = await readExample('straggler-4gpu');
  for (let i = 0; i < 1000; i++) problem[`extra_${i}`] = i;
  const { context, page, errors } = await sizedPage(DESKTOP, linkFor(JSON.stringify(problem)));
  await page.waitForFunction(() => /warnings/.test(document.querySelector('#validation-summary .summary-headline')?.textContent ?? ''));
  assert.equal(await page.textContent('#validation-summary .summary-headline'), 'The problem is valid (1,000 warnings).');
  const items = await page.locator('#validation-summary .summary-warnings li').allTextContents();
  assert.ok(items.length <= 101, `${items.length} listed`);
  assert.match(items[items.length - 1], /and 900 more/);
  assert.deepEqual(errors, []);
  await context.close();
});

// Rendered font size of every visible SVG text in `selector`: computed size times the drawing's scale.
const smallTexts = (page, selector) => page.evaluate((sel) => [...document.querySelectorAll(`${sel} svg text`)]
  .filter((t) => t.getClientRects().length && t.textContent.trim())
  .map((t) => {
    const m = t.getScreenCTM();
    const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
    const box = t.getBoundingClientRect();
    return { px, height: Math.min(box.height, box.width), text: t.textContent.slice(0, 24) };
  })
  .filter((t) => t.px < 9), selector);

for (const [name, size] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  test(`${name}: chart text never under 9 px, charts scroll or reflow, Plan in reach, GPU actions in view`, async () => {
    const { context, page, errors } = await sizedPage(size);
    await openExample(page, 'three-sites');
    const planButton = size === PHONE ? page.locator('#dock-plan-button') : page.locator('#plan-button');
    const box = await planButton.boundingBox();
    assert.ok(box && box.y >= 0 && box.y + box.height <= size.height, `Plan is on screen without scrolling (${JSON.stringify(box)})`);
    await planButton.click();
    await waitStatus(page, 'Done', 30000);
    await page.waitForSelector('#view-comparison table');
    assert.deepEqual(await smallTexts(page, '#results'), [], 'plan views');
    assert.deepEqual(await smallTexts(page, '#run-area'), [], 'run panel');
    const chart = await page.evaluate(() => {
      const svg = document.querySelector('#convergence svg');
      return { drawn: Number(svg.getAttribute('viewBox').split(' ')[2]), shown: svg.getBoundingClientRect().width, room: document.getElementById('convergence').clientWidth };
    });
    assert.ok(chart.drawn <= chart.room + 1 && chart.shown >= chart.drawn - 1, `the convergence chart is drawn for its box: ${JSON.stringify(chart)}`);
    // The GPU table: wider than its box, it scrolls; each row's actions stay in view at its edge.
    await page.click('#tab-gpus');
    const wrap = page.locator('#panel-gpus .table-wrap');
    const [scrollWidth, clientWidth] = await wrap.evaluate((w) => [w.scrollWidth, w.clientWidth]);
    if (scrollWidth > clientWidth) assert.equal(await wrap.evaluate((w) => getComputedStyle(w).overflowX), 'auto');
    const wrapBox = await wrap.boundingBox();
    const remove = await page.getByRole('button', { name: 'Remove g0' }).boundingBox();
    assert.ok(remove.x + remove.width <= wrapBox.x + wrapBox.width + 1 && remove.x >= wrapBox.x, 'Remove is inside the table\'s box');
    await screenshot(page, `states-readable-${name}`);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`${name}: the tour panel does not cover the view it points at; "bring back my problem" is offered once`, async () => {
    const { context, page, errors } = await sizedPage(size);
    for (let round = 0; round < 2; ++round) {
      await page.click('#tour-button');
      await page.waitForFunction(() => document.getElementById('tour').dataset.stepState === 'ready', null, { timeout: 30000 });
      // The smooth scroll to the view ends (slower on a busy machine) with its top in sight.
      await page.waitForFunction((desk) => {
        const tourBox = document.getElementById('tour').getBoundingClientRect();
        const box = document.querySelector('.tour-highlight')?.getBoundingClientRect();
        return box && (desk ? box.right <= tourBox.left : box.top >= 0 && box.top + 120 <= tourBox.top);
      }, size === DESKTOP, { timeout: 10000 }).catch(() => {});
      const { tour, target } = await page.evaluate(() => ({
        tour: document.getElementById('tour').getBoundingClientRect().toJSON(),
        target: document.querySelector('.tour-highlight').getBoundingClientRect().toJSON(),
      }));
      if (size === DESKTOP) {
        assert.ok(target.right <= tour.left, `the view (right ${target.right}) ends before the panel (left ${tour.left})`);
      } else {
        assert.ok(target.top >= 0 && target.top + 120 <= tour.top, `the view's top (${target.top}) shows above the panel (${tour.top})`);
      }
      await screenshot(page, `states-tour-${name}-${round}`);
      await page.click('#tour-close');
    }
    assert.equal(await page.getByRole('button', { name: 'Bring back my problem' }).count(), 1);
    await page.getByRole('button', { name: 'Bring back my problem' }).click();
    assert.equal((await problemIn(page)).name, (await page.evaluate(() => JSON.parse(localStorage.getItem('geotrain.problem.v1')).name)));
    assert.notEqual((await problemIn(page)).name, 'straggler-4gpu');
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('one format per quantity; the chosen baseline listed once; topology labels cover nothing', async () => {
  const { context, page, errors } = await sizedPage(DESKTOP);
  await openExample(page, 'three-sites');
  await page.click('#plan-button');
  await waitStatus(page, 'Done');
  assert.match(await page.textContent('#run-evaluations'), /^\d{1,3}(,\d{3})*$/, 'a count with separators');
  const search = await page.textContent('#result-search');
  assert.ok(!/e\+/.test(search), search);
  // Topology: no link label overlaps a site name, a GPU, a GPU label or another link label.
  await page.waitForSelector('#view-topology svg');
  const overlaps = await page.evaluate(() => {
    const boxes = (sel) => [...document.querySelectorAll(`#view-topology ${sel}`)].map((e) => e.getBoundingClientRect());
    const labels = boxes('.gt-topo-edge-label');
    const others = [...boxes('.gt-topo-site-label'), ...boxes('.gt-topo-site-count'), ...boxes('.gt-topo-id'), ...boxes('.gt-topo-node circle')];
    const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    return { count: labels.length, overlaps: labels.filter((l, i) => others.some((o) => hit(l, o)) || labels.some((m, j) => j !== i && hit(l, m))).length };
  });
  assert.ok(overlaps.count > 0, 'three-sites labels its cross-site links');
  assert.equal(overlaps.overlaps, 0);

  await page.locator('#method').selectOption('uniform');
  await page.click('#plan-button');
  await waitStatus(page, 'Done: uniform');
  await page.waitForSelector('#view-comparison tr[data-method="metis-improved"]', { timeout: 20000 });
  assert.equal(await page.locator('#view-comparison tr[data-method="uniform"]').count(), 1, 'uniform is listed once, as the chosen plan');
  assert.match(await page.textContent('#result-search'), /^1 evaluation ·/);
  await screenshot(page, 'states-figures');
  assert.deepEqual(errors, []);
  await context.close();
});

test('notices of one kind replace each other: three bad imports leave one message', async () => {
  const { context, page, errors } = await sizedPage(DESKTOP);
  for (let k = 0; k < 3; ++k) {
    await page.setInputFiles('#import-file', { name: `bad-${k}.json`, mimeType: 'application/json', buffer: Buffer.from('{"gpus": 3') });
    await page.locator('.notice-error', { hasText: `bad-${k}.json` }).waitFor();
  }
  assert.equal(await page.locator('.notice').count(), 1);
  assert.deepEqual(errors, []);
  await context.close();
});
