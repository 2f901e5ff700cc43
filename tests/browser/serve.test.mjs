// The page's own static server (web/serve.mjs): files under web/ only, the MIME types browsers
// insist on, and gzip for text and WebAssembly when the client accepts it, which is what makes the
// page's 1.46 MB of JavaScript and wasm travel as under 0.5 MB (and Chromium still compiles the
// module by streaming).
// Run: node --test tests/browser/serve.test.mjs
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { acceptsGzip, startServer } from '../../web/serve.mjs';
import { ensureExamples, launchBrowser, openPage, waitReady, WEB_ROOT } from './helpers.mjs';

let server;
before(async () => {
  await ensureExamples();
  server = await startServer({ port: 0, root: WEB_ROOT });
});
after(() => server?.close());

function get(path, headers = {}, method = 'GET') {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, server.url), { method, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('Accept-Encoding: gzip is taken unless refused with q=0', () => {
  for (const [header, expected] of [
    ['gzip, deflate, br', true], ['br', false], ['', false], [undefined, false], ['identity', false],
    ['gzip;q=0', false], ['gzip; q=0.0', false], ['GZIP; q=0.5', true], ['*', true], ['br, gzip;q=0.001', true],
    ['x-gzip', false],
  ]) assert.equal(acceptsGzip(header), expected, JSON.stringify(header));
});

test('the module travels gzipped to a client that accepts it, and plain to one that does not', async () => {
  const file = await readFile(join(WEB_ROOT, 'wasm/geotrain.wasm'));
  const zipped = await get('/wasm/geotrain.wasm', { 'Accept-Encoding': 'gzip, deflate, br' });
  assert.equal(zipped.status, 200);
  assert.equal(zipped.headers['content-type'], 'application/wasm');
  assert.equal(zipped.headers['content-encoding'], 'gzip');
  assert.equal(zipped.headers.vary, 'Accept-Encoding');
  assert.equal(Number(zipped.headers['content-length']), zipped.body.length);
  assert.ok(zipped.body.length < file.length / 2, `${zipped.body.length} bytes for a ${file.length}-byte module`);
  assert.ok(gunzipSync(zipped.body).equals(file), 'the same bytes after gunzip');
  const plain = await get('/wasm/geotrain.wasm');
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.ok(plain.body.equals(file));
  const refused = await get('/wasm/geotrain.wasm', { 'Accept-Encoding': 'gzip;q=0' });
  assert.equal(refused.headers['content-encoding'], undefined);
  const head = await get('/index.html', { 'Accept-Encoding': 'gzip' }, 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(head.body.length, 0);
});

test('nothing outside web/ is served', async () => {
  for (const path of ['/../package.json', '/%2e%2e/package.json', '/..%2fpackage.json', '/%E0%A4%A']) {
    const res = await get(path, { 'Accept-Encoding': 'gzip' });
    assert.ok(res.status === 403 || res.status === 404, `${path}: ${res.status}`);
    assert.ok(!res.body.toString().includes('devDependencies'), path);
  }
  assert.equal((await get('/js/', {})).status, 404, 'no directory listing');
});

test('a file the client holds is answered 304 without a body, per encoding', async () => {
  const first = await get('/wasm/geotrain.wasm', { 'Accept-Encoding': 'gzip' });
  assert.match(first.headers.etag, /^"[0-9a-f]+-[0-9a-f]+-gz"$/);
  const again = await get('/wasm/geotrain.wasm', { 'Accept-Encoding': 'gzip', 'If-None-Match': first.headers.etag });
  assert.equal(again.status, 304);
  assert.equal(again.body.length, 0);
  const plain = await get('/wasm/geotrain.wasm', { 'If-None-Match': first.headers.etag });
  assert.equal(plain.status, 200, 'the gzip copy\'s tag does not stand for the plain file');
  assert.equal(plain.headers['content-encoding'], undefined);
});

test('in Chromium the page loads under 1 MB of JavaScript and wasm over the wire and works', async (t) => {
  const browser = await launchBrowser();
  try {
    const { context, page, errors } = await openPage(browser);
    const sizes = [];
    // What travelled: each response's body as sent (compressed), 0 for a 304 revalidation.
    page.on('requestfinished', async (req) => {
      const url = new URL(req.url());
      if (!/\.(js|mjs|wasm)$/.test(url.pathname)) return;
      const response = await req.response();
      const headers = await response.allHeaders();
      sizes.push({ path: url.pathname, bytes: (await req.sizes()).responseBodySize, encoding: headers['content-encoding'] });
    });
    await page.goto(server.url);
    await waitReady(page);
    await page.waitForTimeout(1500);  // the planning worker starts after the page is ready
    const wasm = sizes.filter((s) => s.path === '/wasm/geotrain.wasm');
    assert.equal(wasm.length, 2, `both workers load the module: ${JSON.stringify(sizes.map((s) => s.path))}`);
    assert.equal(wasm[0].encoding, 'gzip');
    // 651 KB since the simulator (core/sim) and the measured-cluster parsers (core/measure) joined it.
    assert.ok(wasm[0].bytes > 100000 && wasm[0].bytes < 700000, `the module travels as ${wasm[0].bytes} bytes`);
    assert.equal(wasm[1].bytes, 0, 'the second worker\'s copy comes from the cache');
    const total = sizes.reduce((sum, s) => sum + s.bytes, 0);
    t.diagnostic(`${sizes.length} JavaScript and wasm responses, ${total} bytes over the wire (the module ${wasm[0].bytes})`);
    assert.ok(total < 1024 * 1024, `${total} bytes of JavaScript and wasm over the wire`);
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await browser.close();
  }
});
