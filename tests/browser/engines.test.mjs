// Planning for an engine on the page (issue 22): the Engine setting in the editor's Search
// section, chosen with the keyboard; the Launch view says which engine the plan was made for and
// what the unconstrained plan would gain; on the 64-A100 example every target ends with a plan it
// can launch (FlashFlex runs the unconstrained plan; the others through their Plan button).
// Screenshots at 1280x800 and 390x844 under build/artifacts/.
// Run: node --test tests/browser/engines.test.mjs
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ARTIFACTS, openExample, problemIn, useBrowser, waitStatus } from './helpers.mjs';

const browser = useBrowser();
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const LABELS = { megatron: 'Megatron-Core', torch: 'PyTorch pipelining', deepspeed: 'DeepSpeed', flashflex: 'FlashFlex' };

// What a person sees at this window size: the viewport, scrolled to `selector`'s top.
async function screenshot(page, name, selector) {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.evaluate((sel) => document.querySelector(sel)?.scrollIntoView({ block: 'start' }), selector);
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
}

const smallTexts = (page) => page.evaluate(() => {
  const out = [];
  for (const e of document.querySelectorAll('#launch-view *, #panel-objective *')) {
    if (!e.getClientRects().length) continue;
    if (![...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    const px = parseFloat(getComputedStyle(e).fontSize);
    if (px < 9) out.push({ px, text: e.textContent.slice(0, 24) });
  }
  return out;
});

async function planned(page, plan) {
  const before = await page.textContent('#launch-engine').catch(() => '');
  await plan();
  await waitStatus(page, 'Done', 180000);
  await page.waitForFunction((old) => {
    const text = document.getElementById('launch-engine')?.textContent ?? '';
    return text && text !== old && document.querySelector('#launch-ranks tbody tr');
  }, before, { timeout: 60000 });
}

test('desktop: the 64-A100 example gets a launchable plan for every target', async () => {
  const { context, page, errors } = await browser.freshPage();
  await page.setViewportSize(DESKTOP);
  await openExample(page, 'llama70b-64xa100');

  // Any engine: the hybrid plan, which FlashFlex runs and the others cannot.
  await planned(page, () => page.click('#plan-button'));
  assert.match(await page.textContent('#launch-engine'), /^Planned for any engine\./);
  await page.click('#launch-tab-flashflex');
  const flashflex = page.locator('.launch-file[data-file="flashflex_launch.sh"] pre');
  // The CLI's plan (solve examples/llama70b-64xa100.json): tensor degrees 8 and 2 in one pipeline.
  const configs = /--hetero_configs '\[\[([\d, ]+)\]\]'/.exec(await flashflex.textContent());
  assert.ok(configs, 'one FlashFlex pipeline');
  assert.deepEqual([...new Set(configs[1].split(', ').map(Number))].sort((a, b) => a - b), [2, 8]);
  assert.match(await page.textContent('.launch-versions'), /checked against 5ee1726/);
  await page.click('#launch-tab-megatron');
  assert.equal(await page.textContent('#launch-tab-megatron'), 'Megatron-Core (cannot)');
  await screenshot(page, 'engines-any-desktop', '.launch-tabs');

  // Each refused target plans again for itself, by its button, and then runs its plan.
  // (torch runs DeepSpeed's plan, one GPU per stage, as it is: no button then.)
  for (const target of ['megatron', 'deepspeed', 'torch']) {
    await page.click(`#launch-tab-${target}`);
    const button = page.locator(`#launch-plan-for-${target}`);
    if (!(await button.count())) {
      assert.equal(await page.textContent(`#launch-tab-${target}`), LABELS[target], `${target} runs the plan shown`);
      continue;
    }
    await planned(page, () => button.click());
    assert.equal(await page.getAttribute(`#launch-tab-${target}`, 'aria-selected'), 'true', `${target}: its own tab is shown`);
    assert.equal(await page.textContent(`#launch-tab-${target}`), LABELS[target], `${target} can run the plan made for it`);
    const summary = await page.textContent('#launch-engine');
    // Either the engine's price, or (when its search found a plan as good as any engine's) none.
    assert.match(summary, new RegExp(`^Planned for ${LABELS[target]}: [\\d.]+ s per iteration\\. (The unconstrained plan \\(any engine\\) would take 1\\d\\d\\.\\d s|The best plan for any engine is no better: the engine costs nothing here\\.)`));
    assert.equal((await problemIn(page)).search.engine, { megatron: 'megatron-core', deepspeed: 'deepspeed', torch: 'torch' }[target]);
    if (target === 'megatron') {
      const seconds = Number(summary.match(/: ([\d.]+) s per iteration/)[1]);
      assert.ok(seconds < 166, `the Megatron-Core plan (${seconds} s) beats the one-node-per-stage hand plan (166 s)`);
      assert.match(await page.textContent('.launch-file[data-file="megatron_launch.sh"] pre'), /--pipeline-model-parallel-layout 'E/);
      await screenshot(page, 'engines-megatron-desktop', '#launch-engine');
    }
  }
  // The editor shows the engine the last plan was made for.
  await page.click('#tab-objective');
  assert.equal(await page.inputValue('#panel-objective [data-path="search.engine"]'), 'deepspeed');
  assert.deepEqual(await smallTexts(page), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('phone: the Engine setting chosen by keyboard, and the price in the Launch view', async () => {
  const { context, page, errors } = await browser.freshPage();
  await page.setViewportSize(PHONE);
  await openExample(page, 'mixed-nodes');
  await page.click('#tab-objective');
  const engine = page.locator('#panel-objective [data-path="search.engine"]');
  // Beside parallelism: the next control after it in the Search section.
  const order = await page.$$eval('#panel-objective [data-path^="search."]', (els) => els.map((e) => e.dataset.path));
  assert.equal(order[order.indexOf('search.parallelism') + 1], 'search.engine');
  await page.focus('#panel-objective [data-path="search.parallelism"]');
  await page.keyboard.press('Tab');
  assert.equal(await engine.evaluate((el) => el === document.activeElement), true, 'Tab reaches the Engine setting');
  await page.keyboard.type('M');  // the select's type-ahead: Megatron-Core
  await page.waitForFunction(() => JSON.parse(document.getElementById('problem-json').value).search?.engine === 'megatron-core');
  await screenshot(page, 'engines-setting-phone', '#panel-objective [data-path="search.parallelism"]');

  await planned(page, () => page.click('#dock-plan-button'));
  const summary = await page.textContent('#launch-engine');
  assert.match(summary, /^Planned for Megatron-Core: [\d.]+ s per iteration\. The unconstrained plan \(any engine\) would take [\d.]+ s with \d+ stages on \d+ GPUs: [\d.]+ % less time/);
  assert.equal(await page.getAttribute('#launch-tab-megatron', 'aria-selected'), 'true');
  assert.equal(await page.textContent('#launch-tab-megatron'), 'Megatron-Core');
  await screenshot(page, 'engines-launch-phone', '#launch-engine');
  assert.deepEqual(await smallTexts(page), []);
  assert.deepEqual(errors, []);
  await context.close();
});
