// The pipeline view of a replica plan: one bar per replica over the layer axis (every replica holds
// the same stage template, so the blocks line up), its stages coloured by GPU with the site as
// outline, and beside it the replica's share of the micro-batches and its pipeline time. The
// slowest replica sets the pace and is marked.

import {el, html, svgRoot, figure, emptyView, linearScale, truncate, tip, round2} from './svg.js';
import {colourScheme} from './colours.js';
import {formatMs, plural, siteLabel, totalLayersOf} from './format.js';
import {stageName, groupTypeText, degreesText, isGroup, gpuCountOf} from './groups.js';
import {isReplicaResult, replicaStages, replicaName, replicaColour, slowestReplica, paceSetter, syncPhases,
        totalMicroBatches} from './replica-plan.js';

const WIDTH = 900;
const LEFT = 170;      // replica name and share
const RIGHT = 96;      // pipeline time
const AXIS_H = 30;
const FONT = 11.5;

export function renderReplicaBars(container, problem, result) {
  if (!isReplicaResult(result)) return emptyView(container, 'gt-replica-bars', 'Not a plan of replicas.');
  const R = result.replicas.length;
  const colours = colourScheme(problem);
  const template = replicaStages(result.replicas[0]);
  const layers = totalLayersOf(problem, template);
  const M = totalMicroBatches(result);
  const slowest = slowestReplica(result);
  const rowH = R <= 12 ? 42 : R <= 32 ? 26 : 20;
  const top = 22;
  const height = top + R * rowH + AXIS_H;
  const x = linearScale(0, layers, LEFT, WIDTH - RIGHT);
  const label = `${plural(R, 'replica')} of ${plural(template.length, 'stage')} over ${plural(layers, 'layer')}, ` +
    `${plural(M, 'micro-batch', 'micro-batches')} shared; slowest replica ${slowest + 1} at ${formatMs(result.replicas[slowest].pipeline_ms)}`;
  const svg = svgRoot(WIDTH, height, label, 'gt-rb-svg');
  svg.appendChild(el('text', {x: 8, y: 14, class: 'gt-axis-title'}, 'replica · micro-batch share'));
  svg.appendChild(el('text', {x: WIDTH - 8, y: 14, 'text-anchor': 'end', class: 'gt-axis-title'}, 'pipeline'));
  result.replicas.forEach((replica, r) => {
    svg.appendChild(replicaRow(problem, replica, r, top + r * rowH, rowH, x, colours, M, r === paceSetter(result)));
  });
  svg.appendChild(layerAxis(template, layers, x, top + R * rowH));
  return figure(container, 'gt-replica-bars', svg, caption(problem, result, slowest, M));
}

function replicaRow(problem, replica, r, y, rowH, x, colours, M, isSlowest) {
  const stages = replicaStages(replica);
  const barH = rowH - 8;
  const share = M > 0 ? replica.micro_batches / M : 0;
  const g = el('g', {class: `gt-rb-replica${isSlowest ? ' is-slowest' : ''}`, 'data-replica': r,
                     'data-micro-batches': replica.micro_batches, 'data-pipeline-ms': replica.pipeline_ms});
  g.appendChild(tip(`${replicaName(replica, r)}: ${plural(replica.micro_batches, 'micro-batch', 'micro-batches')} ` +
                    `(${(share * 100).toFixed(1)}% of ${M}), ${plural(gpuCountOf(stages), 'GPU')}, pipeline ${formatMs(replica.pipeline_ms)}` +
                    (isSlowest ? ' (the slowest: it sets the pace)' : '')));
  // Name, then the share as a small bar with its count.
  const nameY = rowH >= 40 ? y + 15 : y + rowH / 2 + 4;
  g.appendChild(el('rect', {x: 4, y: y + 3, width: 5, height: rowH - 6, rx: 2, fill: replicaColour(r)}));
  g.appendChild(el('text', {x: 14, y: nameY, class: 'gt-rb-name', 'font-size': FONT, 'font-weight': 600},
                   truncate(replicaName(replica, r), rowH >= 40 ? 24 : 13)));
  const shareX = rowH >= 40 ? 14 : 100;
  const shareY = rowH >= 40 ? y + 24 : y + rowH / 2 - 4;
  const shareW = rowH >= 40 ? 70 : 26;
  g.appendChild(el('rect', {x: shareX, y: shareY, width: shareW, height: 8, rx: 2, class: 'gt-rb-share-track', fill: 'hsl(220 15% 90%)'}));
  g.appendChild(el('rect', {x: shareX, y: shareY, width: round2(Math.max(1, shareW * share)), height: 8, rx: 2,
                            class: 'gt-rb-share', fill: replicaColour(r)}));
  g.appendChild(el('text', {x: shareX + shareW + 5, y: shareY + 8, 'font-size': 11, class: 'gt-rb-share-text'},
                   rowH >= 40 ? `${replica.micro_batches} / ${M}` : `${replica.micro_batches}`));
  // The stages.
  let first = 0;
  stages.forEach((stage, q) => {
    const x0 = x(first);
    const x1 = x(first + stage.layers);
    first += stage.layers;
    const w = Math.max(0.5, x1 - x0);
    const block = el('g', {class: 'gt-rb-stage', 'data-stage': q});
    block.appendChild(el('rect', {x: round2(x0), y: y + 4, width: round2(w), height: barH, rx: 3,
                                  fill: colours.gpu(stage.gpu), stroke: colours.site(stage.site), 'stroke-width': 1.2}));
    if (q === replica.bottleneck_stage) {
      block.appendChild(el('rect', {x: round2(x0 + 1.5), y: y + 5.5, width: round2(Math.max(0.5, w - 3)), height: barH - 3, rx: 2,
                                    fill: 'none', class: 'gt-pb-bottleneck-outline'}));
    }
    const text = isGroup(stage) ? `${stageName(problem, stage)} · ${degreesText(stage).replace(/ /g, '')}` : `${stage.gpu} · ${stage.type ?? ''}`;
    const chars = Math.floor((w - 8) / (FONT * 0.6));
    if (chars >= 3) {
      block.appendChild(el('text', {x: round2(x0 + 4), y: round2(y + 4 + barH / 2 + 4), 'font-size': FONT, class: 'gt-rb-stage-label'},
                           truncate(text, chars)));
    }
    block.appendChild(tip(`Replica ${r + 1}, stage ${q + 1}${q === replica.bottleneck_stage ? ' (its bottleneck)' : ''}: ` +
                          `${stageName(problem, stage)}, ${isGroup(stage) ? groupTypeText(stage) : stage.type ?? ''} at ${siteLabel(stage.site)}, ` +
                          `${plural(stage.layers, 'layer')}, ${formatMs(stage.stage_ms)} per micro-batch`));
    g.appendChild(block);
  });
  g.appendChild(el('text', {x: WIDTH - 8, y: y + rowH / 2 + 4, 'text-anchor': 'end', 'font-size': FONT,
                            class: `gt-rb-time${isSlowest ? ' is-slowest' : ''}`, 'font-weight': isSlowest ? 700 : 400},
                   formatMs(replica.pipeline_ms)));
  if (isSlowest && rowH >= 26) {
    g.appendChild(el('rect', {x: 1, y: y + 1, width: WIDTH - 2, height: rowH - 2, rx: 4, fill: 'none', class: 'gt-rb-slowest-frame'}));
  }
  return g;
}

function layerAxis(template, layers, x, top) {
  const group = el('g', {class: 'gt-axis gt-pb-axis'});
  group.appendChild(el('line', {x1: x(0), x2: x(layers), y1: top + 0.5, y2: top + 0.5}));
  const ticks = [0];
  template.reduce((sum, s) => { ticks.push(sum + s.layers); return sum + s.layers; }, 0);
  const shown = [...new Set(ticks)].filter((t, k, all) => k === 0 || t === layers || x(t) - x(all[k - 1]) >= 18);
  for (const t of shown) {
    group.appendChild(el('line', {x1: round2(x(t)), x2: round2(x(t)), y1: top, y2: top + 5}));
    group.appendChild(el('text', {x: round2(x(t)), y: top + 17, 'text-anchor': 'middle'}, String(t)));
  }
  group.appendChild(el('text', {x: LEFT - 8, y: top + 17, 'text-anchor': 'end', class: 'gt-axis-title'}, 'layer'));
  return group;
}

function caption(problem, result, slowest, M) {
  const {pipelines, groups, cross, H, perIteration} = syncPhases(result);
  const R = result.replicas.length;
  const parts = [
    html('strong', null, `Iteration ${formatMs(result.iteration_ms)}`),
    paceSetter(result) < 0 ? ` = every replica's pipeline ${formatMs(pipelines)}` : ` = slowest pipeline ${formatMs(pipelines)} (replica ${slowest + 1})`,
    groups > 0 ? ` + gradient sync inside the replicas ${formatMs(groups)}` : '',
    ` + cross-replica sync ${formatMs(cross)}${H > 1 ? ` ÷ ${H} (every ${H} iterations) = ${formatMs(perIteration)}` : ''}. `,
    `${plural(R, 'replica')} on ${plural(result.gpus_used ?? 0, 'GPU')} share the ${plural(M, 'micro-batch', 'micro-batches')}; ` +
    'stage q of every replica holds the same layers, and each replica may use GPUs of its own.',
  ];
  if (result.feasible === false) parts.push(html('span', {class: 'gt-bad'}, ' Some stage does not fit in memory.'));
  return parts;
}
