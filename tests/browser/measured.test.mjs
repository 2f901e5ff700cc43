// The Measured tab as a person uses it (issue 26), at 1280 x 800 and 390 x 844: a tool's output
// typed into the paste box under a file name, another dropped on the drop zone, a preview that
// changes nothing, Apply (with Undo); the figures then show where they came from, and typing over
// one makes it "typed". Then a run: a plan pasted with its measured time, fitted, previewed, applied.
// A file cut short is refused with its line and nothing changes.
// Run: node --test tests/browser/measured.test.mjs
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callModule, isFocused, problemIn, screenshot, useBrowser, validNow } from './helpers.mjs';

const browser = useBrowser();
const SIZES = [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]];

const CSV = 'index, name, memory.total [MiB], power.limit [W]\n0, NVIDIA A100-SXM4-80GB, 81920 MiB, 400.00 W\n1, NVIDIA A100-SXM4-80GB, 81920 MiB, 400.00 W\n';
const PING = 'PING 10.2.0.9 (10.2.0.9) 56(84) bytes of data.\n\n--- 10.2.0.9 ping statistics ---\n'
  + '10 packets transmitted, 10 received, 0% packet loss, time 9013ms\nrtt min/avg/max/mdev = 20.598/20.712/20.957/0.106 ms\n';

async function sizedPage(size) {
  const opened = await browser.freshPage();
  await opened.page.setViewportSize(size);
  await opened.page.click('#tab-measured');
  return opened;
}

// What a drop of `files` ({name, text}) on the drop zone delivers: a DataTransfer, as a browser makes it.
async function dropFiles(page, selector, files) {
  const transfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([f.text], f.name, { type: 'text/plain' }));
    return dt;
  }, files);
  await page.dispatchEvent(selector, 'dragover', { dataTransfer: transfer });
  await page.dispatchEvent(selector, 'drop', { dataTransfer: transfer });
}

for (const [name, size] of SIZES) {
  test(`${name}: paste and drop tool outputs, preview, apply; sources show and follow typing`, async () => {
    const { context, page, errors } = await sizedPage(size);
    const before = await problemIn(page);

    // Paste: a file name, then the text, key by key.
    const fileName = page.getByLabel('File name');
    await fileName.click();
    await fileName.pressSequentially('node9.smi.csv', { delay: 10 });
    const text = page.getByLabel('What the tool printed');
    await text.click();
    await text.pressSequentially(CSV, { delay: 2 });
    assert.ok(await isFocused(text));
    assert.equal(await text.inputValue(), CSV, 'every key arrived');
    await page.click('#measured-add-pasted');
    await dropFiles(page, '#measured-drop', [{ name: 'site-a-site-b.ping.txt', text: PING }]);
    const files = page.locator('.measured-files li .file-name');
    await page.waitForFunction(() => document.querySelectorAll('.measured-files li').length === 2);
    assert.deepEqual(await files.allTextContents(), ['node9.smi.csv', 'site-a-site-b.ping.txt']);
    const site = page.getByLabel('Site of the GPUs');
    await site.click();
    await site.pressSequentially('site-c', { delay: 10 });

    await page.click('#measured-preview');
    await page.waitForSelector('.measured-preview');
    const preview = await page.locator('.measured-preview').innerText();
    assert.match(preview, /changes from 2 files/);
    assert.match(preview, /node9\.smi\.csv \(nvidia-smi --query-gpu CSV\): host node9: 2 GPUs \(2 added, 0 updated\)/);
    assert.match(preview, /site-a <-> site-b: 10\.356 ms each way/);
    assert.match(preview, /GPU node9-g0 \(A100-SXM-80GB\)/);
    assert.match(preview, /latency_ms: imported: site-a-site-b\.ping\.txt line 5 \(ping average round trip 20\.712 ms, half each way\)/);
    assert.match(preview, /bandwidth_gbps: assumed: as network\.inter_site/);
    assert.deepEqual(await problemIn(page), before, 'a preview changes nothing');
    await screenshot(page, `measured-import-preview-${name}`);

    await page.click('#measured-apply');
    await page.waitForFunction(() => JSON.parse(document.getElementById('problem-json').value).gpus.length === 6);
    const problem = await problemIn(page);
    const gpu = problem.gpus[4];
    assert.equal(gpu.id, 'node9-g0');
    assert.equal(gpu.site, 'site-c');
    assert.equal(gpu.compute_util, 0.45, 'a new GPU takes the utilisation of one of its type');
    assert.equal(gpu.sources.memory_gib, 'imported: node9.smi.csv line 2 (nvidia-smi memory.total 81920 MiB)');
    const link = problem.network.site_links.find((l) => l.from === 'site-a' && l.to === 'site-b');
    assert.equal(link.latency_ms, 10.356);
    assert.equal(link.sources.bandwidth_gbps, 'assumed: as network.inter_site');
    await validNow(page);
    assert.equal(await page.locator('.measured-files li').count(), 0, 'the applied files are cleared');

    // The figure shows where it came from, and typing over it makes it the user's own.
    await page.click('#tab-gpus');
    const memory = page.getByLabel('Memory GiB of GPU 5', { exact: true });
    assert.equal(await memory.getAttribute('data-source-kind'), 'imported');
    await memory.click();
    const note = page.locator('#figure-source-note');
    await note.waitFor({ state: 'visible' });
    assert.match(await note.innerText(), /Memory GiB of GPU 5: imported: node9\.smi\.csv line 2/);
    await screenshot(page, `measured-sources-${name}`);
    await memory.press('End');
    await memory.press('Backspace');
    await memory.pressSequentially('5', { delay: 20 });
    assert.ok(await isFocused(memory), 'the field keeps the focus');
    assert.equal(await memory.inputValue(), '85');
    const typed = await problemIn(page);
    assert.equal(typed.gpus[4].memory_gib, 85);
    assert.equal(typed.gpus[4].sources.memory_gib, 'typed');
    assert.equal(typed.gpus[4].sources.active_w, 'imported: node9.smi.csv line 2 (nvidia-smi power.limit 400 W)');

    // A share link keeps every source.
    await page.click('#share-button');
    await page.waitForFunction(() => document.getElementById('share-link').value.includes('#p=1.'));
    const shared = await page.inputValue('#share-link');
    const other = await browser.freshPage(shared.slice(shared.indexOf('#')));
    assert.deepEqual(await problemIn(other.page), typed);
    await other.context.close();
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`${name}: a pasted plan and its measured time fit compute_util, previewed then applied`, async () => {
    const { context, page, errors } = await sizedPage(size);
    const problem = await problemIn(page);
    const plan = { stages: [{ gpu: 'a100-0', layers: 12 }] };
    const modelled = (await callModule('evaluate', problem, plan)).iteration_ms;  // at compute_util 0.45
    const measured = Number((2 * modelled).toFixed(3));
    await page.locator('#calibrate-plan').selectOption('text');
    const planText = page.getByLabel('Plan file (a geotrain solve output or a plan)');
    await planText.click();
    await planText.pressSequentially(JSON.stringify(plan), { delay: 2 });
    const ms = page.getByLabel('Measured iteration time (ms)');
    await ms.click();
    await ms.pressSequentially(String(measured), { delay: 10 });
    await page.click('#calibrate-add-run');
    await page.click('#calibrate-fit');
    await page.waitForSelector('#calibrate-apply');
    const preview = await page.locator('.measured-preview').innerText();
    assert.match(preview, /A100-SXM-80GB \(2 GPUs\): compute_util 0\.45 → 0\.225/);
    assert.match(preview, /the model is within 0\.00% of them/);
    assert.match(preview, /now [\d.]+ s \(0\.00%\)/);
    assert.equal((await problemIn(page)).gpus[0].compute_util, 0.45, 'a preview changes nothing');
    await screenshot(page, `measured-calibrate-preview-${name}`);
    await page.click('#calibrate-apply');
    await page.waitForFunction(() => JSON.parse(document.getElementById('problem-json').value).gpus[0].compute_util !== 0.45);
    const fitted = await problemIn(page);
    // One stage, so the time is compute alone: T = c / u, and u = 0.45 x modelled / measured.
    const expected = 0.45 * modelled / measured;
    for (const g of fitted.gpus.slice(0, 2)) {
      assert.ok(Math.abs(g.compute_util - expected) < 1e-12, `${g.compute_util} vs ${expected}`);
      assert.match(g.sources.compute_util, /^calibrated: 1 run \(pasted plan \(run 1\) [\d.]+ ms\), rms error 0%$/);
    }
    assert.equal(fitted.gpus[2].compute_util, 0.45, 'the A40s ran in no plan');
    await validNow(page);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a file cut short is refused with its line, and nothing changes', async () => {
  const { context, page, errors } = await sizedPage(SIZES[0][1]);
  const before = await problemIn(page);
  await page.setInputFiles('#panel-measured input[type="file"][multiple]', [
    { name: 'node9.smi.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV.slice(0, -20)) },
  ]);
  await page.waitForFunction(() => document.querySelectorAll('.measured-files li').length === 1);
  await page.click('#measured-preview');
  const box = page.locator('.measured-error');
  await box.waitFor();
  assert.match(await box.innerText(), /Nothing was changed:\s+node9\.smi\.csv line 3: 3 fields where the header has 4 \(a line cut short\?\)/);
  assert.deepEqual(await problemIn(page), before);
  await screenshot(page, 'measured-refused');
  assert.deepEqual(errors, []);
  await context.close();
});
