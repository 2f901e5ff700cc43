// The editor as a person types into it (issue 9, points 1 and 2): real key events only
// (pressSequentially, Tab, clicks), at desktop (1280 px) and phone (390 px) widths. Every kind of
// field keeps its focus, caret and every keystroke across the editor's own redraws; link overrides
// follow a GPU through a rename; a matrix cell with one half takes the other from the level it
// overrides; Add GPU copies the previous row; the preset dropdown shows the preset in use.
// Run: node --test tests/browser/editor-typing.test.mjs
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  openExample, problemIn, screenshot, useBrowser, isFocused, validNow, typeInto,
} from './helpers.mjs';

const browser = useBrowser();
const SIZES = [['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]];

async function sizedPage(size) {
  const opened = await browser.freshPage();
  await opened.page.setViewportSize(size);
  return opened;
}

for (const [name, size] of SIZES) {
  test(`${name}: renaming GPU after GPU with Tab and clicks keeps every key, and link overrides follow`, async () => {
    const { context, page, errors } = await sizedPage(size);
    await page.click('#tab-network');
    await page.getByRole('button', { name: 'Add link override' }).click();
    let problem = await problemIn(page);
    assert.deepEqual([problem.network.links[0].from, problem.network.links[0].to], ['a100-0', 'a100-1']);

    await page.click('#tab-gpus');
    const ids = ['alpha', 'beta', 'gamma', 'delta'];
    for (const [k, id] of ids.entries()) {
      const field = page.getByLabel(`ID of GPU ${k + 1}`, { exact: true });
      await typeInto(field, id);
      // Tab leaves the id for the row's type: the focus lands there, not on the page.
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), `Type of GPU ${k + 1}`);
    }
    problem = await problemIn(page);
    assert.deepEqual(problem.gpus.map((g) => g.id), ids, 'four renames in a row, all kept');
    assert.deepEqual([problem.network.links[0].from, problem.network.links[0].to], ['alpha', 'beta'], 'the link follows both renames');

    // Clearing an id (leaving the field empty for a moment) and typing it again keeps the link.
    const first = page.getByLabel('ID of GPU 1', { exact: true });
    await first.click();
    await first.press('ControlOrMeta+a');
    await first.press('Backspace');
    await page.keyboard.press('Tab');
    await first.click();
    await first.pressSequentially('alpha-2', { delay: 15 });
    assert.ok(await isFocused(first));
    problem = await problemIn(page);
    assert.equal(problem.gpus[0].id, 'alpha-2');
    assert.equal(problem.network.links[0].from, 'alpha-2', 'the link followed the id through the empty state');
    await validNow(page);
    await page.click('#tab-network');
    assert.equal(await page.getByLabel('From GPU of link 1').inputValue(), 'alpha-2');
    await screenshot(page, `editor-renames-${name}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('site-matrix cells keep focus while a value is typed, cleared and typed again; one half takes the other from its level', async () => {
  const { context, page, errors } = await sizedPage(SIZES[0][1]);
  await page.click('#tab-network');
  const latency = page.getByLabel('Latency from site-a to site-b (ms)');
  const bandwidth = page.getByLabel('Bandwidth from site-a to site-b (Gbps)');
  await latency.click();
  await latency.pressSequentially('2.5', { delay: 20 });
  assert.ok(await isFocused(latency), 'the cell keeps the focus after its first key makes a new entry');
  let problem = await problemIn(page);
  const inherited = problem.network.inter_site?.bandwidth_gbps ?? problem.network.default?.bandwidth_gbps;
  assert.deepEqual(problem.network.site_links, [{ from: 'site-a', to: 'site-b', latency_ms: 2.5, bandwidth_gbps: inherited }],
    'the bandwidth comes from the level the cell overrides');
  assert.equal(await bandwidth.inputValue(), String(inherited), 'and shows in its cell');
  await validNow(page);
  assert.equal(await page.locator('.field-error').count(), 0, 'no error for the half that was not typed');

  // Clearing the typed half removes the entry (its other half was only inherited); focus stays.
  for (let k = 0; k < 3; ++k) await latency.press('Backspace');
  assert.ok(await isFocused(latency), 'clearing the last value keeps the focus');
  problem = await problemIn(page);
  assert.equal(problem.network.site_links, undefined);
  await latency.pressSequentially('40', { delay: 20 });
  problem = await problemIn(page);
  assert.equal(problem.network.site_links[0].latency_ms, 40);

  // The other direction, bandwidth first.
  const back = page.getByLabel('Bandwidth from site-b to site-a (Gbps)');
  await back.click();
  await back.pressSequentially('7.25', { delay: 20 });
  assert.ok(await isFocused(back));
  problem = await problemIn(page);
  const inheritedLatency = problem.network.inter_site?.latency_ms ?? problem.network.default?.latency_ms;
  assert.deepEqual(problem.network.site_links[1], { from: 'site-b', to: 'site-a', bandwidth_gbps: 7.25, latency_ms: inheritedLatency });
  await validNow(page);
  assert.deepEqual(errors, []);
  await context.close();
});

test('every kind of field keeps focus and every key: model, GPU table, network, links, objective, search, about, JSON', async () => {
  const { context, page, errors } = await sizedPage(SIZES[0][1]);
  const cases = [
    ['model', 'Hidden size H', 'model.hidden_size', '2048', 2048],
    ['model', 'Layers L', 'model.num_layers', '24', 24],
    ['gpus', 'Site of GPU 2', 'gpus[1].site', 'far-away', 'far-away'],
    ['gpus', 'Compute util of GPU 3', 'gpus[2].compute_util', '0.375', 0.375],
    ['gpus', 'Memory GiB of GPU 1', 'gpus[0].memory_gib', '79.5', 79.5],
    ['network', 'Bandwidth', 'network.intra_site.bandwidth_gbps', '123.5', 123.5],
    ['objective', 'λ exactly', 'objective.lambda', '0.625', 0.625],
    ['objective', 'Reference time T_ref', 'objective.t_ref_ms', '1500.25', 1500.25],
    ['objective', 'Patience', 'search.patience', '77', 77],
    ['about', 'Name', 'name', 'my pool, typed', 'my pool, typed'],
    ['about', 'Description', 'description', 'Four GPUs; two sites.', 'Four GPUs; two sites.'],
  ];
  for (const [tab, label, path, text, value] of cases) {
    await page.click(`#tab-${tab}`);
    const field = page.locator(`#panel-${tab} [data-path="${path}"]`);
    // The field a person finds by its label is the one bound to the path.
    assert.ok((await field.evaluate((el) => [el.getAttribute('aria-label') ?? '', ...[...(el.labels ?? [])].map((l) => l.textContent)].join(' '))).includes(label), label);
    await typeInto(field, text);
    const problem = await problemIn(page);
    const got = path.split(/[.[\]]+/).filter(Boolean).reduce((o, k) => o?.[/^\d+$/.test(k) ? Number(k) : k], problem);
    assert.deepEqual(got, value, `${path} holds what was typed`);
  }
  // The caret stays where it was put: typing at the start of a field and in the middle of an id.
  await page.click('#tab-about');
  const nameField = page.locator('#panel-about').getByLabel('Name');
  await nameField.press('Home');
  await nameField.pressSequentially('A ', { delay: 15 });
  assert.equal(await nameField.inputValue(), 'A my pool, typed');
  await page.click('#tab-gpus');
  const id = page.getByLabel('ID of GPU 2', { exact: true });
  await id.click();
  await id.press('End');
  for (let k = 0; k < 2; ++k) await id.press('ArrowLeft');
  await id.pressSequentially('XY', { delay: 15 });
  assert.equal(await id.inputValue(), 'a100XY-1', 'keys land at the caret, not at the end');
  assert.equal((await problemIn(page)).gpus[1].id, 'a100XY-1');
  // A link override's own figures, typed in its row.
  await page.click('#tab-network');
  await page.getByRole('button', { name: 'Add link override' }).click();
  const linkLatency = page.getByLabel('Latency of link 1 (ms)');
  await typeInto(linkLatency, '3.75');
  assert.equal((await problemIn(page)).network.links[0].latency_ms, 3.75);
  // A select by keyboard: the GPU type, then Tab on to the next field.
  await page.click('#tab-gpus');
  const type = page.getByLabel('Type of GPU 4');
  await type.focus();
  await page.keyboard.press('ArrowUp');
  assert.ok(await isFocused(type), 'the type select keeps the focus after its row redraws');
  assert.equal(await type.getAttribute('title'), await type.locator('option:checked').textContent(), 'a cut-short select has its text as a tooltip');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Site of GPU 4');
  // The JSON text, typed into.
  await page.click('#tab-json');
  const json = page.locator('#problem-json');
  await json.click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('End');
  await json.pressSequentially(',\n  "note": "typed in JSON"', { delay: 5 });
  assert.ok(await isFocused(json));
  await page.waitForFunction(() => document.getElementById('problem-json-status').textContent.startsWith('JSON parsed'));
  assert.equal((await problemIn(page)).note, 'typed in JSON');
  await screenshot(page, 'editor-every-field');
  assert.deepEqual(errors, []);
  await context.close();
});

test('Add GPU starts from the previous row; the preset dropdown shows the preset in use', async () => {
  const { context, page, errors } = await sizedPage(SIZES[1][1]);
  await openExample(page, 'straggler-4gpu');
  await page.click('#tab-gpus');
  const before = await problemIn(page);
  const last = before.gpus[before.gpus.length - 1];
  await page.getByRole('button', { name: 'Add GPU' }).click();
  const after = await problemIn(page);
  const added = after.gpus[after.gpus.length - 1];
  assert.notEqual(added.id, last.id);
  assert.deepEqual({ ...added, id: last.id }, last, 'type, site, utilisations and figures come from the row above');

  await page.click('#tab-model');
  const preset = page.locator('#model-preset');
  assert.equal(await preset.locator('option:checked').textContent(), 'Custom');
  await preset.selectOption({ label: 'GPT-2 medium (355M)' });
  assert.equal(await preset.locator('option:checked').textContent(), 'GPT-2 medium (355M)', 'the chosen preset stays shown');
  // Typing a figure that leaves the preset's shape shows "Custom" again, and back.
  const layers = page.getByLabel('Layers L');
  await typeInto(layers, '25');
  assert.equal(await preset.locator('option:checked').textContent(), 'Custom');
  await typeInto(layers, '24');
  assert.equal(await preset.locator('option:checked').textContent(), 'GPT-2 medium (355M)');
  await screenshot(page, 'editor-add-gpu-phone');
  assert.deepEqual(errors, []);
  await context.close();
});
