// The Launch view (issue 12): a planned example gets its rank map and one tab per engine, the
// same bundle as the module (and so the CLI) gives; Copy puts a file's text on the clipboard,
// Download saves it under its name, the whole bundle downloads as JSON; tabs work by keyboard (arrows);
// a plan an engine cannot run shows why and the nearest plan; readable (no text under 9 px) at
// 1280 and 390 px wide.
// Run: node --test tests/browser/launch.test.mjs
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { callModule, openExample, screenshot, useBrowser, waitStatus } from './helpers.mjs';

const browser = useBrowser();
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

const smallTexts = (page, selector) => page.evaluate((sel) => {
  const out = [];
  for (const e of document.querySelectorAll(`${sel} *`)) {
    if (!e.getClientRects().length || !e.childNodes.length) continue;
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const px = parseFloat(getComputedStyle(e).fontSize);
    if (px < 9) out.push({ px, text: e.textContent.slice(0, 24) });
  }
  return out;
}, selector);

async function downloaded(page, click) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: download.suggestedFilename(), text: await readFile(await download.path(), 'utf8') };
}

for (const [name, size] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  test(`${name}: a planned example's launch bundle, with copy, download and keyboard tabs`, async () => {
    const { context, page, errors } = await browser.freshPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.setViewportSize(size);
    await openExample(page, 'three-sites');
    await page.click(size === PHONE ? '#dock-plan-button' : '#plan-button');
    await waitStatus(page, 'Done', 60000);
    await page.waitForSelector('#launch-ranks tbody tr');

    // The same bundle as the module gives for the plan the page shows.
    const problemText = await page.inputValue('#problem-json');
    const rows = await page.$$eval('#launch-ranks tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    const gpuIds = rows.map((r) => r[1]);
    const chain = await page.textContent('#result-stages');
    const planFromChain = [...chain.matchAll(/(\S+) \((\d+)\)/g)].map((m) => ({ gpu: m[1], layers: Number(m[2]) }));
    assert.deepEqual(gpuIds, planFromChain.map((s) => s.gpu), 'one row per GPU, in pipeline order');
    const bundle = await callModule('launch', problemText, { stages: planFromChain }, 'all');
    assert.equal(rows.length, bundle.world_size);
    assert.deepEqual(rows[0], ['0', bundle.rank_map[0].gpu, '1', '0', '0', bundle.rank_map[0].node, bundle.rank_map[0].site,
      bundle.rank_map[0].host, String(bundle.rank_map[0].device), '0', '0']);
    assert.match(await page.textContent('#launch-assumptions'), /No Host \(GPU table\)/);

    // Megatron first: its launch script, copied to the clipboard.
    const megatron = page.locator('.launch-file[data-file="megatron_launch.sh"]');
    assert.equal(await megatron.locator('pre').textContent(), bundle.megatron.text);
    await megatron.getByRole('button', { name: 'Copy megatron_launch.sh' }).click();
    await page.waitForFunction(() => document.querySelector('.launch-status')?.textContent === 'Copied.');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), bundle.megatron.text);
    await screenshot(page, `launch-megatron-${name}`);

    // Keyboard: focus the Megatron tab, arrow to the PyTorch tab (tabs pattern: one tab stop) and press Enter.
    await page.focus('#launch-tab-megatron');
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'launch-tab-torch');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.launch-file[data-file="geotrain_pipeline.py"]');
    assert.equal(await page.getAttribute('#launch-tab-torch', 'aria-selected'), 'true');
    const script = await downloaded(page, () => page.getByRole('button', { name: 'Download geotrain_pipeline.py' }).click());
    assert.equal(script.name, 'geotrain_pipeline.py');
    assert.equal(script.text, bundle.torch.text);
    assert.match(script.text, /PyTorch 2\.4 API/);

    // DeepSpeed: its config as JSON.
    await page.click('#launch-tab-deepspeed');
    const config = await downloaded(page, () => page.getByRole('button', { name: 'Download ds_config.json' }).click());
    assert.deepEqual(JSON.parse(config.text), bundle.deepspeed.config);
    await screenshot(page, `launch-deepspeed-${name}`);

    // The whole bundle.
    const whole = await downloaded(page, () => page.click('#launch-download-bundle'));
    assert.equal(whole.name, 'launch-bundle.json');
    assert.deepEqual(JSON.parse(whole.text), bundle);
    assert.deepEqual(await smallTexts(page, '#launch-view'), []);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a plan the engines cannot run: the reasons and the nearest plan, as text', async () => {
  const { context, page, errors } = await browser.freshPage();
  await page.setViewportSize(DESKTOP);
  const golden = JSON.parse(await readFile(new URL('../golden/launch/mixed-nodes.json', import.meta.url), 'utf8'));
  await page.evaluate(async (bundle) => {
    const { createLaunchView } = await import('./js/views/launch.js');
    const view = createLaunchView({ request: async () => bundle });
    view.element.id = 'launch-test-view';
    document.getElementById('results-area').prepend(view.element);
    await view.show({ problemText: '{}', result: { stages: bundle.plan } });
  }, golden);
  const view = page.locator('#launch-test-view');
  assert.equal(await view.locator('#launch-tab-megatron').textContent(), 'Megatron-Core (cannot)');
  assert.equal(await view.locator('.launch-cannot li').first().textContent(), golden.megatron.cannot[0]);
  assert.match(await view.locator('.launch-nearest').textContent(), /^Nearest plan it can run \(every stage keeps its layers on the first GPU of its group\): dc-n0-g0 \(8\) → /);
  await view.locator('#launch-tab-deepspeed').click();
  assert.equal(await view.locator('.launch-cannot li').first().textContent(), golden.deepspeed.cannot[0]);
  await view.scrollIntoViewIfNeeded();
  await screenshot(page, 'launch-cannot-desktop');
  assert.deepEqual(errors, []);
  await context.close();
});
