// The timeline of a replica plan: one lane per replica with its pipeline (its share of the
// micro-batches in 1F1B), its wait for the slowest replica, the gradient sync inside the replicas'
// groups and then the cross-replica sync phase, when every stage's gradients are all-reduced over
// the ring of replicas (replicas.md: T_iter = max_r T_pipe,r + max dp + T_xsync / H). Below, a
// replica chooser and that replica's own 1F1B schedule, drawn by the one-pipeline timeline.

import {el, html, svgRoot, figure, emptyView, linearScale, truncate, tip, round2, hatchPattern, textWidth} from './svg.js';
import {formatMs, plural} from './format.js';
import {timeAxis} from './timeline-parts.js';
import {SYNC_FILL} from './timeline-sync.js';
import {renderTimeline} from './timeline.js';
import {replicaChooser} from './replica-chooser.js';
import {isReplicaResult, replicaResult, replicaName, replicaColour, replicaSyncMs, paceSetter, syncPhases}
  from './replica-plan.js';

const WIDTH = 900;
const LEFT = 150;
const RIGHT = 24;
const PHASE_H = 30;
const AXIS_H = 38;
export const CROSS_FILL = 'hsl(190 65% 42%)';

// options.simulate (the module's simulation of the whole plan, as for one pipeline): the chosen
// replica's 1F1B schedule is then the simulated one, with the sync phase after every drain.
export function renderReplicaTimeline(container, problem, result, options = {}) {
  if (!isReplicaResult(result)) return emptyView(container, 'gt-replica-timeline', 'Not a plan of replicas.');
  const R = result.replicas.length;
  const {pipelines, groups, cross, H, perIteration} = syncPhases(result);
  const total = pipelines + groups + perIteration;
  const rowH = R <= 12 ? 24 : R <= 32 ? 16 : 12;
  const plotTop = PHASE_H;
  const plotH = R * rowH;
  const height = plotTop + plotH + AXIS_H + 22;
  const x = linearScale(0, total, LEFT, WIDTH - RIGHT);
  x.segments = [[0, total]];
  const slowest = paceSetter(result);
  const label = `Iteration of ${plural(R, 'replica')}: pipelines up to ${formatMs(pipelines)}, ` +
    `${groups > 0 ? `gradient sync inside the replicas ${formatMs(groups)}, ` : ''}cross-replica sync ${formatMs(perIteration)}` +
    `${H > 1 ? ` (${formatMs(cross)} every ${H} iterations)` : ''}; iteration ${formatMs(total)}`;
  const svg = svgRoot(WIDTH, height, label, 'gt-rt-svg');
  svg.setAttribute('data-total-ms', String(total));
  svg.setAttribute('data-pipelines-ms', String(pipelines));
  svg.setAttribute('data-cross-replica-ms', String(perIteration));
  const defs = svg.appendChild(el('defs'));
  const idle = hatchPattern(defs, 'gt-rt-idle', 'hsl(220 10% 72%)', 'hsl(220 20% 97%)', 5);

  const lanes = el('g', {class: 'gt-rt-lanes'});
  result.replicas.forEach((replica, r) => {
    const y = plotTop + r * rowH;
    const h = rowH - (rowH > 14 ? 4 : 2);
    const lane = el('g', {class: `gt-rt-lane${r === slowest ? ' is-slowest' : ''}`, 'data-replica': r});
    const pipe = replica.pipeline_ms ?? 0;
    lane.appendChild(el('rect', {x: round2(x(0)), y, width: round2(Math.max(0.5, x(pipe) - x(0))), height: h, rx: 2,
                                 fill: replicaColour(r, 62), class: 'gt-rt-pipeline'},
                        tip(`${replicaName(replica, r)}: pipeline ${formatMs(pipe)} for ${plural(replica.micro_batches, 'micro-batch', 'micro-batches')}`)));
    if (pipelines - pipe > 0) {
      lane.appendChild(el('rect', {x: round2(x(pipe)), y, width: round2(x(pipelines) - x(pipe)), height: h, fill: idle,
                                   class: 'gt-rt-wait'}, tip(`Replica ${r + 1} waits ${formatMs(pipelines - pipe)} for the slowest replica`)));
    }
    const own = replicaSyncMs(replica);
    if (own > 0) {
      lane.appendChild(el('rect', {x: round2(x(pipelines)), y, width: round2(Math.max(0.5, x(pipelines + own) - x(pipelines))), height: h,
                                   fill: SYNC_FILL, class: 'gt-rt-group-sync'}, tip(`Replica ${r + 1}: gradient sync inside its groups ${formatMs(own)}`)));
    }
    if (perIteration > 0) {
      lane.appendChild(el('rect', {x: round2(x(pipelines + groups)), y, width: round2(Math.max(0.5, x(total) - x(pipelines + groups))), height: h,
                                   fill: CROSS_FILL, class: 'gt-rt-cross'}, tip(`Cross-replica sync: ${formatMs(perIteration)} per iteration`)));
    }
    const name = rowH >= 16 ? truncate(replicaName(replica, r), 20) : `R${r + 1}`;
    if (rowH >= 12 && (rowH >= 16 || r % Math.ceil(14 / rowH) === 0 || r === slowest)) {
      lane.appendChild(el('text', {x: LEFT - 8, y: round2(y + h / 2 + 4), 'text-anchor': 'end', 'font-size': 11,
                                   class: `gt-rt-name${r === slowest ? ' is-slowest' : ''}`}, name));
    }
    if (x(pipe) - x(0) > 70 && rowH >= 16) {
      lane.appendChild(el('text', {x: round2(x(0) + 5), y: round2(y + h / 2 + 4), 'font-size': 11, class: 'gt-rt-label'},
                           truncate(`${formatMs(pipe)} · ${replica.micro_batches} mb`, Math.floor((x(pipe) - x(0) - 10) / 6.4))));
    }
    lanes.appendChild(lane);
  });
  svg.appendChild(lanes);
  svg.appendChild(phases(x, pipelines, groups, total, plotTop, plotH, H));
  svg.appendChild(timeAxis(x, plotTop + plotH, total, 0, `${formatMs(total)} = iteration`));
  svg.appendChild(el('text', {x: LEFT - 8, y: PHASE_H - 8, 'text-anchor': 'end', class: 'gt-axis-title'}, 'replica'));
  svg.appendChild(legendRow(LEFT, plotTop + plotH + AXIS_H + 12, idle, groups > 0));

  const chooser = replicaChooser(result, (r, body) => {
    if (typeof options.simulate === 'function') {
      renderTimeline(body, problem, result, {...options, replica: r});
      return;
    }
    const own = replicaResult(result, r);
    renderTimeline(body, problem, own);
    // Its caption's total is this replica's pipeline (and its groups' sync), not the iteration.
    const total = body.querySelector('figcaption strong');
    if (total) total.textContent = `Replica ${r + 1}: ${formatMs(own.iteration_ms)}`;
    const end = body.querySelector('.gt-tl-total');
    if (end) end.textContent = `${formatMs(own.iteration_ms)} = replica ${r + 1}`;
  }, {label: '1F1B schedule of', name: 'timeline'});
  const note = html('p', {class: 'gt-note'}, 'Below: the chosen replica\'s own 1F1B schedule, its share of the micro-batches on its stages. The whole iteration adds the cross-replica sync drawn above.');
  const overall = html('p', {class: 'gt-caption gt-rt-caption'}, caption(result, pipelines, groups, cross, H, perIteration, total, slowest));
  return figure(container, 'gt-replica-timeline', [svg, overall, chooser.element, note, chooser.body]);
}

function phases(x, pipelines, groups, total, top, height, H) {
  const group = el('g', {class: 'gt-tl-phases gt-rt-phases'});
  const items = [
    {name: 'pipelines', t0: 0, t1: pipelines, fill: 'hsl(212 40% 92%)'},
    {name: 'grad sync', t0: pipelines, t1: pipelines + groups, fill: 'hsl(32 90% 90%)'},
    {name: H > 1 ? `cross-replica sync ÷ ${H}` : 'cross-replica sync', t0: pipelines + groups, t1: total, fill: 'hsl(190 60% 88%)', cls: 'is-cross'},
  ];
  for (const phase of items) {
    if (phase.t1 - phase.t0 <= 0) continue;
    const x0 = x(phase.t0);
    const x1 = x(phase.t1);
    const band = el('g', {class: `gt-tl-phase gt-rt-phase ${phase.cls ?? ''}`, 'data-phase': phase.name});
    band.appendChild(el('rect', {x: round2(x0), y: top - 22, width: round2(Math.max(0.5, x1 - x0)), height: 16, rx: 2, fill: phase.fill}));
    const text = x1 - x0 >= textWidth(phase.name, 11) + 8 ? phase.name : x1 - x0 >= textWidth('sync', 11) + 6 ? phase.name.split(' ').pop() : '';
    if (text) band.appendChild(el('text', {x: round2((x0 + x1) / 2), y: top - 10, 'text-anchor': 'middle'}, text));
    band.appendChild(tip(`${phase.name}: ${formatMs(phase.t0)} to ${formatMs(phase.t1)}`));
    group.appendChild(band);
    if (phase.t0 > 0) group.appendChild(el('line', {x1: round2(x0), x2: round2(x0), y1: top - 6, y2: top + height, class: 'gt-tl-phase-line'}));
  }
  return group;
}

function legendRow(left, y, idle, withGroups) {
  const items = [
    {label: 'pipeline', fill: replicaColour(0, 62)},
    {label: 'waits for the slowest', fill: idle},
    ...(withGroups ? [{label: 'grad sync in replica', fill: SYNC_FILL}] : []),
    {label: 'cross-replica sync', fill: CROSS_FILL},
  ];
  const group = el('g', {class: 'gt-legend'});
  let cursor = left;
  for (const item of items) {
    group.appendChild(el('rect', {x: cursor, y: y - 10, width: 14, height: 11, rx: 1, fill: item.fill, stroke: 'hsl(220 10% 70%)'}));
    group.appendChild(el('text', {x: cursor + 19, y}, item.label));
    cursor += 19 + textWidth(item.label, 12) + 18;
  }
  return group;
}

function caption(result, pipelines, groups, cross, H, perIteration, total, slowest) {
  return [
    html('strong', null, `Iteration ${formatMs(total)}`),
    (slowest < 0 ? ` = every replica's pipeline ${formatMs(pipelines)}` : ` = slowest pipeline ${formatMs(pipelines)} (replica ${slowest + 1})`) +
    (groups > 0 ? ` + gradient sync inside the replicas ${formatMs(groups)}` : '') +
    ` + cross-replica sync ${formatMs(cross)}${H > 1 ? ` every ${H} iterations, ${formatMs(perIteration)} per iteration` : ''}. ` +
    'In the cross-replica sync each stage\'s gradients go round the ring of the replicas that hold it; ' +
    'over a wide-area link every stage\'s ring shares the site pipe (see the topology). The sync does not overlap the backward pass in this model.',
  ];
}
