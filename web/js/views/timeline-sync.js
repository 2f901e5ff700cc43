// The timeline's stage-group parts: the tensor-parallel all-reduces inside each block and the
// data-parallel gradient sync after the drain (stage-groups.md: T_iter = T_pipe + max_q dp_q, every
// stage's all-reduce at once). Plans of single GPUs have neither and draw as before.

import {el, round2, textWidth, tip} from './svg.js';
import {formatMs} from './format.js';

export const TENSOR_FILL = 'hsl(275 45% 62%)';
export const SYNC_FILL = 'hsl(32 85% 58%)';

/**
 * Parts of one block in drawing order: forward compute (1/3 of compute: gamma = 2 makes backward
 * twice the forward), its two tensor all-reduces (half of tp), activations sent on, backward compute
 * (2/3), its two all-reduces, gradients sent back.
 */
export function blockParts(stage) {
  const forward = stage.compute_ms / 3;
  const tensor = (stage.tensor_parallel_ms || 0) / 2;
  return [
    {ms: forward, cls: 'gt-tl-fwd', darken: 0},
    {ms: tensor, cls: 'gt-tl-tensor', darken: null, fill: TENSOR_FILL},
    {ms: stage.send_forward_ms || 0, cls: 'gt-tl-send', darken: null},
    {ms: stage.compute_ms - forward, cls: 'gt-tl-bwd', darken: 16},
    {ms: tensor, cls: 'gt-tl-tensor', darken: null, fill: TENSOR_FILL},
    {ms: stage.send_backward_ms || 0, cls: 'gt-tl-send', darken: null},
  ];
}

/** Each stage's gradient all-reduce from the end of the pipeline, and the phase band over them. */
export function syncPhase(stages, pipeEndMs, syncMs, x, rowTop, rowH, plotTop, plotH) {
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
  return group;
}
