#!/usr/bin/env node
// A zero-dependency static server for the planner page: `node web/serve.mjs [--port N] [--host H]`.
// Serves files under web/ only (no directory listing, no traversal), with the MIME types a browser
// insists on for modules and WebAssembly (application/wasm enables streaming compilation).
import { createServer } from 'node:http';
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
  const body = await readFile(file);
  res.writeHead(200, {
    'Content-Type': MIME_TYPES[extname(file).toLowerCase()] || 'application/octet-stream',
    'Content-Length': body.length,
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
  });
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
