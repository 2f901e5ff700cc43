// Uniform against non-uniform split on the same GPUs (studies.md point 4, the paper's Fig. 2b): one
// bar per plan for the iteration time, and under it each stage's time per micro-batch, so that the
// uniform split's straggler stage (which sets the pace of every micro-batch) stands out.
import { el, html, round2, svgRoot, truncate } from '../views/svg.js';
import { colourScheme } from '../views/colours.js';
import { formatEnergy, formatMs, formatNumber } from '../views/format.js';
import { asButton } from './chart.js';

const WIDTH = 720;
const LEFT = 150;
const RIGHT = 90;
const BAR_H = 26;
const STAGE_H = 70;
const ROW_H = BAR_H + STAGE_H + 64;
const SIDES = [
  ['uniform', 'Uniform split'],
  ['non_uniform', 'Planner\'s split'],
];
const isPlan = (p) => p && Number.isFinite(p.iteration_ms);

// breakdown: {uniform: [stage metrics], non_uniform: [...]} (each may be missing); problem for colours.
export function renderSplit(container, summary, { onSelect, breakdown = {}, problem }) {
  const selectIdOf = (key) => summary[key]?.job;
  const sides = SIDES.filter(([key]) => isPlan(summary[key]));
  if (sides.length === 0) {
    container.replaceChildren(html('figure', { class: 'st-view st-split' },
      html('p', { class: 'gt-empty-note' }, 'The planner\'s plan did not finish, so there is nothing to compare.')));
    return;
  }
  const colours = colourScheme(problem);
  const height = sides.length * ROW_H + 10;
  const svg = svgRoot(WIDTH, height, 'Iteration time and stage times of the uniform and the planner\'s split', 'st-chart st-split-chart');
  const maxT = Math.max(...sides.map(([key]) => summary[key].iteration_ms));
  const maxStage = Math.max(1e-9, ...sides.flatMap(([key]) => (breakdown[key] || []).map((s) => s.stage_ms)));
  const maxStages = Math.max(...sides.map(([key]) => (summary[key].stages || []).length), 1);
  sides.forEach(([key, name], row) => {
    const plan = summary[key];
    const group = el('g', { class: `st-split-row st-split-${key}`, transform: `translate(0 ${row * ROW_H + 6})`, 'data-side': key, 'data-t': plan.iteration_ms });
    const layers = (plan.stages || []).map((s) => s.layers).join('/');
    const label = `${name} (${layers} layers): ${formatMs(plan.iteration_ms)}, ${formatEnergy(plan.energy_j)}${plan.feasible === false ? ', does not fit in memory' : ''}`;
    group.appendChild(el('text', { class: 'st-split-name', x: 0, y: 17 }, name));
    group.appendChild(el('text', { class: 'st-split-layers', x: 0, y: 33 }, `${layers} layers`));
    const width = ((WIDTH - LEFT - RIGHT) * plan.iteration_ms) / maxT;
    const bar = el('g', { class: 'st-split-bar', 'data-job': selectIdOf(key) }, [
      el('rect', { class: `st-bar ${key === 'uniform' ? 'st-metis' : 'st-planner'}${plan.feasible === false ? ' is-infeasible' : ''}`, x: LEFT, y: 4, width: round2(Math.max(2, width)), height: BAR_H, rx: 3 }),
      el('text', { class: 'st-label', x: round2(LEFT + width + 6), y: 22 }, formatMs(plan.iteration_ms)),
    ]);
    const id = selectIdOf(key);
    group.appendChild(id ? asButton(bar, `Show the plan: ${label}`, () => onSelect(id, label)) : bar);
    if (plan.feasible === false) group.appendChild(el('text', { class: 'st-label st-bad', x: LEFT, y: BAR_H + 20 }, 'does not fit in memory'));
    group.appendChild(stageBars(breakdown[key], plan, maxStage, maxStages, colours));
    svg.appendChild(group);
  });
  const body = [html('div', { class: 'st-chart-box' }, svg)];
  body.push(html('figcaption', { class: 'gt-caption' }, captionText(summary, breakdown)));
  container.replaceChildren(html('figure', { class: 'st-view st-split' }, body));
}

// Each stage's time per micro-batch (compute and sends) as a column; the bottleneck in red.
function stageBars(metrics, plan, maxStage, maxStages, colours) {
  const group = el('g', { class: 'st-split-stages', transform: `translate(0 ${BAR_H + 26})` });
  if (!Array.isArray(metrics) || metrics.length === 0) {
    group.appendChild(el('text', { class: 'st-label gt-muted', x: LEFT, y: 20 }, (plan.stages || []).map((s) => `${s.gpu ?? `${s.gpus?.[0]} +${(s.gpus?.length ?? 1) - 1}`}: ${s.layers}`).join(' · ')));
    return group;
  }
  group.appendChild(el('text', { class: 'st-split-layers', x: 0, y: 14 }, 'stage time'));
  group.appendChild(el('text', { class: 'st-split-layers', x: 0, y: 28 }, 'per micro-batch'));
  const slot = Math.min(90, (WIDTH - LEFT - RIGHT) / maxStages);
  const bottleneck = Number.isInteger(plan.bottleneck_stage) ? plan.bottleneck_stage : metrics.reduce((b, s, q) => (s.stage_ms > metrics[b].stage_ms ? q : b), 0);
  metrics.forEach((stage, q) => {
    const h = Math.max(1, (STAGE_H * stage.stage_ms) / maxStage);
    const x = LEFT + q * slot;
    const isB = q === bottleneck;
    group.appendChild(el('g', { class: `st-stage${isB ? ' is-bottleneck' : ''}`, 'data-stage': q, 'data-gpu': stage.gpu, 'data-stage-ms': stage.stage_ms }, [
      el('rect', { x: round2(x + 4), y: round2(STAGE_H - h), width: round2(slot - 8), height: round2(h), fill: colours.gpu(stage.gpu), class: 'st-stage-bar' }),
      el('text', { class: 'st-label', x: round2(x + slot / 2), y: round2(STAGE_H - h - 4), 'text-anchor': 'middle' }, formatMs(stage.stage_ms)),
      el('text', { class: 'st-stage-name', x: round2(x + slot / 2), y: STAGE_H + 14, 'text-anchor': 'middle' }, `${truncate(stage.gpu, Math.floor(slot / 7))} · ${stage.layers}`),
      el('title', null, `Stage ${q + 1}: ${stage.gpu}, ${stage.layers} layers, ${formatMs(stage.stage_ms)} per micro-batch${isB ? ' (bottleneck: it sets the pace)' : ''}`),
    ]));
  });
  return group;
}

function captionText(summary, breakdown) {
  const parts = [];
  if (Array.isArray(summary.gpus)) parts.push(`The same ${summary.gpus.length} GPUs in the same order (${summary.gpus.join(', ')}). `);
  if (Number.isFinite(summary.gain_pct)) {
    parts.push(`The planner's split is ${formatNumber(summary.gain_pct)}% faster than the uniform one`);
    const stages = breakdown.uniform;
    const q = summary.uniform?.bottleneck_stage;
    if (Array.isArray(stages) && stages[q]) parts.push(`: with equal layers, stage ${q + 1} (${stages[q].gpu}) needs ${formatMs(stages[q].stage_ms)} per micro-batch and sets the pace.`);
    else parts.push('.');
  }
  if (summary.uniform?.feasible === false) parts.push(' The uniform split does not fit in memory.');
  if (summary.missing > 0) parts.push(` ${summary.missing} job${summary.missing === 1 ? '' : 's'} did not finish (cancelled).`);
  return parts.join('');
}
