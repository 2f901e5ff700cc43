// Pipeline-only against stage groups on the same pool (core/STUDIES.md, parallelism): one bar per
// side for the iteration time, with its energy, GPUs used and stages, and a table of both; choosing
// a side shows its plan in the plan views.
import { el, html, round2, svgRoot } from '../views/svg.js';
import { formatEnergy, formatMs, formatNumber } from '../views/format.js';
import { asButton } from './chart.js';

const WIDTH = 720;
const LEFT = 150;
const RIGHT = 110;
const BAR_H = 28;
const ROW_H = 78;
const SIDES = [
  ['pipeline', 'Pipeline only', 'st-metis'],
  ['hybrid', 'Stage groups', 'st-planner'],
];
const isPlan = (p) => p && Number.isFinite(p.iteration_ms);

function sideState(side) {
  if (!side) return 'did not finish';
  if (side.feasible === false && !isPlan(side)) return `no plan fits${side.reason ? `: ${side.reason}` : ''}`;
  if (side.error) return `failed: ${side.error}`;
  return 'did not finish';
}

const plural = (n, word) => `${formatNumber(n)} ${n === 1 ? word : `${word}s`}`;
const sideLabel = (name, side) => (isPlan(side)
  ? `${name}: ${formatMs(side.iteration_ms)}, ${formatEnergy(side.energy_j)}, ${plural(side.gpus_used, 'GPU')} in ${plural(side.stage_count, 'stage')}`
  : `${name}: ${sideState(side)}`);

export function renderParallelism(container, summary, { onSelect }) {
  const plans = SIDES.filter(([key]) => isPlan(summary[key]));
  const body = [];
  if (plans.length === 0) body.push(html('p', { class: 'gt-empty-note' }, 'Neither side has a plan yet.'));
  else body.push(html('div', { class: 'st-chart-box' }, chart(summary, onSelect)));
  body.push(table(summary, onSelect));
  body.push(html('figcaption', { class: 'gt-caption' }, captionText(summary)));
  container.replaceChildren(html('figure', { class: 'st-view st-parallelism' }, body));
}

function chart(summary, onSelect) {
  const svg = svgRoot(WIDTH, SIDES.length * ROW_H + 8, 'Iteration time with one GPU per stage and with stage groups', 'st-chart st-parallelism-chart');
  const maxT = Math.max(...SIDES.map(([key]) => (isPlan(summary[key]) ? summary[key].iteration_ms : 0)), 1e-9);
  SIDES.forEach(([key, name, cls], row) => {
    const side = summary[key];
    const group = el('g', { class: `st-par-row st-par-${key}`, transform: `translate(0 ${row * ROW_H + 6})`, 'data-side': key });
    group.appendChild(el('text', { class: 'st-split-name', x: 0, y: 20 }, name));
    if (!isPlan(side)) {
      group.appendChild(el('text', { class: 'st-label gt-muted', x: LEFT, y: 20 }, sideState(side).slice(0, 90)));
      svg.appendChild(group);
      return;
    }
    group.appendChild(el('text', { class: 'st-split-layers', x: 0, y: 36 }, `${plural(side.gpus_used, 'GPU')}, ${plural(side.stage_count, 'stage')}`));
    const width = ((WIDTH - LEFT - RIGHT) * side.iteration_ms) / maxT;
    const bar = el('g', { class: 'st-par-bar', 'data-job': side.job, 'data-t': side.iteration_ms, 'data-gpus-used': side.gpus_used }, [
      el('rect', { class: `st-bar ${cls}${side.feasible === false ? ' is-infeasible' : ''}`, x: LEFT, y: 6, width: round2(Math.max(2, width)), height: BAR_H, rx: 3 }),
      el('text', { class: 'st-label', x: round2(LEFT + width + 6), y: 25 }, formatMs(side.iteration_ms)),
    ]);
    const label = sideLabel(name, side);
    group.appendChild(side.job ? asButton(bar, `Show the plan: ${label}`, () => onSelect(side.job, label)) : bar);
    group.appendChild(el('text', { class: 'st-label', x: LEFT, y: BAR_H + 26 }, `${formatEnergy(side.energy_j)} per iteration · ${side.gpus ?? ''}`.slice(0, 95)));
    svg.appendChild(group);
  });
  return svg;
}

function table(summary, onSelect) {
  const rows = SIDES.map(([key, name]) => {
    const side = summary[key];
    const plan = isPlan(side);
    const label = sideLabel(name, side);
    const head = plan && side.job
      ? html('button', { type: 'button', class: 'st-show', 'data-job': side.job, 'aria-label': `Show the plan: ${label}` }, name)
      : name;
    if (plan && side.job) head.addEventListener('click', () => onSelect(side.job, label));
    const cells = plan
      ? [formatMs(side.iteration_ms), formatEnergy(side.energy_j), formatNumber(side.gpus_used), formatNumber(side.stage_count), formatNumber(side.objective, 4)]
      : [sideState(side), '–', '–', '–', '–'];
    return html('tr', { 'data-job': side?.job ?? undefined, 'data-side': key }, [
      html('th', { scope: 'row' }, head),
      ...cells.map((c, i) => html('td', { class: plan || i > 0 ? 'num' : 'st-state' }, c)),
    ]);
  });
  return html('div', { class: 'gt-st-scroll' }, html('table', { class: 'gt-st-table st-table st-parallelism-table' }, [
    html('caption', null, 'The best plan of each side on the same pool and objective. Choose a side to see its plan.'),
    html('thead', null, html('tr', null, ['', 'T_iter', 'E_iter', 'GPUs used', 'Stages', 'Objective'].map((t, i) => html('th', { scope: 'col', class: i > 0 ? 'num' : undefined }, t)))),
    html('tbody', null, rows)]));
}

function captionText(summary) {
  const parts = [];
  if (Number.isFinite(summary.gain_pct)) {
    const faster = summary.gain_pct >= 0;
    parts.push(`Stage groups make an iteration ${formatNumber(Math.abs(summary.gain_pct))}% ${faster ? 'faster' : 'slower'}`);
    if (Number.isFinite(summary.energy_change_pct)) {
      const less = summary.energy_change_pct <= 0;
      parts.push(` and use ${formatNumber(Math.abs(summary.energy_change_pct))}% ${less ? 'less' : 'more'} energy`);
    }
    const p = summary.pipeline;
    const g = summary.hybrid;
    parts.push(`: ${plural(g.gpus_used, 'GPU')} in ${plural(g.stage_count, 'stage')} against ${plural(p.gpus_used, 'GPU')}, one per stage. `);
  }
  parts.push('Both sides plan the same pool with the same objective and references; the hybrid side may also choose one GPU per stage, so it is never worse on the objective it optimises.');
  if (summary.missing > 0) parts.push(` ${summary.missing} job${summary.missing === 1 ? '' : 's'} did not finish (cancelled).`);
  return parts.join('');
}
