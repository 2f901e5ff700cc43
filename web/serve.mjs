#!/usr/bin/env node
// A zero-dependency static server for the planner page: `node web/serve.mjs [--port N] [--host H]`.
// Serves files under web/ only (no directory listing, no traversal), with the MIME types a browser
// insists on for modules and WebAssembly (application/wasm enables streaming compilation), and
// gzip for text and WebAssembly when the browser accepts it, as static hosts do (the page's
// 1.46 MB of JavaScript and wasm travel as under 0.5 MB).
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { stat, readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
};

const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.wasm', '.svg', '.txt', '.md']);
const gzipCache = new Map();  // file -> {mtimeMs, size, body}: each file is compressed once

function gzipped(file, info, body) {
  const cached = gzipCache.get(file);
  if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached.body;
  const compressed = gzipSync(body, { level: 6 });
  gzipCache.set(file, { mtimeMs: info.mtimeMs, size: info.size, body: compressed });
  return compressed;
}

// Accept-Encoding lists codings with optional weights ("gzip, deflate, br;q=0.9"); q=0 refuses one.
export function acceptsGzip(header) {
  return String(header || '').split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';').map((x) => x.trim());
    if (coding !== 'gzip' && coding !== '*') return false;
    const q = params.find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

const DEFAULT_ROOT = fileURLToPath(new URL('.', import.meta.url));

// Maps a request path to a file inside root, or null when it would leave root.
export function resolveInside(root, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0].split('#')[0]);
  } catch {
    return null;  // malformed percent-encoding
  }
  if (decoded.includes('\0')) return null;
  const rootAbs = resolve(root);
  const file = resolve(rootAbs, '.' + normalize('/' + decoded));
  if (file !== rootAbs && !file.startsWith(rootAbs + sep)) return null;
  return decoded.endsWith('/') ? join(file, 'index.html') : file;
}

function send(res, status, text) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
  res.end(text);
}

async function handle(root, req, res) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'Method not allowed\n');
  const file = resolveInside(root, req.url || '/');
  if (!file) return send(res, 403, 'Forbidden\n');
  let info;
  try {
    info = await stat(file);
  } catch {
    return send(res, 404, 'Not found\n');
  }
  if (info.isDirectory()) {
    res.writeHead(301, { Location: (req.url || '/').split('?')[0] + '/' });
    return res.end();
  }
  const type = extname(file).toLowerCase();
  const gzip = COMPRESSIBLE.has(type) && info.size > 1024 && acceptsGzip(req.headers['accept-encoding']);
  // "no-cache" makes the browser ask again each time; the tag lets the answer be a bodiless 304,
  // so the page's second worker does not download the module again.
  const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}${gzip ? '-gz' : ''}"`;
  const headers = {
    'Content-Type': MIME_TYPES[type] || 'application/octet-stream',
    'Cache-Control': 'no-cache',
    ETag: etag,
    'X-Content-Type-Options': 'nosniff',
  };
  if (COMPRESSIBLE.has(type)) headers.Vary = 'Accept-Encoding';
  const known = String(req.headers['if-none-match'] || '').split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  if (known.includes(etag)) {
    res.writeHead(304, headers);
    return res.end();
  }
  let body = await readFile(file);
  if (gzip) {
    body = gzipped(file, info, body);
    headers['Content-Encoding'] = 'gzip';
  }
  headers['Content-Length'] = body.length;
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}

// Starts serving; resolves to {server, port, url, close()} once listening. port 0 picks a free port.
export function startServer({ port = 8080, host = '127.0.0.1', root = DEFAULT_ROOT } = {}) {
  const server = createServer((req, res) => {
    handle(root, req, res).catch(() => {
      if (!res.headersSent) send(res, 500, 'Internal error\n');
      else res.destroy();
    });
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const actual = server.address().port;
      const shownHost = host.includes(':') ? `[${host}]` : host;
      resolvePromise({
        server,
        port: actual,
        url: `http://${shownHost}:${actual}/`,
        close: () => new Promise((done) => {
          server.closeAllConnections?.();
          server.close(() => done());
        }),
      });
    });
  });
}

function parseArgs(argv) {
  const options = {};
  for (let i = 0; i < argv.length; ++i) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${arg} needs a value`);
      return argv[++i];
    };
    if (arg === '--port') options.port = Number(value());
    else if (arg === '--host') options.host = value();
    else if (arg === '--root') options.root = value();
    else if (arg === '--help' || arg === '-h') options.help = true;
    else throw new Error(`unknown argument ${arg}`);
  }
  if (options.port !== undefined && !(Number.isInteger(options.port) && options.port >= 0 && options.port < 65536))
    throw new Error('--port must be an integer in [0, 65535]');
  return options;
}

async function main() {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`serve.mjs: ${error.message}`);
    process.exit(2);
  }
  if (options.help) {
    console.log('usage: node web/serve.mjs [--port N] [--host 127.0.0.1] [--root DIR]');
    return;
  }
  const { url } = await startServer(options);
  console.log(`GeoTrain planner: ${url}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`serve.mjs: ${error.message}`);
    process.exit(1);
  });
}
