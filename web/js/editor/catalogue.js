// The GPU catalogue as the planner reads it: names match case-insensitively with ' ', '_' and '-'
// ignored ("a100 sxm 80gb" is A100-SXM-80GB), and peak compute depends on the model's precision.
import { getPath, isPlainObject, parsePath } from '../paths.js';

const normalise = (name) => String(name).replace(/[ _-]/g, '').toLowerCase();

export function findEntry(catalogue, type) {
  if (typeof type !== 'string' || normalise(type) === '') return null;
  const key = normalise(type);
  return catalogue.find((entry) => normalise(entry.type) === key) || null;
}

function precisionOf(problem) {
  const p = getPath(problem, 'model.precision');
  return typeof p === 'string' && ['fp16', 'bf16', 'fp32'].includes(p.toLowerCase()) ? p.toLowerCase() : 'fp16';
}

// What the planner will use for an empty GPU field, worked out here so that it shows at once and
// never comes from a stale check: catalogue figures for the GPU's type, 1 for the utilisations.
// undefined when the path is not a GPU figure (the caller then asks the last check).
export function gpuDefault(problem, catalogue, path) {
  const parts = parsePath(path);
  if (parts.length !== 3 || parts[0] !== 'gpus' || typeof parts[1] !== 'number') return undefined;
  const gpu = getPath(problem, parts.slice(0, 2));
  const key = parts[2];
  if (key === 'compute_util' || key === 'memory_util') return 1;
  if (!isPlainObject(gpu)) return null;
  const entry = findEntry(catalogue, gpu.type);
  if (!entry) return null;
  if (key === 'peak_tflops') return entry[`${precisionOf(problem)}_tflops`] || null;
  if (key === 'memory_gib' || key === 'idle_w' || key === 'active_w') return entry[key];
  return undefined;
}

// The catalogue's rental price (USD per hour) for a GPU's type: a suggestion only, since the
// planner costs an empty price_per_hour as $0/h. undefined when the type has none (or lists 0).
export function cataloguePrice(catalogue, gpu) {
  if (!isPlainObject(gpu)) return undefined;
  const price = findEntry(catalogue, gpu.type)?.price_per_hour;
  return Number.isFinite(price) && price > 0 ? price : undefined;  // 0: no rental price listed
}
