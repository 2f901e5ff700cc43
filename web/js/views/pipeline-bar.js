// The plan as one horizontal bar over the layer axis 0..L (like the paper's Fig. 9): one block per
// stage, as wide as its layers, labelled with GPU, type and site; the bottleneck stage is marked.

import {el, html, svgRoot, figure, emptyView, linearScale, niceTicks, truncate, textWidth, tip, round2,
        hatchPattern, viewWidth} from './svg.js';
import {colourScheme} from './colours.js';
import {stageMetrics, bottleneckOf, microBatchesOf, totalLayersOf, siteLabel, formatMs, formatGiB, plural,
        isError, noPlanMessage} from './format.js';
import {stageName, stageGpus, isGroup, groupTypeText, degreesText, groupTipLines, gpuCountOf,
        syncMsOf} from './groups.js';

const MARGIN = {left: 12, right: 12};
const MARKER_H = 26;
const BAR_H = 76;
const AXIS_H = 34;
const LEGEND_H = 22;
const FONT = 11.5;

export function renderPipelineBar(container, problem, result) {
  const stages = stageMetrics(result);
  if (isError(result) || stages.length === 0) {
    return emptyView(container, 'gt-pipeline-bar', noPlanMessage(result));
  }
  const colours = colourScheme(problem);
  const layers = totalLayersOf(problem, stages);
  const bottleneck = bottleneckOf(result);
  // As wide as its box (up to 900 px): on a phone every stage is in view, the narrow ones numbered.
  const width = viewWidth(container);
  const x = linearScale(0, layers, MARGIN.left, width - MARGIN.right);
  const barTop = MARKER_H;
  const height = MARKER_H + BAR_H + AXIS_H + LEGEND_H;

  const label = `Pipeline of ${plural(stages.length, 'stage')} over ${plural(layers, 'layer')}; ` +
    `bottleneck stage ${bottleneck + 1} on ${stageName(problem, stages[bottleneck])}; iteration ${formatMs(result.iteration_ms)}`;
  const svg = svgRoot(width, height, label, 'gt-pb-svg');
  const defs = svg.appendChild(el('defs'));
  const hatch = hatchPattern(defs, 'gt-pb-hatch', 'hsl(0 75% 45% / 0.55)');

  let first = 0;
  stages.forEach((stage, q) => {
    const x0 = x(first);
    const x1 = x(first + stage.layers);
    first += stage.layers;
    svg.appendChild(stageBlock(problem, stage, q, x0, x1, barTop, colours, q === bottleneck, hatch));
  });
  svg.appendChild(bottleneckMarker(stages[bottleneck], bottleneck, stages, x, width));
  svg.appendChild(layerAxis(stages, layers, x, barTop + BAR_H));
  svg.appendChild(siteLegend(stages, colours, barTop + BAR_H + AXIS_H + 14, width));

  return figure(container, 'gt-pipeline-bar', svg, caption(problem, result, stages, bottleneck));
}

function stageBlock(problem, stage, q, x0, x1, top, colours, isBottleneck, hatch) {
  const width = Math.max(0.5, x1 - x0);
  const fits = stage.fits !== false;
  const classes = ['gt-pb-stage', isBottleneck && 'is-bottleneck', !fits && 'is-infeasible'].filter(Boolean);
  const group = el('g', {class: classes.join(' '), 'data-stage': q, 'data-gpu': stage.gpu,
                         'data-gpus': stageGpus(stage).length, 'data-tensor-parallel': stage.tensor_parallel ?? 1});
  group.appendChild(tip(stageTip(problem, stage, q, isBottleneck)));
  group.appendChild(el('rect', {x: round2(x0), y: top, width: round2(width), height: BAR_H, rx: 3,
                                fill: colours.gpu(stage.gpu), stroke: colours.site(stage.site),
                                'stroke-width': 1.2, class: 'gt-pb-block'}));
  if (!fits) {
    group.appendChild(el('rect', {x: round2(x0), y: top, width: round2(width), height: BAR_H, fill: hatch,
                                  class: 'gt-pb-overflow'}));
  }
  if (isBottleneck || !fits) {
    group.appendChild(el('rect', {x: round2(x0 + 1.5), y: top + 1.5, width: round2(Math.max(0.5, width - 3)),
                                  height: BAR_H - 3, rx: 2, fill: 'none',
                                  class: isBottleneck ? 'gt-pb-bottleneck-outline' : 'gt-pb-infeasible-outline'}));
  }
  // A group shows its size and degrees where a GPU shows its site (the outline colour and the
  // legend still say the site).
  const lines = isGroup(stage) ? [
    {text: stageName(problem, stage), cls: 'gt-pb-gpu'},
    {text: compactDegrees(stage), cls: 'gt-pb-degrees'},
    {text: groupTypeText(stage), cls: 'gt-pb-type'},
    {text: `${plural(stage.layers, 'layer')}`, cls: 'gt-pb-layers'},
  ] : [
    {text: stage.gpu, cls: 'gt-pb-gpu'},
    {text: stage.type ?? '', cls: 'gt-pb-type'},
    {text: siteLabel(stage.site), cls: 'gt-pb-site'},
    {text: `${plural(stage.layers, 'layer')}`, cls: 'gt-pb-layers'},
  ];
  // Characters that fit: the bold id line is wider per character (and capitals/markup run wide).
  const maxChars = Math.floor((width - 10) / (FONT * 0.6));
  const maxIdChars = Math.floor((width - 10) / (12.5 * 0.68));
  if (maxChars >= 3) {
    const text = el('text', {x: round2(x0 + 5), y: top + 17, class: 'gt-pb-label'});
    lines.forEach((line, k) => {
      text.appendChild(el('tspan', {x: round2(x0 + 5), dy: k === 0 ? 0 : 17, class: line.cls},
                          truncate(line.text, k === 0 ? maxIdChars : maxChars)));
    });
    group.appendChild(text);
  } else if (width >= 12) {
    group.appendChild(el('text', {x: round2(x0 + width / 2), y: top + BAR_H / 2 + 4, 'text-anchor': 'middle',
                                  class: 'gt-pb-index'}, String(q + 1)));
  }
  return group;
}

// "TP4×DP2": a narrow block's degrees (the tooltip and the stage table spell them out).
const compactDegrees = (stage) => degreesText(stage).replace(/ /g, '');

function stageTip(problem, stage, q, isBottleneck) {
  const parts = [`Stage ${q + 1}${isBottleneck ? ' (bottleneck)' : ''}: ${stageName(problem, stage)}`,
    `${isGroup(stage) ? groupTypeText(stage) : stage.type ?? 'unknown type'} at ${siteLabel(stage.site)}`,
    `${plural(stage.layers, 'layer')}, ${formatMs(stage.stage_ms)} per micro-batch`, ...groupTipLines(stage, formatMs)];
  if (Number.isFinite(stage.memory_gib)) {
    parts.push(`memory ${formatGiB(stage.memory_gib)} of ${formatGiB(stage.memory_limit_gib)}` +
               (stage.fits === false ? ' (does not fit)' : ''));
  }
  return parts.join('\n');
}

function bottleneckMarker(stage, q, stages, x, width) {
  const before = stages.slice(0, q).reduce((sum, s) => sum + s.layers, 0);
  const centre = x(before + stage.layers / 2);
  const text = `bottleneck: ${formatMs(stage.stage_ms)} per micro-batch`;
  const half = textWidth(text, FONT) / 2;
  const tx = Math.min(Math.max(centre, MARGIN.left + half), width - MARGIN.right - half);
  return el('g', {class: 'gt-pb-marker'}, [
    el('path', {d: `M${round2(centre - 6)},${MARKER_H - 9} L${round2(centre + 6)},${MARKER_H - 9} ` +
                   `L${round2(centre)},${MARKER_H - 2} Z`, class: 'gt-pb-marker-arrow'}),
    el('text', {x: round2(tx), y: MARKER_H - 13, 'text-anchor': 'middle', class: 'gt-pb-marker-text'}, text),
  ]);
}

function layerAxis(stages, layers, x, top) {
  const group = el('g', {class: 'gt-axis gt-pb-axis'});
  group.appendChild(el('line', {x1: x(0), x2: x(layers), y1: top + 0.5, y2: top + 0.5}));
  let ticks;
  if (stages.length <= 24) {
    const bounds = [0];
    stages.reduce((sum, s) => { bounds.push(sum + s.layers); return sum + s.layers; }, 0);
    // Stage boundaries closer than their labels' widths would overlap: keep the first of each
    // crowd, and the last (L) always, dropping the kept one before it when they would touch.
    const room = (a, b) => x(b) - x(a) >= (textWidth(String(a), 11) + textWidth(String(b), 11)) / 2 + 6;
    ticks = [];
    for (const t of bounds) if (ticks.length === 0 || room(ticks[ticks.length - 1], t)) ticks.push(t);
    if (ticks[ticks.length - 1] !== layers) {
      while (ticks.length > 1 && !room(ticks[ticks.length - 1], layers)) ticks.pop();
      ticks.push(layers);
    }
  } else {
    ticks = niceTicks(0, layers, 10).filter((t) => Number.isInteger(t));
  }
  for (const t of ticks) {
    group.appendChild(el('line', {x1: round2(x(t)), x2: round2(x(t)), y1: top, y2: top + 5}));
    group.appendChild(el('text', {x: round2(x(t)), y: top + 17, 'text-anchor': 'middle'}, String(t)));
  }
  group.appendChild(el('text', {x: x(layers), y: top + 30, 'text-anchor': 'end', class: 'gt-axis-title'},
                       'layer'));
  return group;
}

function siteLegend(stages, colours, y, drawingWidth) {
  const used = [...new Set(stages.map((s) => (s.site === undefined ? '' : String(s.site))))];
  const group = el('g', {class: 'gt-legend'});
  let cursor = MARGIN.left;
  const limit = drawingWidth - MARGIN.right;
  for (const [k, site] of used.entries()) {
    const name = truncate(siteLabel(site), 28);
    const width = 16 + textWidth(name, FONT) + 18;
    // Room for this site, and for "+N more" after it when sites are left: else "+N more" here.
    const more = (n) => `+${n} more`;
    const after = k + 1 < used.length ? textWidth(more(used.length - k - 1), FONT) + 4 : 0;
    if (cursor + width + after > limit) {
      group.appendChild(el('text', {x: cursor, y}, [more(used.length - k),
        tip(used.slice(k).map(siteLabel).join(', '))]));
      break;
    }
    group.appendChild(el('rect', {x: cursor, y: y - 10, width: 11, height: 11, rx: 2, fill: colours.siteLight(site),
                                  stroke: colours.site(site), 'stroke-width': 2}));
    group.appendChild(el('text', {x: cursor + 16, y}, [name, tip(siteLabel(site))]));
    cursor += width;
  }
  return group;
}

function caption(problem, result, stages, bottleneck) {
  const gpus = gpuCountOf(stages);
  const b = stages[bottleneck];
  const parts = [
    html('strong', null, `Iteration ${formatMs(result.iteration_ms)}`),
    ` · ${plural(stages.length, 'stage')} on ${plural(gpus, 'GPU')}`,
    ` · ${plural(microBatchesOf(problem, result), 'micro-batch', 'micro-batches')}`,
    ` · bottleneck: stage ${bottleneck + 1} (${stageName(problem, b)}, ${formatMs(b.stage_ms)} per micro-batch)`,
  ];
  const sync = syncMsOf(result, stages);
  if (sync > 0) parts.push(` · gradient sync ${formatMs(sync)} after the drain`);
  const over = stages.filter((s) => s.fits === false).length;
  if (over > 0 || result.feasible === false) {
    parts.push(html('span', {class: 'gt-bad'},
                    ` · infeasible: ${plural(over, 'stage')} over memory`));
  }
  return parts;
}
