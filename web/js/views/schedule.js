// The simulated 1F1B schedule the timeline draws (issue 25; core/sim/, `geotrain simulate`): every
// forward, backward and transfer of every micro-batch as the planner module simulated it, under the
// contract's rules (simulator.md): 1F1B order on each stage, an operation only after its input has
// arrived, one transfer per link at a time. This file asks the module for as many events as can be
// drawn and indexes what comes back; it computes no schedule of its own.

export const BLOCK_BUDGET = 4000;  // drawn forwards and backwards at most, whatever M and Q
export const MAX_DRAWN = 64;       // micro-batches drawn at most

/**
 * What to ask the module for, a plan of `stageCount` stages and `microBatches` micro-batches: every
 * event when they can all be drawn, else those of the first and last `events_each_end` micro-batches
 * (the module merges the rest per stage).
 */
export function eventRequest(stageCount, microBatches, sends = 'blocking') {
  const cap = Math.min(MAX_DRAWN, Math.max(4, Math.floor(BLOCK_BUDGET / (2 * Math.max(1, stageCount)))));
  const request = { sends, events: true };
  if (microBatches > cap) request.events_each_end = Math.floor(cap / 2);
  return request;
}

const KINDS = { F: 'forward', B: 'backward', send_f: 'sendForward', send_b: 'sendBackward' };

/**
 * The replica to draw of a report of several (`replicas[]`, a plan of replicas): the one that drains
 * last, whose makespan the sync phase and T_sim follow. 0 for a report of one pipeline.
 */
export function slowestReplica(report) {
  if (!severalReplicas(report)) return 0;
  let best = 0;
  report.replicas.forEach((r, i) => { if (Number(r.makespan_ms) > Number(report.replicas[best].makespan_ms)) best = i; });
  return best;
}

function severalReplicas(report) {
  return Array.isArray(report?.replicas) && report.replicas.length > 0 && !Array.isArray(report.stages);
}

/**
 * The module's report indexed for drawing one pipeline (replica `replica` of a plan of replicas): per
 * stage its operations and transfers by kind, the drawn micro-batches, the merged ones' span per stage,
 * the phases and the figures. `drain` is when every replica has drained and the sync phase starts.
 */
export function scheduleOf(report, replica = 0) {
  const several = severalReplicas(report);
  const part = several ? (report.replicas[replica] || {}) : report;
  const shown = several ? replica : 0;
  const stages = Array.isArray(part.stages) ? part.stages : [];
  const count = stages.length;
  const rows = stages.map(() => ({ forward: [], backward: [], sendForward: [], sendBackward: [] }));
  const drawnSet = new Set();
  for (const e of report.events || []) {
    if (e.replica !== shown || !(e.stage >= 0 && e.stage < count) || !KINDS[e.kind]) continue;
    rows[e.stage][KINDS[e.kind]].push(e);
    drawnSet.add(e.micro_batch);
  }
  const microBatches = Number(part.micro_batches) || 0;
  const head = Number.isInteger(report.events_each_end) ? report.events_each_end : null;
  const mergedRange = head !== null && microBatches > 2 * head ? { from: head, to: microBatches - head - 1 } : null;
  const merged = stages.map(() => null);
  for (const m of report.merged || []) {
    if (m.replica === shown && m.stage >= 0 && m.stage < count) merged[m.stage] = { start: m.start_ms, end: m.end_ms, busy: m.busy_ms };
  }
  const makespan = Number(part.makespan_ms) || 0;
  const drain = several ? Math.max(makespan, Number(report.sync_start_ms) || 0) : makespan;
  const sync = Number(report.after_drain_ms) || 0;
  return {
    stages: count,
    microBatches,
    replica: several ? replica : null,
    replicaCount: several ? report.replicas.length : 1,
    crossReplicaSync: Number(report.cross_replica_sync_ms) || 0,
    syncEvery: Number(report.sync_every) || 1,
    rows,
    drawn: [...drawnSet].sort((a, b) => a - b),
    mergedRange,
    merged,
    makespan,
    drain,
    sync,
    iteration: Number(report.iteration_ms) || drain + sync,
    analytic: Number(report.analytic_iteration_ms) || 0,
    difference: Number(report.difference) || 0,
    sends: report.sends === 'overlapped' ? 'overlapped' : 'blocking',
    bubbleFraction: Number(report.bubble_fraction) || 0,
    warmupEnd: Math.min(Number(part.warmup_end_ms) || 0, makespan),
    cooldownStart: Math.min(Number(part.cooldown_start_ms) || 0, makespan),
    busy: (q) => Number(stages[q]?.busy_ms) || 0,
    idle: (q) => Number(stages[q]?.idle_ms) || 0,
    stage: (q) => stages[q],
  };
}

/**
 * The steady middle to cut out of the time axis when micro-batches are merged: from the end of the
 * last drawn operation or transfer of the first micro-batches to the start of the first of the last
 * ones, on every stage. Nothing drawn falls inside it; null when there is nothing worth cutting.
 */
export function steadyCut(schedule) {
  if (!schedule.mergedRange) return null;
  let from = 0;
  let to = Infinity;
  const { from: first, to: last } = schedule.mergedRange;
  for (const row of schedule.rows) {
    for (const list of Object.values(row)) {
      for (const e of list) {
        if (e.micro_batch < first) from = Math.max(from, e.end_ms);
        else if (e.micro_batch > last) to = Math.min(to, e.start_ms);
      }
    }
  }
  return to - from > 0.15 * schedule.makespan ? { t0: from, t1: to } : null;
}

/** One sentence on what the difference between the simulated and the analytic time means. */
export function differenceSentence(schedule) {
  const d = schedule.difference;
  const overlapped = schedule.sends === 'overlapped';
  if (Math.abs(d) < 0.005) {
    return 'The two agree to within 0.5%: the stages keep the slowest one\'s pace almost throughout, as the formula assumes.';
  }
  if (d < 0) {
    return overlapped
      ? 'The simulated schedule is shorter: the formula counts every send as time its GPU is busy, while here the GPUs compute on as they send, and part of the other stages\' work overlaps with the slowest stage\'s.'
      : 'The simulated schedule is shorter: the formula adds every stage\'s time once on top of M − 1 times the slowest stage\'s, while in the schedule part of that work overlaps with the slowest stage\'s own.';
  }
  return 'The simulated schedule is longer: 1F1B\'s fixed order (a stage\'s next forward before its next backward, at most ' +
    'Q − q micro-batches in flight) makes stages wait here for inputs still crossing slow links, time the formula does not count.';
}
