// One iteration's 1F1B schedule: micro-batches (columns of blocks) flowing through the stages (rows),
// drawn as the flow shop whose makespan is the cost model's iteration time (see schedule.js), with
// the idle time shaded as the pipeline bubble and the warm-up / steady state / drain phases marked.
// By default stages run in lockstep at the bottleneck's pace (1F1B's steady state); options.schedule
// 'earliest' draws the earliest-start flow shop instead (same makespan, see schedule.js).
// Long runs are drawn as their first and last micro-batches with the steady middle merged and cut out
// of the time axis (marked by a break), so drawing stays cheap for thousands of micro-batches.

import {el, html, svgRoot, figure, emptyView, truncate, tip, round2, hatchPattern} from './svg.js';
import {colourScheme} from './colours.js';
import {stageMetrics, bottleneckOf, microBatchesOf, siteLabel, formatMs, formatPercent, formatNumber, plural,
        isError, noPlanMessage} from './format.js';
import {flowShop} from './schedule.js';
import {timeAxis, breakScale, phaseBands, legend} from './timeline-parts.js';
import {blockParts, syncPhase, TENSOR_FILL, SYNC_FILL} from './timeline-sync.js';
import {stageName, syncMsOf, planHasGroups} from './groups.js';

const WIDTH = 900;
const LEFT = 118;
const RIGHT = 80;
const PHASE_H = 30;
const AXIS_H = 34;
const LEGEND_H = 26;
const BLOCK_BUDGET = 4000;    // drawn blocks at most, whatever M and Q
const MAX_DRAWN = 64;         // micro-batches drawn at most
const TITLE_LIMIT = 800;      // per-block tooltips only while they stay cheap

export function renderTimeline(container, problem, result, options = {}) {
  const stages = stageMetrics(result);
  if (isError(result) || stages.length === 0) {
    return emptyView(container, 'gt-timeline', noPlanMessage(result));
  }
  const colours = colourScheme(problem);
  const m = microBatchesOf(problem, result);
  const shop = flowShop(stages.map((s) => s.stage_ms), m, options.schedule === 'earliest' ? 'earliest' : 'paced');
  const bottleneck = bottleneckOf(result);
  const q = stages.length;

  const cap = Math.min(MAX_DRAWN, Math.max(4, Math.floor(BLOCK_BUDGET / q)));
  const head = m <= cap ? m : Math.floor(cap / 2);
  const drawn = m <= cap ? range(0, m) : [...range(0, head), ...range(m - head, m)];
  const merged = m <= cap ? null : {from: head, to: m - head - 1}; // inclusive, 0-based

  const rowH = Math.max(0.8, Math.min(30, 420 / q));
  const plotTop = PHASE_H;
  const plotH = rowH * q;
  // With data shards the iteration ends with the gradient sync after the drain: the time axis runs
  // to pipeline + sync, the pipeline's own phases to the end of the drain.
  const sync = syncMsOf(result, stages);
  const span = sync > 0 ? {...shop, makespan: shop.makespan + sync} : shop;
  const names = stages.map((s) => stageName(problem, s));
  const x = breakScale(span, merged, LEFT, WIDTH - RIGHT);
  const height = plotTop + plotH + AXIS_H + LEGEND_H;

  const label = `1F1B timeline of ${plural(m, 'micro-batch', 'micro-batches')} over ${plural(q, 'stage')}: ` +
    `iteration ${formatMs(span.makespan)}${sync > 0 ? ` with a gradient sync of ${formatMs(sync)}` : ''}, bubble ${formatPercent(shop.bubbleFraction).replace('+', '')} idle`;
  const svg = svgRoot(WIDTH, height, label, 'gt-tl-svg');
  svg.setAttribute('data-total-ms', String(span.makespan));
  svg.setAttribute('data-pipeline-ms', String(shop.makespan));
  svg.setAttribute('data-sync-ms', String(sync));
  svg.setAttribute('data-schedule', shop.mode);
  svg.setAttribute('data-micro-batches', String(m));
  svg.setAttribute('data-drawn-micro-batches', String(drawn.length));
  const defs = svg.appendChild(el('defs'));
  const bubble = hatchPattern(defs, 'gt-tl-bubble', 'hsl(220 10% 70%)', 'hsl(220 20% 97%)', 5);

  const rowTop = (k) => plotTop + k * rowH;
  svg.appendChild(rowBackgrounds(stages, shop, x, rowTop, rowH, bottleneck, bubble));
  svg.appendChild(blocks(stages, shop, drawn, x, rowTop, rowH, colours, drawn.length * q <= TITLE_LIMIT));
  if (merged) svg.appendChild(mergedBands(stages, shop, merged, x, rowTop, rowH, colours));
  svg.appendChild(rowLabels(stages, names, shop, rowTop, rowH, bottleneck));
  svg.appendChild(phaseBands(shop, x, plotTop, plotH));
  if (sync > 0) svg.appendChild(syncPhase(stages, shop.makespan, sync, x, rowTop, rowH, plotTop, plotH));
  if (x.gap) svg.appendChild(breakMark(x, plotTop, plotH, merged));
  svg.appendChild(timeAxis(span, x, plotTop + plotH));
  const extra = [];
  if (stages.some((s) => s.tensor_parallel_ms > 0)) extra.push({label: 'tensor', attrs: {fill: TENSOR_FILL}});
  if (sync > 0) extra.push({label: 'grad sync', attrs: {fill: SYNC_FILL}});
  svg.appendChild(legend(LEFT, plotTop + plotH + AXIS_H + 14, bubble, extra));

  return figure(container, 'gt-timeline', svg,
                caption(stages, names, shop, x, bottleneck, m, drawn.length, merged, sync, planHasGroups(stages)));
}

function range(from, to) {
  const out = [];
  for (let i = from; i < to; i++) out.push(i);
  return out;
}

function rowBackgrounds(stages, shop, x, rowTop, rowH, bottleneck, bubble) {
  const group = el('g', {class: 'gt-tl-rows'});
  const x0 = x(0);
  const x1 = x(shop.makespan);
  stages.forEach((stage, k) => {
    const isB = k === bottleneck;
    group.appendChild(el('rect', {
      x: round2(x0), y: round2(rowTop(k)), width: round2(x1 - x0), height: round2(rowH),
      fill: bubble, class: `gt-tl-bubble${isB ? ' is-bottleneck' : ''}`, 'data-stage': k,
    }, tip(`Stage ${k + 1} (${stage.gpu}) idle ${formatMs(shop.makespan - shop.busy(k))} of ` +
           `${formatMs(shop.makespan)} (${formatNumber((1 - shop.busy(k) / shop.makespan) * 100)}%)`)));
  });
  const b = bottleneck;
  group.appendChild(el('rect', {x: round2(x0 - 2), y: round2(rowTop(b) - 1), width: round2(x1 - x0 + 4),
                                height: round2(rowH + 2), class: 'gt-tl-bottleneck-frame', fill: 'none'}));
  return group;
}


function blocks(stages, shop, drawn, x, rowTop, rowH, colours, withTitles) {
  const group = el('g', {class: 'gt-tl-blocks'});
  stages.forEach((stage, q) => {
    const parts = blockParts(stage);
    const y = round2(rowTop(q) + (rowH > 6 ? 1 : 0));
    const h = round2(rowH > 6 ? rowH - 2 : rowH);
    for (const i of drawn) {
      const t0 = shop.start(i, q);
      const t1 = shop.end(i, q);
      const x0 = x(t0);
      const width = x(t1) - x0;
      const block = el('g', {class: 'gt-tl-block', 'data-stage': q, 'data-micro-batch': i,
                             'data-start-ms': t0, 'data-end-ms': t1});
      if (width >= 8 && rowH >= 4) {
        let t = t0;
        for (const part of parts) {
          if (part.ms <= 0) continue;
          const px0 = x(t);
          t += part.ms;
          block.appendChild(el('rect', {x: round2(px0), y, width: round2(Math.max(0.3, x(t) - px0)), height: h,
                                        class: part.cls,
                                        fill: part.fill ?? (part.darken === null ? undefined : colours.gpu(stage.gpu, part.darken))}));
        }
      } else {
        block.appendChild(el('rect', {x: round2(x0), y, width: round2(Math.max(0.3, width)), height: h,
                                      class: 'gt-tl-whole', fill: colours.gpu(stage.gpu, 8)}));
      }
      if (width >= 18 && rowH >= 14) {
        block.appendChild(el('text', {x: round2(x0 + width / 2), y: round2(rowTop(q) + rowH / 2 + 4),
                                      'text-anchor': 'middle', class: 'gt-tl-mb'}, String(i + 1)));
      }
      if (withTitles) {
        block.appendChild(tip(`Micro-batch ${i + 1} on stage ${q + 1} (${stageName(null, stage)}): ` +
                              `${formatMs(t0)} to ${formatMs(t1)}`));
      }
      group.appendChild(block);
    }
  });
  return group;
}

function mergedBands(stages, shop, merged, x, rowTop, rowH, colours) {
  const group = el('g', {class: 'gt-tl-merged'});
  const count = merged.to - merged.from + 1;
  stages.forEach((stage, q) => {
    const t0 = shop.start(merged.from, q);
    const t1 = shop.end(merged.to, q);
    const busy = count * stage.stage_ms;
    group.appendChild(el('rect', {
      x: round2(x(t0)), y: round2(rowTop(q) + (rowH > 6 ? 1 : 0)), width: round2(Math.max(0.3, x(t1) - x(t0))),
      height: round2(rowH > 6 ? rowH - 2 : rowH), fill: colours.gpu(stage.gpu, 8), class: 'gt-tl-merged-band',
      'data-stage': q, 'fill-opacity': round2(0.15 + 0.75 * Math.min(1, busy / Math.max(1e-12, t1 - t0))),
    }, tip(`Micro-batches ${merged.from + 1} to ${merged.to + 1} on stage ${q + 1} (${stage.gpu}): ` +
           `busy ${formatMs(busy)} of ${formatMs(t1 - t0)}`)));
  });
  return group;
}

function rowLabels(stages, names, shop, rowTop, rowH, bottleneck) {
  const group = el('g', {class: 'gt-tl-labels'});
  const every = rowH >= 10 ? 1 : Math.ceil(12 / rowH);
  stages.forEach((stage, q) => {
    const isB = q === bottleneck;
    // Thin rows: every few rows gets a label, the bottleneck always, and none crowd the bottleneck's.
    const show = isB || ((q % every === 0 || q === stages.length - 1) && Math.abs(q - bottleneck) >= every);
    if (!show) return;
    const yMid = round2(rowTop(q) + rowH / 2 + 4);
    const name = rowH >= 10 ? `${q + 1} · ${truncate(names[q], 12)}` : `${q + 1}`;
    group.appendChild(el('text', {x: LEFT - 8, y: yMid, 'text-anchor': 'end',
                                  class: `gt-tl-row-label${isB ? ' is-bottleneck' : ''}`},
                         [name, tip(`Stage ${q + 1}: ${names[q]}, ${stage.type ?? ''} at ${siteLabel(stage.site)}, ` +
                                    `${formatMs(stage.stage_ms)} per micro-batch`)]));
    const idle = 1 - shop.busy(q) / shop.makespan;
    group.appendChild(el('text', {x: WIDTH - RIGHT + 6, y: yMid, class: `gt-tl-idle${isB ? ' is-bottleneck' : ''}`},
                         isB && rowH >= 10 ? 'bottleneck' : `${formatNumber(idle * 100)}% idle`));
  });
  group.appendChild(el('text', {x: LEFT - 8, y: PHASE_H - 8, 'text-anchor': 'end', class: 'gt-axis-title'}, 'stage'));
  return group;
}

function breakMark(x, top, height, merged) {
  const left = x.gap.x0;
  const right = x.gap.x1;
  const mid = (left + right) / 2;
  const zig = [];
  for (let y = top, k = 0; y <= top + height; y += 6, k++) zig.push(`${round2(mid + (k % 2 ? 4 : -4))},${round2(y)}`);
  return el('g', {class: 'gt-tl-break'}, [
    el('rect', {x: round2(left), y: top - 2, width: round2(right - left), height: round2(height + 4)}),
    el('polyline', {points: zig.join(' ')}),
    tip(`Axis break: ${formatMs(x.gap.t1 - x.gap.t0)} of steady state not drawn ` +
        `(micro-batches ${merged.from + 1} to ${merged.to + 1} are merged)`),
  ]);
}

function caption(stages, names, shop, x, bottleneck, m, drawnCount, merged, sync, grouped) {
  const sum = stages.reduce((s, st) => s + st.stage_ms, 0);
  const b = stages[bottleneck];
  const parts = [
    html('strong', null, `Iteration ${formatMs(shop.makespan + sync)}`),
    ` = stage times ${formatMs(sum)} + ${formatNumber(m - 1)} × bottleneck ${formatMs(b.stage_ms)} ` +
    `(stage ${bottleneck + 1}, ${names[bottleneck]})${sync > 0 ? ` + gradient sync ${formatMs(sync)} after the drain` : ''}. Bubble: ${formatNumber(shop.bubbleFraction * 100)}% of GPU time idle. ` +
    'Each block is one micro-batch\'s forward (light) and backward (dark) work on a stage with its sends (grey)' +
    (grouped ? ' and its tensor all-reduces (purple); a stage of a group is drawn once for all its GPUs. ' : '. ') +
    (shop.mode === 'paced' ? 'Stages keep the bottleneck\'s pace, as 1F1B does in its steady state; the total is ' +
      'the cost model\'s 1F1B formula.' : 'Every block starts as early as possible (flow shop); the total is the ' +
      'cost model\'s 1F1B formula.'),
  ];
  if (merged) {
    parts.push(html('span', {class: 'gt-note'},
                    ` Drawn: micro-batches 1–${merged.from} and ${merged.to + 2}–${m} of ${formatNumber(m)} ` +
                    `(${drawnCount} drawn); the ${formatNumber(merged.to - merged.from + 1)} in between are merged` +
                    (x.gap ? ' and the steady state is cut at the break.' : '.')));
  }
  return parts;
}
