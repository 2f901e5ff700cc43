// Problem files in and out: import through a file input, export and plan download through a Blob URL.
import { isPlainObject } from './paths.js';

export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

// The problem a file holds; throws an Error with a message for people.
export async function readProblemFile(file) {
  if (file.size > MAX_IMPORT_BYTES) throw new Error(`${file.name} is larger than 5 MB; it is not a GeoTrain problem.`);
  const text = await file.text();
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file.name} is not valid JSON (${error.message}).`);
  }
  if (!isPlainObject(value)) throw new Error(`${file.name} does not hold a problem (a JSON object).`);
  return value;
}

// The text of a problem file (parsed and checked in a worker); throws an Error for people.
export async function readProblemFileText(file) {
  if (file.size > MAX_IMPORT_BYTES) throw new Error(`${file.name} is larger than 5 MB; it is not a GeoTrain problem.`);
  return file.text();
}

// 'three sites / v2' -> 'three-sites-v2'
export function fileStem(name, fallback = 'problem') {
  const stem = String(name ?? '').normalize('NFKD').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '').slice(0, 80);
  return stem || fallback;
}

// Offers `text` as a download named `fileName`, through a Blob URL.
export function downloadText(text, fileName, type = 'text/plain') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

export function downloadJson(value, fileName) {
  downloadText(JSON.stringify(value, null, 2) + '\n', fileName, 'application/json');
}

// Copies `text` to the clipboard; false where the browser does not allow it.
export async function copyText(text) {
  try {
    if (!navigator.clipboard?.writeText) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
