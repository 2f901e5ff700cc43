// What the views share about stage groups (stage-groups.md): a stage is one GPU ({gpu}) or a group
// ({gpus, tensor_parallel, data_parallel}) whose first GPU sends and receives the activations.
// Every reader accepts both, so a plan of single GPUs draws exactly as before groups.

import {plural} from './format.js';

/** The stage's GPUs in shard order (one GPU: [gpu]). */
export function stageGpus(stage) {
  if (Array.isArray(stage?.gpus) && stage.gpus.length > 0) return stage.gpus.map(String);
  return stage?.gpu === undefined ? [] : [String(stage.gpu)];
}

/** The GPU that sends and receives the stage's activations: the group's first. */
export function leadGpu(stage) {
  return stage?.gpu !== undefined ? String(stage.gpu) : stageGpus(stage)[0];
}

export const isGroup = (stage) => stageGpus(stage).length > 1;
export const tensorDegree = (stage) => (Number.isInteger(stage?.tensor_parallel) && stage.tensor_parallel > 0 ? stage.tensor_parallel : 1);
export const dataDegree = (stage) => (Number.isInteger(stage?.data_parallel) && stage.data_parallel > 0
  ? stage.data_parallel : Math.max(1, Math.round(stageGpus(stage).length / tensorDegree(stage))));

export const planHasGroups = (stages) => stages.some(isGroup);

/** Every GPU of the plan (a group of 8 counts 8). */
export const gpuCountOf = (stages) => stages.reduce((n, s) => n + stageGpus(s).length, 0);

/** The gradient sync after the drain: the slowest stage's all-reduce (0 without data shards). */
export function syncMsOf(result, stages) {
  if (Number.isFinite(result?.data_parallel_sync_ms)) return result.data_parallel_sync_ms;
  return stages.reduce((m, s) => Math.max(m, Number.isFinite(s.data_parallel_sync_ms) ? s.data_parallel_sync_ms : 0), 0);
}

/** "TP 8 × DP 1": the group's tensor and data degrees. */
export const degreesText = (stage) => `TP ${tensorDegree(stage)} × DP ${dataDegree(stage)}`;

/** The node a GPU lives in (its own id when the problem names none). */
export function nodeOf(problem, id) {
  const gpu = (problem?.gpus ?? []).find((g) => g?.id === id);
  return typeof gpu?.node === 'string' && gpu.node !== '' ? gpu.node : id;
}

/**
 * A stage's name: its GPU, or for a group the node its GPUs share ("us-west-n1") or its first GPU
 * and how many more ("g0 +3").
 */
export function stageName(problem, stage) {
  const gpus = stageGpus(stage);
  if (gpus.length <= 1) return leadGpu(stage);
  const nodes = new Set(gpus.map((id) => nodeOf(problem, id)));
  return nodes.size === 1 && !gpus.includes([...nodes][0]) ? [...nodes][0] : `${gpus[0]} +${gpus.length - 1}`;
}

/** "8 × A100-SXM-80GB" for a group ("8 GPUs" without a type), the type alone for one GPU. */
export function groupTypeText(stage) {
  const n = stageGpus(stage).length;
  const type = typeof stage?.type === 'string' && stage.type !== '' ? stage.type : '';
  if (n <= 1) return type || 'custom GPU';
  return type ? `${n} × ${type}` : `${n} GPUs`;
}

/** Tooltip lines a group adds: its GPUs by shard, its degrees and its communication. */
export function groupTipLines(stage, formatMs) {
  if (!isGroup(stage)) return [];
  const gpus = stageGpus(stage);
  const t = tensorDegree(stage);
  const shards = [];
  for (let j = 0; j * t < gpus.length; ++j) shards.push(gpus.slice(j * t, j * t + t).join(', '));
  const lines = [`${plural(gpus.length, 'GPU')}, ${degreesText(stage)}`];
  shards.slice(0, 8).forEach((s, j) => lines.push(`  shard ${j + 1}: ${s}`));
  if (shards.length > 8) lines.push(`  and ${shards.length - 8} more shards`);
  if (Number.isFinite(stage.tensor_parallel_ms)) lines.push(`tensor-parallel all-reduces ${formatMs(stage.tensor_parallel_ms)} per micro-batch`);
  if (Number.isFinite(stage.data_parallel_sync_ms) && stage.data_parallel_sync_ms > 0) {
    lines.push(`gradient sync ${formatMs(stage.data_parallel_sync_ms)} after the drain`);
  }
  return lines;
}
