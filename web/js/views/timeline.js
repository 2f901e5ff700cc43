// One iteration's 1F1B schedule as the planner module simulated it (core/sim/; simulator.md): every
// forward (light) and backward (dark) of every micro-batch on every stage (rows), the transfers
// between stages (thin bars between the rows: activations down, gradients up), with blocking sends
// the time a GPU waits for its send, the idle time hatched as the bubble, and the warm-up, steady
// state and cool-down where the schedule has them. The simulated iteration and the analytic formula's
// (sum of stage times + (M - 1) x the bottleneck's) are marked side by side, with what the difference
// means. Large plans ask the module for the first and last micro-batches only: the others are merged
// per stage and the steady middle is cut out of the time axis (marked by a break).

import {el, html, svgRoot, figure, emptyView, truncate, tip, round2, hatchPattern, textWidth} from './svg.js';
import {colourScheme} from './colours.js';
import {stageMetrics, bottleneckOf, microBatchesOf, siteLabel, formatMs, formatNumber, plural,
        isError, noPlanMessage} from './format.js';
import {eventRequest, scheduleOf, slowestReplica, steadyCut, differenceSentence} from './schedule.js';
import {timeAxis, breakScale, phaseBands, legend, formulaLine} from './timeline-parts.js';
import {operationParts, syncPhase, TENSOR_FILL, SYNC_FILL} from './timeline-sync.js';
import {stageName, planHasGroups} from './groups.js';

const WIDTH = 900;
const LEFT = 118;
const RIGHT = 80;
const PHASE_H = 30;
const AXIS_H = 40;
const LEGEND_H = 26;
const TITLE_LIMIT = 800;  // per-block tooltips only while they stay cheap
const latest = new WeakMap();  // container -> the last request drawn into it

/**
 * options.simulation: the module's report (`geotrain simulate` with events) to draw at once; or
 * options.simulate(request): a promise of it, asked for as many events as can be drawn (the view
 * shows a note meanwhile and a choice of send mode after). Returns the figure, or a promise of it.
 */
export function renderTimeline(container, problem, result, options = {}) {
  const stages = stageMetrics(replicaResult(result, 0));
  if (isError(result) || stages.length === 0) return emptyView(container, 'gt-timeline', noPlanMessage(result));
  latest.set(container, null);
  if (options.simulation) return draw(container, problem, result, options.simulation, options);
  if (typeof options.simulate !== 'function') {
    return emptyView(container, 'gt-timeline', 'The simulated schedule needs the planner module, which is not available.');
  }
  return load(container, problem, result, options, options.sends === 'overlapped' ? 'overlapped' : 'blocking');
}

// A plan of replicas (replicas.md) prints per replica its stages and figures; the timeline draws
// one replica's pipeline (the one that drains last, once simulated) and the sync phase after it.
function replicaList(result) {
  return !isError(result) && Array.isArray(result?.replicas) && result.replicas.length > 1 &&
    !Array.isArray(result.stage_metrics) ? result.replicas : null;
}

function replicaResult(result, r) {
  const list = replicaList(result);
  return list ? (list[r] || list[0]) : result;
}

async function load(container, problem, result, options, sends) {
  // Every replica's events come back: ask for a share of the drawing budget each.
  const list = replicaList(result);
  const request = list
    ? eventRequest(stageMetrics(list[0]).length * list.length, Math.max(...list.map((r) => Number(r.micro_batches) || 1)), sends)
    : eventRequest(stageMetrics(result).length, microBatchesOf(problem, result), sends);
  latest.set(container, request);
  if (!container.querySelector('svg.gt-tl-svg')) emptyView(container, 'gt-timeline', 'Simulating the schedule event by event…');
  let simulation;
  try {
    simulation = await options.simulate(request);
  } catch (error) {
    if (latest.get(container) === request) {
      emptyView(container, 'gt-timeline', `The schedule could not be simulated: ${error.message || error}`);
    }
    return null;
  }
  if (latest.get(container) !== request) return null;  // a newer plan or send mode is being drawn
  return draw(container, problem, result, simulation, {...options, sends});
}

function draw(container, problem, planResult, simulation, options) {
  const list = replicaList(planResult);
  const shown = !list ? 0 : Number.isInteger(options.replica) && options.replica < list.length ? options.replica
    : slowestReplica(simulation);
  const result = replicaResult(planResult, shown);
  const stages = stageMetrics(result);
  const schedule = scheduleOf(simulation, shown);
  if (schedule.stages !== stages.length) {
    return emptyView(container, 'gt-timeline', 'The simulated schedule does not match this plan.');
  }
  const colours = colourScheme(problem);
  const q = stages.length;
  const bottleneck = bottleneckOf(result);
  const names = stages.map((s) => stageName(problem, s));
  const cut = steadyCut(schedule);
  const total = Math.max(schedule.iteration, schedule.analytic);
  const x = breakScale(total, cut, LEFT, WIDTH - RIGHT);
  const pitch = Math.max(0.8, Math.min(40, 460 / q));
  const gap = pitch >= 16 ? Math.min(10, Math.round(pitch * 0.3)) : 0;  // room for the transfers between rows
  const geometry = {x, rowH: pitch - gap, gap, rowTop: (k) => PHASE_H + k * pitch};
  const plotH = pitch * q - gap;
  const height = PHASE_H + plotH + AXIS_H + LEGEND_H;
  const blocking = schedule.sends === 'blocking';

  const svg = svgRoot(WIDTH, height, ariaLabel(schedule, q), 'gt-tl-svg');
  Object.assign(svg.dataset, {
    totalMs: schedule.iteration, simulatedMs: schedule.iteration, analyticMs: schedule.analytic,
    pipelineMs: schedule.makespan, drainMs: schedule.drain, syncMs: schedule.sync, sends: schedule.sends, difference: schedule.difference,
    bubbleFraction: schedule.bubbleFraction, microBatches: schedule.microBatches, drawnMicroBatches: schedule.drawn.length,
  });
  const defs = svg.appendChild(el('defs'));
  const bubble = hatchPattern(defs, 'gt-tl-bubble', 'hsl(220 10% 70%)', 'hsl(220 20% 97%)', 5);
  svg.appendChild(rowBackgrounds(stages, schedule, geometry, bottleneck, bubble));
  if (schedule.mergedRange) svg.appendChild(mergedBands(stages, schedule, geometry, colours));
  const titles = 2 * schedule.drawn.length * q <= TITLE_LIMIT;
  svg.appendChild(operations(stages, schedule, geometry, colours, titles));
  if (gap > 0) svg.appendChild(transfers(schedule, geometry, titles));
  svg.appendChild(rowLabels(stages, names, schedule, geometry, bottleneck));
  svg.appendChild(phaseBands(schedule, x, PHASE_H, plotH));
  if (schedule.sync > 0) {
    svg.appendChild(syncPhase(stages, schedule.drain, schedule.sync, x, geometry.rowTop, geometry.rowH, PHASE_H, plotH,
                              schedule.crossReplicaSync / schedule.syncEvery));
  }
  if (x.gap) svg.appendChild(breakMark(x, PHASE_H, plotH, schedule.mergedRange));
  if (Math.abs(schedule.analytic - schedule.iteration) > 1e-9 * schedule.iteration) {
    svg.appendChild(formulaLine(x, schedule.analytic, PHASE_H, plotH));
  }
  svg.appendChild(timeAxis(x, PHASE_H + plotH, schedule.iteration, schedule.analytic));
  const extra = [];
  if (stages.some((s) => s.tensor_parallel_ms > 0)) extra.push({label: 'tensor', attrs: {fill: TENSOR_FILL}});
  if (schedule.sync > 0) extra.push({label: 'grad sync', attrs: {fill: SYNC_FILL}});
  svg.appendChild(legend(LEFT, PHASE_H + plotH + AXIS_H + 14, bubble, {blocking: blocking && q > 1, transfers: gap > 0 && q > 1, extra}));

  if (schedule.replica !== null) Object.assign(svg.dataset, {replica: schedule.replica, replicas: schedule.replicaCount});
  const body = typeof options.simulate === 'function' ? [sendChoice(container, problem, planResult, options, schedule.sends), svg] : svg;
  const node = figure(container, 'gt-timeline', body, caption(schedule, stages, names, bottleneck, gap > 0, planHasGroups(stages)));
  if (options.refocus) node.querySelector('.gt-tl-sends select')?.focus();
  return node;
}

function ariaLabel(schedule, q) {
  return `Simulated 1F1B schedule of ${plural(schedule.microBatches, 'micro-batch', 'micro-batches')} over ` +
    `${plural(q, 'stage')}: iteration ${formatMs(schedule.iteration)} (${schedule.sends} sends) against the formula's ` +
    `${formatMs(schedule.analytic)}, bubble ${formatNumber(schedule.bubbleFraction * 100)}% idle`;
}

// Blocking or overlapped sends: asks the module again and redraws in place.
function sendChoice(container, problem, result, options, sends) {
  const select = html('select', {'aria-label': 'Sends in the simulation', title: 'Blocking: a GPU waits until its send ' +
    'has arrived, as the formula assumes. Overlapped: it computes on while it sends, as engines with asynchronous sends do.'}, [
    html('option', {value: 'blocking'}, 'blocking (as the formula)'),
    html('option', {value: 'overlapped'}, 'overlapped with compute'),
  ]);
  select.value = sends;
  select.addEventListener('change', () => load(container, problem, result, {...options, refocus: true}, select.value));
  return html('label', {class: 'gt-tl-sends'}, ['Sends ', select]);
}

function rowBackgrounds(stages, schedule, g, bottleneck, bubble) {
  const group = el('g', {class: 'gt-tl-rows'});
  const x0 = g.x(0);
  const x1 = g.x(schedule.drain);
  stages.forEach((stage, k) => {
    const idle = schedule.idle(k);
    group.appendChild(el('rect', {
      x: round2(x0), y: round2(g.rowTop(k)), width: round2(x1 - x0), height: round2(g.rowH), fill: bubble,
      class: `gt-tl-bubble${k === bottleneck ? ' is-bottleneck' : ''}`, 'data-stage': k, 'data-idle-ms': idle,
    }, tip(`Stage ${k + 1} (${stage.gpu}) idle ${formatMs(idle)} of ${formatMs(schedule.drain)} ` +
           `(${formatNumber((idle / Math.max(1e-12, schedule.drain)) * 100)}%)`)));
  });
  group.appendChild(el('rect', {x: round2(x0 - 2), y: round2(g.rowTop(bottleneck) - 1), width: round2(x1 - x0 + 4),
                                height: round2(g.rowH + 2), class: 'gt-tl-bottleneck-frame', fill: 'none'}));
  return group;
}

// One stage's forward or backward: its compute (and tensor all-reduces), numbered F3 / B3 when wide enough.
function operation(stage, e, g, colours, withTitle, q) {
  const forward = e.kind === 'F';
  const x0 = g.x(e.start_ms);
  const width = g.x(e.end_ms) - x0;
  const y = round2(g.rowTop(q));
  const h = round2(g.rowH);
  const data = {'data-stage': q, 'data-micro-batch': e.micro_batch, 'data-kind': e.kind, 'data-start-ms': e.start_ms,
                'data-end-ms': e.end_ms};
  const fill = colours.gpu(stage.gpu, forward ? 0 : 26);
  // Too small for parts or a label (thin rows of a long pipeline): one rectangle, thousands stay cheap.
  if (width < 6 || g.rowH < 6) {
    return el('rect', {x: round2(x0), y, width: round2(Math.max(0.3, width)), height: h, fill,
                       class: `gt-tl-block ${forward ? 'is-forward gt-tl-fwd' : 'is-backward gt-tl-bwd'}`, ...data});
  }
  const block = el('g', {class: `gt-tl-block ${forward ? 'is-forward' : 'is-backward'}`, ...data});
  let t = e.start_ms;
  for (const part of operationParts(stage, e.end_ms - e.start_ms)) {
    if (part.ms <= 0) continue;
    const px0 = g.x(t);
    t += part.ms;
    block.appendChild(el('rect', {x: round2(px0), y, width: round2(Math.max(0.3, g.x(t) - px0)), height: h,
                                  class: part.tensor ? 'gt-tl-tensor' : forward ? 'gt-tl-fwd' : 'gt-tl-bwd',
                                  fill: part.tensor ? TENSOR_FILL : fill}));
  }
  const full = `${e.kind}${e.micro_batch + 1}`;
  const label = width >= textWidth(full, 10) + 4 ? full : width >= textWidth(String(e.micro_batch + 1), 10) + 4 ? String(e.micro_batch + 1) : '';
  if (label && g.rowH >= 13) {
    block.appendChild(el('text', {x: round2(x0 + width / 2), y: round2(g.rowTop(q) + g.rowH / 2 + 3.5), 'text-anchor': 'middle',
                                  class: `gt-tl-mb${forward ? '' : ' is-backward'}`}, label));
  }
  if (withTitle) {
    block.appendChild(tip(`${forward ? 'Forward' : 'Backward'} of micro-batch ${e.micro_batch + 1} on stage ${q + 1} ` +
                          `(${stageName(null, stage)}): ${formatMs(e.start_ms)} to ${formatMs(e.end_ms)}`));
  }
  return block;
}

function operations(stages, schedule, g, colours, withTitles) {
  const group = el('g', {class: 'gt-tl-blocks'});
  const blocking = schedule.sends === 'blocking';
  stages.forEach((stage, q) => {
    const row = schedule.rows[q];
    // With blocking sends the GPU waits from the end of its operation to its send's arrival.
    if (blocking) {
      for (const send of [...row.sendForward, ...row.sendBackward]) {
        const op = (send.kind === 'send_f' ? row.forward : row.backward).find((o) => o.micro_batch === send.micro_batch);
        const t0 = op ? op.end_ms : send.start_ms;
        group.appendChild(el('rect', {x: round2(g.x(t0)), y: round2(g.rowTop(q)), height: round2(g.rowH),
                                      width: round2(Math.max(0.3, g.x(send.end_ms) - g.x(t0))), class: 'gt-tl-sending',
                                      'data-stage': q, 'data-micro-batch': send.micro_batch}));
      }
    }
    for (const e of [...row.forward, ...row.backward]) group.appendChild(operation(stage, e, g, colours, withTitles, q));
  });
  return group;
}

// Activations from stage q travel in the gap below its row, gradients to stage q - 1 in the gap above.
function transfers(schedule, g, withTitles) {
  const group = el('g', {class: 'gt-tl-transfers'});
  const h = Math.max(1.5, g.gap * 0.3);
  schedule.rows.forEach((row, q) => {
    for (const e of [...row.sendForward, ...row.sendBackward]) {
      const forward = e.kind === 'send_f';
      const y = forward ? g.rowTop(q) + g.rowH + g.gap * 0.15 : g.rowTop(q) - g.gap * 0.15 - h;
      group.appendChild(el('rect', {x: round2(g.x(e.start_ms)), y: round2(y), height: round2(h),
                                    width: round2(Math.max(0.6, g.x(e.end_ms) - g.x(e.start_ms))),
                                    class: `gt-tl-transfer ${forward ? 'is-forward' : 'is-backward'}`, 'data-stage': q,
                                    'data-micro-batch': e.micro_batch, 'data-kind': e.kind,
                                    'data-start-ms': e.start_ms, 'data-end-ms': e.end_ms},
                           withTitles ? tip(`${forward ? 'Activation' : 'Gradient'} of micro-batch ${e.micro_batch + 1}, ` +
                                            `stage ${q + 1} → ${forward ? q + 2 : q}: ${formatMs(e.start_ms)} to ${formatMs(e.end_ms)}`) : null));
    }
  });
  return group;
}

function mergedBands(stages, schedule, g, colours) {
  const group = el('g', {class: 'gt-tl-merged'});
  const {from, to} = schedule.mergedRange;
  stages.forEach((stage, q) => {
    const m = schedule.merged[q];
    if (!m) return;
    group.appendChild(el('rect', {
      x: round2(g.x(m.start)), y: round2(g.rowTop(q)), width: round2(Math.max(0.3, g.x(m.end) - g.x(m.start))),
      height: round2(g.rowH), fill: colours.gpu(stage.gpu, 8), class: 'gt-tl-merged-band', 'data-stage': q,
      'fill-opacity': round2(0.15 + 0.75 * Math.min(1, m.busy / Math.max(1e-12, m.end - m.start))),
    }, tip(`Micro-batches ${from + 1} to ${to + 1} on stage ${q + 1} (${stage.gpu}): busy ${formatMs(m.busy)} ` +
           `of ${formatMs(m.end - m.start)}`)));
  });
  return group;
}

function rowLabels(stages, names, schedule, g, bottleneck) {
  const group = el('g', {class: 'gt-tl-labels'});
  const every = g.rowH + g.gap >= 10 ? 1 : Math.ceil(12 / (g.rowH + g.gap));
  stages.forEach((stage, q) => {
    const isB = q === bottleneck;
    // Thin rows: every few rows gets a label, the bottleneck always, and none crowd the bottleneck's.
    const show = isB || ((q % every === 0 || q === stages.length - 1) && Math.abs(q - bottleneck) >= every);
    if (!show) return;
    const yMid = round2(g.rowTop(q) + g.rowH / 2 + 4);
    const name = g.rowH >= 10 ? `${q + 1} · ${truncate(names[q], 12)}` : `${q + 1}`;
    const own = schedule.stage(q) || {};
    group.appendChild(el('text', {x: LEFT - 8, y: yMid, 'text-anchor': 'end', class: `gt-tl-row-label${isB ? ' is-bottleneck' : ''}`},
                         [name, tip(`Stage ${q + 1}: ${names[q]}, ${stage.type ?? ''} at ${siteLabel(stage.site)}; forward ` +
                                    `${formatMs(own.forward_ms)}, backward ${formatMs(own.backward_ms)} per micro-batch; its warm-up ` +
                                    `ends at ${formatMs(own.warmup_end_ms)}, its cool-down starts at ${formatMs(own.cooldown_start_ms)}`)]));
    const idle = schedule.idle(q) / Math.max(1e-12, schedule.drain);
    group.appendChild(el('text', {x: WIDTH - RIGHT + 6, y: yMid, class: `gt-tl-idle${isB ? ' is-bottleneck' : ''}`},
                         `${formatNumber(idle * 100)}% idle`));
  });
  group.appendChild(el('text', {x: LEFT - 8, y: PHASE_H - 8, 'text-anchor': 'end', class: 'gt-axis-title'}, 'stage'));
  return group;
}

function breakMark(x, top, height, merged) {
  const mid = (x.gap.x0 + x.gap.x1) / 2;
  const zig = [];
  for (let y = top, k = 0; y <= top + height; y += 6, k++) zig.push(`${round2(mid + (k % 2 ? 4 : -4))},${round2(y)}`);
  return el('g', {class: 'gt-tl-break'}, [
    el('rect', {x: round2(x.gap.x0), y: top - 2, width: round2(x.gap.x1 - x.gap.x0), height: round2(height + 4)}),
    el('polyline', {points: zig.join(' ')}),
    tip(`Axis break: ${formatMs(x.gap.t1 - x.gap.t0)} of steady state not drawn ` +
        `(micro-batches ${merged.from + 1} to ${merged.to + 1} are merged)`),
  ]);
}

function caption(schedule, stages, names, bottleneck, transfersDrawn, grouped) {
  const m = schedule.microBatches;
  const d = schedule.difference;
  const change = Math.abs(d) < 0.0005 ? 'the same' : `${formatNumber(Math.abs(d) * 100, 2)}% ${d < 0 ? 'shorter' : 'longer'}`;
  const parts = [
    html('strong', null, `Simulated iteration ${formatMs(schedule.iteration)}`),
    ` (${schedule.sends} sends) against the formula's ${formatMs(schedule.analytic)} (stage times + ` +
    `${formatNumber(m - 1)} × the bottleneck, stage ${bottleneck + 1}, ${names[bottleneck]}): ${change}. `,
    html('span', {class: 'gt-tl-why'}, stages.length === 1 ? 'With one stage nothing waits for another: the formula is exact.' : differenceSentence(schedule)),
    ` Bubble: ${formatNumber(schedule.bubbleFraction * 100)}% of GPU time idle (hatched). Light blocks are forwards, dark ` +
    'blocks backwards, numbered by micro-batch' +
    (schedule.sends === 'blocking' && stages.length > 1 ? '; grey in a row is a GPU waiting for its send to arrive' : '') +
    (transfersDrawn && stages.length > 1 ? '; the bars between rows are the transfers, activations going down and gradients coming back, one at a time on each link' : '') +
    (grouped ? '; purple is a stage\'s tensor all-reduces, and a stage of a group is drawn once for all its GPUs.' : '.') +
    (schedule.sync > 0 && schedule.replica === null ? ` The gradient sync (${formatMs(schedule.sync)}) follows the cool-down.` : ''),
  ];
  if (schedule.replica !== null) parts.push(html('span', {class: 'gt-tl-replica'}, replicaSentence(schedule)));
  if (schedule.mergedRange) {
    const {from, to} = schedule.mergedRange;
    parts.push(html('span', {class: 'gt-note'},
                    ` Drawn: micro-batches 1–${from} and ${to + 2}–${m} of ${formatNumber(m)} (${schedule.drawn.length} drawn); ` +
                    `the ${formatNumber(to - from + 1)} in between are merged into one band per stage.`));
  }
  return parts;
}

// What the drawing of one replica of several shows, and the sync phase after the last drain.
function replicaSentence(schedule) {
  const every = schedule.syncEvery > 1 ? `, paid once every ${formatNumber(schedule.syncEvery)} iterations (its share here)` : '';
  return ` Replica ${schedule.replica + 1} of ${formatNumber(schedule.replicaCount)} is drawn, on its ` +
    `${plural(schedule.microBatches, 'micro-batch', 'micro-batches')}` +
    (schedule.makespan >= schedule.drain - 1e-9 ? `: the one that drains last (${formatMs(schedule.makespan)})` :
      `, drained at ${formatMs(schedule.makespan)}; it waits for the last replica, at ${formatMs(schedule.drain)}`) +
    '. The others run alongside on their own GPUs. When every replica has drained, ' +
    `the gradient sync (${formatMs(schedule.sync)}) averages the replicas' gradients: ` +
    (schedule.sync - schedule.crossReplicaSync / schedule.syncEvery > 1e-9 ? 'each group\'s data shards, then ' : '') +
    `every stage's all-reduce across the replicas (${formatMs(schedule.crossReplicaSync)}${every}).`;
}
