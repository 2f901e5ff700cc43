// Share links: `#p=1.` + base64url(deflate-raw(problem JSON text)). A link is untrusted input: every
// failure becomes a ShareLinkError with a message for people, and decompression stops reading as
// soon as the output passes MAX_DECOMPRESSED_BYTES (a small link can inflate to gigabytes).
import { isPlainObject } from './paths.js';

export const SHARE_VERSION = '1';
export const LONG_LINK_CHARS = 8000;
export const MAX_DECOMPRESSED_BYTES = 5 * 1024 * 1024;
// Chromium's own limit on a URL; no problem the planner takes needs more.
const MAX_FRAGMENT_CHARS = 2 * 1024 * 1024;

export class ShareLinkError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ShareLinkError';
  }
}

export function base64UrlEncode(bytes) {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function base64UrlDecode(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  let binary;
  try {
    binary = atob(padded);
  } catch {
    return null;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; ++i) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function readAll(stream, limitBytes) {
  const reader = stream.getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limitBytes) {
      await reader.cancel().catch(() => {});
      throw new ShareLinkError(`The link's problem is larger than ${limitBytes / 1024 / 1024} MB once unpacked; it was not opened.`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

export async function compressText(text) {
  const stream = new Blob([new TextEncoder().encode(text)]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export async function decompressBytes(bytes, limitBytes = MAX_DECOMPRESSED_BYTES) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  try {
    return await readAll(stream, limitBytes);
  } catch (error) {
    if (error instanceof ShareLinkError) throw error;
    throw new ShareLinkError('The link is damaged: its data does not unpack (it may have been cut short when copied).');
  }
}

// The fragment (with its '#') that holds `problem`.
export async function encodeProblemFragment(problem) {
  return `#p=${SHARE_VERSION}.` + base64UrlEncode(await compressText(JSON.stringify(problem)));
}

export function isShareFragment(hash) {
  return typeof hash === 'string' && hash.startsWith('#p=');
}

// The problem text a `#p=...` fragment holds, unpacked but not parsed (the page has it parsed and
// checked in a worker: a small link may unpack to megabytes of nesting); throws ShareLinkError.
export async function decodeProblemFragmentText(hash) {
  if (!isShareFragment(hash)) throw new ShareLinkError('This is not a GeoTrain share link.');
  if (hash.length > MAX_FRAGMENT_CHARS) throw new ShareLinkError('The link is too long to be a GeoTrain problem; it was not opened.');
  const body = hash.slice(3);
  const dot = body.indexOf('.');
  const version = dot < 0 ? '' : body.slice(0, dot);
  if (version !== SHARE_VERSION) {
    throw new ShareLinkError(/^\d{1,6}$/.test(version)
      ? `The link uses format ${version}; this page reads format ${SHARE_VERSION} links.`
      : 'The link has no format version (it should start with #p=1.).');
  }
  const bytes = base64UrlDecode(body.slice(dot + 1));
  if (!bytes || bytes.length === 0) throw new ShareLinkError('The link is damaged: it is not valid base64url text.');
  const raw = await decompressBytes(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw new ShareLinkError('The link is damaged: its data is not text.');
  }
}

// The problem a `#p=...` fragment holds, parsed here; throws ShareLinkError for anything else.
export async function decodeProblemFragment(hash) {
  const text = await decodeProblemFragmentText(hash);
  let problem;
  try {
    problem = JSON.parse(text);
  } catch {
    throw new ShareLinkError('The link is damaged: its problem is not valid JSON.');
  }
  if (!isPlainObject(problem)) throw new ShareLinkError('The link does not hold a problem (a JSON object).');
  return problem;
}
