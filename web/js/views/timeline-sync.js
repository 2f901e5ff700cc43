// The timeline's stage-group parts: the tensor-parallel all-reduces inside each forward and backward
// and the data-parallel gradient sync after the drain (stage-groups.md: T_iter = T_pipe + max_q dp_q,
// every stage's all-reduce at once). Plans of single GPUs have neither.

import {el, round2, textWidth, tip} from './svg.js';
import {formatMs} from './format.js';

export const TENSOR_FILL = 'hsl(275 45% 62%)';
export const SYNC_FILL = 'hsl(32 85% 58%)';

/**
 * Parts of one forward or backward in drawing order: its compute, then its tensor-parallel
 * all-reduces (two of the four per layer each way: half of tp_q). `durationMs` is the simulated
 * operation's length; a stage of one GPU has no tensor part.
 */
export function operationParts(stage, durationMs) {
  const tensor = Math.min(durationMs, (stage.tensor_parallel_ms || 0) / 2);
  return [
    {ms: durationMs - tensor, tensor: false},
    {ms: tensor, tensor: true},
  ];
}

/**
 * Each stage's gradient all-reduce from the end of the pipeline, and the phase band over them. With
 * replicas, `crossMs` (T_xsync / sync_every) closes the phase: every stage's all-reduce across the
 * replicas, after the data-parallel syncs.
 */
export function syncPhase(stages, pipeEndMs, syncMs, x, rowTop, rowH, plotTop, plotH, crossMs = 0) {
  const group = el('g', {class: 'gt-tl-sync', 'data-sync-ms': syncMs});
  const x0 = x(pipeEndMs);
  const x1 = x(pipeEndMs + syncMs);
  const band = el('g', {class: 'gt-tl-phase is-sync', 'data-phase': 'gradient sync'});
  band.appendChild(el('rect', {x: round2(x0), y: plotTop - 22, width: round2(Math.max(0.5, x1 - x0)), height: 16, rx: 2,
                               fill: 'hsl(32 90% 90%)'}));
  const name = x1 - x0 >= textWidth('gradient sync', 11) + 8 ? 'gradient sync' : x1 - x0 >= textWidth('sync', 11) + 6 ? 'sync' : '';
  if (name) band.appendChild(el('text', {x: round2((x0 + x1) / 2), y: plotTop - 10, 'text-anchor': 'middle'}, name));
  band.appendChild(el('title', null, `gradient sync: ${formatMs(pipeEndMs)} to ${formatMs(pipeEndMs + syncMs)}, ` +
                                     'every stage\'s data shards all-reduce their gradients at once'));
  group.appendChild(band);
  group.appendChild(el('line', {x1: round2(x0), x2: round2(x0), y1: plotTop - 6, y2: plotTop + plotH,
                                class: 'gt-tl-phase-line'}));
  stages.forEach((stage, q) => {
    const ms = stage.data_parallel_sync_ms || 0;
    if (!(ms > 0)) return;
    group.appendChild(el('rect', {x: round2(x0), y: round2(rowTop(q) + (rowH > 6 ? 1 : 0)),
                                  width: round2(Math.max(0.3, x(pipeEndMs + ms) - x0)),
                                  height: round2(rowH > 6 ? rowH - 2 : rowH), fill: SYNC_FILL,
                                  class: 'gt-tl-sync-block', 'data-stage': q},
                         tip(`Stage ${q + 1}: gradient sync ${formatMs(ms)}`)));
  });
  if (crossMs > 0) {
    const t0 = pipeEndMs + Math.max(0, syncMs - crossMs);
    stages.forEach((stage, q) => {
      group.appendChild(el('rect', {x: round2(x(t0)), y: round2(rowTop(q) + (rowH > 6 ? 1 : 0)),
                                    width: round2(Math.max(0.3, x(pipeEndMs + syncMs) - x(t0))),
                                    height: round2(rowH > 6 ? rowH - 2 : rowH), fill: SYNC_FILL, 'fill-opacity': 0.7,
                                    class: 'gt-tl-xsync-block', 'data-stage': q},
                           tip(`Stage ${q + 1}: its gradient all-reduced across the replicas, ${formatMs(crossMs)}`)));
    });
  }
  return group;
}
