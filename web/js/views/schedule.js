// The cost model's iteration time T = sum_q tau_q + (M - 1) max_q tau_q is the makespan of a flow shop
// with M identical jobs (micro-batches) that each occupy stage q for tau_q, started as early as
// possible: start(i, q) = max(end(i, q - 1), end(i - 1, q)). For identical jobs the recurrence has the
// closed form end(i, q) = S_q + i * m_q, with S_q = tau_0 + ... + tau_q and m_q = max(tau_0..tau_q)
// (induction on q: if tau_q >= m_{q-1} the previous job on this stage is the later predecessor,
// otherwise the same job on the previous stage is), so any block is O(1) and the views can draw
// a few blocks of a run with thousands of micro-batches.
//
// In that earliest-start schedule the stages before the bottleneck run ahead at their own pace and then
// sit idle, which real 1F1B cannot do (it keeps at most about Q micro-batches in flight). The 'paced'
// schedule, end(i, q) = S_q + i * max_q tau_q, lets every stage take one micro-batch per bottleneck
// period, as 1F1B's steady state does. It satisfies the same precedence constraints
// (start(i, q) = end(i, q - 1) and end(i - 1, q) = start(i, q) - (max - tau_q) <= start(i, q)), is
// identical from the bottleneck stage on, and has the same makespan, so the views draw it by default.

export function flowShop(stageTimesMs, microBatches, mode = 'paced') {
  if (mode !== 'paced' && mode !== 'earliest') throw new Error(`schedule: unknown mode ${mode}`);
  const count = stageTimesMs.length;
  const prefixSum = new Float64Array(count);
  const prefixMax = new Float64Array(count);
  let sum = 0;
  let max = 0;
  for (let q = 0; q < count; q++) {
    sum += stageTimesMs[q];
    max = Math.max(max, stageTimesMs[q]);
    prefixSum[q] = sum;
    prefixMax[q] = max;
  }
  const end = mode === 'paced' ? (i, q) => prefixSum[q] + i * max : (i, q) => prefixSum[q] + i * prefixMax[q];
  const start = (i, q) => end(i, q) - stageTimesMs[q];
  const last = count - 1;
  const makespan = count === 0 ? 0 : end(microBatches - 1, last);
  return {
    mode,
    stages: count,
    microBatches,
    tau: stageTimesMs,
    start,
    end,
    makespan,
    // Warm-up lasts until the last stage starts its first micro-batch; drain starts when the first
    // stage has finished its last one. With few micro-batches the two overlap and there is no steady state.
    warmupEnd: count === 0 ? 0 : start(0, last),
    drainStart: count === 0 ? 0 : end(microBatches - 1, 0),
    busy: (q) => microBatches * stageTimesMs[q],
    // Idle share of all GPU time in the pipeline: the bubble.
    bubbleFraction: makespan > 0 ? 1 - (microBatches * sum) / (count * makespan) : 0,
  };
}

/** Plain recurrence over all blocks, for checking the closed form (tests) on small cases. */
export function flowShopByRecurrence(stageTimesMs, microBatches) {
  const count = stageTimesMs.length;
  const ends = [];
  for (let i = 0; i < microBatches; i++) {
    const row = new Float64Array(count);
    for (let q = 0; q < count; q++) {
      const ready = Math.max(q > 0 ? row[q - 1] : 0, i > 0 ? ends[i - 1][q] : 0);
      row[q] = ready + stageTimesMs[q];
    }
    ends.push(row);
  }
  return ends;
}
