// Shared pieces of the browser tests: Debian's Chromium through playwright-core, the project's own
// static server on a free port, console-error collection and screenshots under build/artifacts/.
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';
import { startServer } from '../../web/serve.mjs';
import { copyExamples } from '../../web/tools/copy-examples.mjs';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const WEB_ROOT = join(REPO_ROOT, 'web');
export const ARTIFACTS = join(REPO_ROOT, 'build', 'artifacts');

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export function launchBrowser() {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

// Serves web/ on 127.0.0.1 at a free port; returns {url, close()}.
export function startWebServer() {
  return startServer({ port: 0, host: '127.0.0.1', root: WEB_ROOT });
}

// The page lists examples from web/examples/ (a build product): make sure it is there.
export function ensureExamples() {
  return copyExamples(join(REPO_ROOT, 'examples'), join(WEB_ROOT, 'examples'));
}

// Records console errors and uncaught page errors (including the page's workers).
export function watchConsole(page) {
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('worker', (worker) => {
    worker.on('console', (message) => {
      if (message.type() === 'error') errors.push(`worker console: ${message.text()}`);
    });
  });
  return errors;
}

// A fresh browser context (own storage) with one page whose errors are collected.
export async function openPage(browser, { contextOptions = {} } = {}) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, acceptDownloads: true, ...contextOptions });
  const page = await context.newPage();
  const errors = watchConsole(page);
  return { context, page, errors };
}

// The page sets <html data-state="ready"> once the editor, the worker and the first check are done.
export async function waitReady(page, timeout = 20000) {
  await page.waitForSelector('html[data-state="ready"]', { timeout });
}

// Registers hooks that start the static server and Chromium for one test file
// and stop them after it; freshPage() opens the planner in a new context (own
// storage) and waits until it is ready.
export function useBrowser({ requireStudies = false } = {}) {
  let server;
  let browser;
  before(async () => {
    await ensureExamples();
    if (requireStudies) {
      const module = await loadModuleInNode();
      assert.equal(typeof module.studyJobs, 'function', 'web/wasm/geotrain.js has no studyJobs(): rebuild the wasm module');
    }
    server = await startWebServer();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  return {
    async freshPage(hash = '') {
      const opened = await openPage(browser);
      await opened.page.goto(server.url + hash);
      await waitReady(opened.page);
      return opened;
    },
  };
}

export async function screenshot(page, name) {
  await mkdir(ARTIFACTS, { recursive: true });
  const file = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

// The same WebAssembly module the page uses, loaded in Node (a classic script: run it in this
// context and take its global factory), for figures to compare the page against.
let nodeModule = null;
export function loadModuleInNode() {
  if (!nodeModule) {
    nodeModule = (async () => {
          const vm = await import('node:vm');
      const script = await readFile(join(WEB_ROOT, 'wasm', 'geotrain.js'), 'utf8');
      const sandbox = { console, performance, TextDecoder, TextEncoder, WebAssembly, setTimeout, clearTimeout, URL };
      sandbox.globalThis = sandbox;
      vm.createContext(sandbox);
      vm.runInContext(script, sandbox, { filename: 'geotrain.js' });
      const wasmBinary = await readFile(join(WEB_ROOT, 'wasm', 'geotrain.wasm'));
      return sandbox.createGeoTrain({ wasmBinary });
    })();
  }
  return nodeModule;
}

// Calls a module function with JSON values in and out.
export async function callModule(name, ...args) {
  const module = await loadModuleInNode();
  return JSON.parse(module[name](...args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a)))));
}

// Page helpers for the planner page.
// The problem as the page's JSON box holds it.
export const problemIn = async (page) => JSON.parse(await page.inputValue('#problem-json'));

export async function openExample(page, name) {
  await page.getByRole('button', { name: `Open example ${name}` }).click();
  await page.waitForFunction((n) => JSON.parse(document.getElementById('problem-json').value).name === n, name);
}

// Types into the field bound to `path`, on editor tab `tab`.
export async function setField(page, tab, path, text) {
  await page.click(`#tab-${tab}`);
  await page.fill(`[data-path="${path}"]`, text);
}

export async function waitStatus(page, prefix, timeout = 30000) {
  await page.waitForFunction((p) => document.getElementById('run-status').textContent.startsWith(p), prefix, { timeout });
}

// Clicks `selector` and reads the JSON file the page downloads.
export async function download(page, selector) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return { name: file.suggestedFilename(), value: JSON.parse(await readFile(await file.path(), 'utf8')) };
}

export const isFocused = (locator) => locator.evaluate((el) => el === document.activeElement);
export const validNow = (page) => page.waitForFunction(() => /^The problem is valid/.test(document.querySelector('#validation-summary .summary-headline')?.textContent ?? ''));

// Replaces a field's text by typing, key by key, and checks that focus and text survived every key.
export async function typeInto(locator, text, delay = 15) {
  await locator.click();
  await locator.press('ControlOrMeta+a');
  await locator.press('Backspace');
  await locator.pressSequentially(text, { delay });
  assert.ok(await isFocused(locator), `the field keeps the focus after typing ${JSON.stringify(text)}`);
  assert.equal(await locator.inputValue(), text, 'every key arrived');
}


// Every visible text in `selector` drawn under 9 px: SVG text scaled by its drawing, and HTML text
// (td, th, figcaption, span, plus `more` tags) as laid out. [] when everything is readable.
export const smallTexts = (page, selector, more = []) => page.evaluate(([sel, extra]) => {
  const out = [];
  for (const t of document.querySelectorAll(`${sel} svg text`)) {
    if (!t.getClientRects().length || !t.textContent.trim()) continue;
    const m = t.getScreenCTM();
    const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
    if (px < 9) out.push({ px, text: t.textContent.slice(0, 24) });
  }
  const tags = ['td', 'th', 'figcaption', 'span', ...extra].map((tag) => `${sel} ${tag}`).join(', ');
  for (const e of document.querySelectorAll(tags)) {
    if (!e.getClientRects().length || !e.textContent.trim() || e.closest('svg')) continue;
    const px = parseFloat(getComputedStyle(e).fontSize);
    if (px < 9) out.push({ px, text: e.textContent.slice(0, 24) });
  }
  return out;
}, [selector, more]);
