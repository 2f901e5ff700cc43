// What the views share about replica plans (replicas.md): a result with `replicas` (a list of
// pipelines, each with its micro_batches, stages, pipeline_ms and stage figures) instead of one
// `stages` list. Each replica can be shown by the one-pipeline views as a result of its own
// (replicaResult); a plan of one replica never comes here and draws exactly as before.

import {stageMetrics, plural, formatMs, siteLabel} from './format.js';
import {stageGpus, stageName, degreesText, isGroup} from './groups.js';

/** A result holding two or more replicas (solve output or an evaluate report). */
export function isReplicaResult(result) {
  return Boolean(result) && typeof result === 'object' && !('error' in result) &&
    Array.isArray(result.replicas) && result.replicas.length > 1;
}

/** Replica r's stage figures: stage_metrics in solve output, its stages in an evaluate report. */
export const replicaStages = (replica) => stageMetrics(replica);

/** Replica r's own gradient sync inside its groups (0 without data shards). */
export function replicaSyncMs(replica) {
  return replicaStages(replica).reduce((m, s) => Math.max(m, Number.isFinite(s.data_parallel_sync_ms) ? s.data_parallel_sync_ms : 0), 0);
}

/** Micro-batches of all replicas: M. */
export const totalMicroBatches = (result) => result.replicas.reduce((n, r) => n + (r.micro_batches || 0), 0);

/** The replica whose pipeline is slowest: it sets the pace of the iteration. */
export function slowestReplica(result) {
  let best = 0;
  result.replicas.forEach((r, k) => { if ((r.pipeline_ms ?? 0) > (result.replicas[best].pipeline_ms ?? 0)) best = k; });
  return best;
}

/** The replica that sets the pace, or -1 when every pipeline takes the same time (none stands out). */
export function paceSetter(result) {
  const times = result.replicas.map((r) => r.pipeline_ms ?? 0);
  const max = Math.max(...times);
  return times.every((t) => Math.abs(t - max) <= 1e-9 * Math.max(1, max)) ? -1 : slowestReplica(result);
}

/** The sync phase after the pipelines: in-replica groups' sync, then the cross-replica sync every H iterations. */
export function syncPhases(result) {
  const H = Number.isInteger(result.sync_every) && result.sync_every > 0 ? result.sync_every : 1;
  const cross = Number.isFinite(result.cross_replica_sync_ms) ? result.cross_replica_sync_ms : 0;
  const groups = Number.isFinite(result.data_parallel_sync_ms) ? result.data_parallel_sync_ms
    : Math.max(0, ...result.replicas.map(replicaSyncMs));
  const pipelines = Math.max(0, ...result.replicas.map((r) => r.pipeline_ms ?? 0));
  return {pipelines, groups, cross, H, perIteration: cross / H};
}

/**
 * Replica r as a one-pipeline result for the stage table and the 1F1B timeline: its stages, its
 * micro-batches and its own iteration (pipeline + its groups' sync); the plan's cross-replica sync
 * is not in it (the views around say so).
 */
export function replicaResult(result, r) {
  const replica = result.replicas[r];
  const stages = replicaStages(replica);
  const sync = replicaSyncMs(replica);
  return {
    method: result.method,
    stage_metrics: stages,
    stages: replica.stages,
    bottleneck_stage: replica.bottleneck_stage,
    micro_batches: replica.micro_batches,
    iteration_ms: (replica.pipeline_ms ?? 0) + sync,
    data_parallel_sync_ms: sync,
    energy_j: stages.reduce((e, s) => e + (s.energy_j || 0), 0),
    feasible: stages.every((s) => s.fits !== false),
    gpus_used: replica.gpus_used,
  };
}

/** The sites a replica's GPUs are on, in stage order. */
export function replicaSites(replica) {
  return [...new Set(replicaStages(replica).map((s) => siteLabel(s.site)))];
}

/** "R2 · us-west" (several sites: "R2 · us-west + eu-west"; GPUs without sites: "R2"). */
export function replicaName(replica, r) {
  const sites = replicaSites(replica).filter((site) => site !== siteLabel(''));
  return sites.length ? `R${r + 1} · ${sites.join(' + ')}` : `R${r + 1}`;
}

/** Distinct, stable replica colours (golden-angle hues), mid lightness so dark text reads on the light tint. */
export function replicaColour(r, lightness = 42) {
  const hue = Math.round((205 + r * 137.508) % 360);
  return `hsl(${hue} 60% ${lightness}%)`;
}

/** GPU id -> {replica, stage} for every GPU of the plan. */
export function gpuPlaces(result) {
  const places = new Map();
  result.replicas.forEach((replica, r) => {
    replicaStages(replica).forEach((stage, q) => {
      for (const id of stageGpus(stage)) places.set(id, {replica: r, stage: q});
    });
  });
  return places;
}

/** One line per replica's template: "2 stages: us-east-n0 [TP 8 × DP 8] (40) → ...". */
export function stageChainText(problem, replica) {
  return replicaStages(replica).map((s) => (isGroup(s) ? `${stageName(problem, s)} [${degreesText(s)}] (${s.layers})`
    : `${s.gpu} (${s.layers})`)).join(' → ');
}

/** The plan in one line: "4 replicas × 2 stages, 32 micro-batches each; cross-replica sync 15.9 s every iteration". */
export function replicaSummaryText(result) {
  const R = result.replicas.length;
  const Q = replicaStages(result.replicas[0]).length;
  const shares = result.replicas.map((r) => r.micro_batches);
  const same = shares.every((m) => m === shares[0]);
  const {cross, H} = syncPhases(result);
  const how = [result.replica_partition, result.replicas_mode === 'auto' ? 'chosen by the planner' : null].filter(Boolean).join(', ');
  return `${plural(R, 'replica')} × ${plural(Q, 'stage')}${how ? ` (${how})` : ''}; ` +
    (same ? `${plural(shares[0], 'micro-batch', 'micro-batches')} each` : `micro-batches ${shares.join(' + ')}`) +
    `; cross-replica sync ${formatMs(cross)} ${H === 1 ? 'every iteration' : `every ${H} iterations (${formatMs(cross / H)} per iteration)`}`;
}
