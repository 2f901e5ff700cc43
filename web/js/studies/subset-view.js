// The GPU-subset sweep (studies.md point 2, the paper's Fig. 2a): the best iteration time using
// exactly k GPUs, for each k; the best k ringed, sizes where no k-GPU plan fits marked on the axis.
import { el, html, round2 } from '../views/svg.js';
import { formatEnergy, formatMs, formatNumber } from '../views/format.js';
import { asButton, chartFrame, legendRow, paddedExtent } from './chart.js';

// A point is a plan, a size where no plan fits (feasible: false, with the reason), or a job that
// failed (error) or never finished (missing, after a cancel).
const isPlan = (p) => p && p.feasible !== false && Number.isFinite(p.iteration_ms);
const isInfeasible = (p) => p && p.feasible === false;

function pointState(point) {
  if (isInfeasible(point)) return point.reason ? `no plan fits: ${point.reason}` : 'no plan fits';
  if (point.error) return `failed: ${(point.error.messages || []).join(' ') || 'error'}`;
  return 'did not finish';
}

// With stage groups (summary.parallelism "hybrid") k counts stages and each point its GPUs.
let hybrid = false;
const kText = (point) => (hybrid
  ? `k = ${point.k} stage${point.k === 1 ? '' : 's'}${isPlan(point) && Number.isFinite(point.gpus_used) ? ` on ${point.gpus_used} GPUs` : ''}`
  : `k = ${point.k} GPUs`);

function pointLabel(point) {
  return isPlan(point)
    ? `${kText(point)}: ${formatMs(point.iteration_ms)}, ${formatEnergy(point.energy_j)}${point.gpus ? ` (${point.gpus})` : ''}`
    : `${kText(point)}: ${pointState(point)}`;
}

export function renderSubset(container, summary, { onSelect }) {
  hybrid = summary.parallelism === 'hybrid';
  const points = (summary.points || []).filter((p) => Number.isInteger(p.k)).sort((a, b) => a.k - b.k);
  const plans = points.filter(isPlan);
  const body = [];
  if (plans.length === 0) body.push(html('p', { class: 'gt-empty-note' }, 'No subset size has a plan yet.'));
  else body.push(chart(points, plans, summary.best_k, onSelect));
  if (points.length) body.push(subsetTable(points, summary.best_k, onSelect));
  body.push(html('figcaption', { class: 'gt-caption' }, captionText(points, plans, summary)));
  container.replaceChildren(html('figure', { class: 'st-view st-subset' }, body));
}

function chart(points, plans, bestK, onSelect) {
  const ks = points.map((p) => p.k);
  const [k0, k1] = [Math.min(...ks), Math.max(...ks)];
  const yDomain = paddedExtent([0, ...plans.map((p) => p.iteration_ms)], 0.04);
  yDomain[0] = 0;
  const frame = chartFrame({
    label: hybrid ? `Best iteration time for each number of stages k = ${k0} to ${k1}, stages may be groups`
      : `Best iteration time for each number of GPUs k = ${k0} to ${k1}`,
    className: 'st-subset-chart',
    xDomain: [k0 - 0.5, k1 + 0.5], yDomain,
    xTicks: ks, xTitle: hybrid ? 'stages, k (each may be a group)' : 'GPUs used, k', yTitle: 'best iteration time',
    xFormat: (k) => String(k), yFormat: formatMs, legend: true,
  });
  const { plot, x, y, bottom } = frame;
  if (plans.length > 1) {
    plot.appendChild(el('polyline', {
      class: 'st-line st-planner-line', fill: 'none',
      points: plans.map((p) => `${round2(x(p.k))},${round2(y(p.iteration_ms))}`).join(' '),
    }));
  }
  for (const point of points) {
    const label = pointLabel(point);
    if (!isPlan(point)) {
      if (!isInfeasible(point)) continue;
      const cx = x(point.k);
      const cross = el('g', { class: 'st-infeasible', 'data-k': point.k }, [
        el('path', { d: `M${round2(cx - 5)},${bottom - 15}L${round2(cx + 5)},${bottom - 5}M${round2(cx + 5)},${bottom - 15}L${round2(cx - 5)},${bottom - 5}` }),
      ]);
      cross.appendChild(el('title', null, label));
      plot.appendChild(cross);
      continue;
    }
    const best = point.k === bestK;
    const node = el('g', { class: `st-subset-point${best ? ' is-best' : ''}`, 'data-job': point.job, 'data-k': point.k, 'data-t': point.iteration_ms }, [
      best ? el('circle', { class: 'st-best-ring', cx: round2(x(point.k)), cy: round2(y(point.iteration_ms)), r: 11 }) : null,
      el('circle', { class: 'st-point is-frontier', cx: round2(x(point.k)), cy: round2(y(point.iteration_ms)), r: 5.5 }),
      best ? el('text', { class: 'st-label st-best-label', x: round2(x(point.k)), y: round2(y(point.iteration_ms) - 16), 'text-anchor': 'middle' }, `best: k = ${point.k}`) : null,
    ]);
    plot.appendChild(asButton(node, label, () => onSelect(point.job, label)));
  }
  frame.svg.appendChild(legendRow(frame.left, frame.legendY, [
    [el('circle', { class: 'st-point is-frontier', r: 5 }), hybrid ? 'best plan with k stages' : 'best plan with k GPUs'],
    [el('circle', { class: 'st-best-ring', r: 8 }), 'best k (lowest objective)'],
    [el('path', { class: 'st-infeasible', d: 'M-5,-5L5,5M5,-5L-5,5' }), hybrid ? 'no k-stage plan fits' : 'no k-GPU plan fits'],
  ]));
  return html('div', { class: 'st-chart-box' }, frame.svg);
}

function subsetTable(points, bestK, onSelect) {
  const rows = points.map((point) => {
    const label = pointLabel(point);
    const plan = isPlan(point);
    const kCell = plan
      ? html('button', { type: 'button', class: 'st-show', 'data-job': point.job, 'aria-label': `Show the plan for ${label}` }, String(point.k))
      : String(point.k);
    if (plan) kCell.addEventListener('click', () => onSelect(point.job, label));
    return html('tr', { 'data-job': point.job ?? undefined, 'data-k': point.k, class: [point.k === bestK && 'is-best', isInfeasible(point) && 'is-infeasible'].filter(Boolean).join(' ') || undefined }, [
      html('th', { scope: 'row' }, kCell),
      html('td', { class: plan ? 'num' : 'st-state' }, plan ? formatMs(point.iteration_ms) : pointState(point)),
      html('td', { class: 'num' }, plan ? formatEnergy(point.energy_j) : '–'),
      hybrid ? html('td', { class: 'num' }, plan && Number.isFinite(point.gpus_used) ? String(point.gpus_used) : '–') : null,
      html('td', { class: 'st-gpus' }, plan ? point.gpus ?? '' : ''),
      html('td', null, point.k === bestK ? 'best' : ''),
    ]);
  });
  return html('div', { class: 'gt-st-scroll' }, html('table', { class: 'gt-st-table st-table st-subset-table' }, [
    html('caption', null, hybrid ? 'Best plan for each number of stages (a stage may be a group of GPUs). Choose k to see its plan.'
      : 'Best plan for each number of GPUs. Choose k to see its plan.'),
    html('thead', null, html('tr', null, (hybrid ? ['k', 'T_iter', 'E_iter', 'GPUs used', 'GPUs chosen', ''] : ['k', 'T_iter', 'E_iter', 'GPUs chosen', ''])
      .map((t, i) => html('th', { scope: 'col', class: i === 1 || i === 2 || (hybrid && i === 3) ? 'num' : undefined }, t)))),
    html('tbody', null, rows)]));
}

function captionText(points, plans, summary) {
  const parts = [];
  const best = plans.find((p) => p.k === summary.best_k);
  if (best) {
    const all = plans.find((p) => p.k === Math.max(...points.map((q) => q.k)));
    if (hybrid) {
      parts.push(`The best plan has ${best.k} stage${best.k === 1 ? '' : 's'} on ${best.gpus_used} GPUs (${formatMs(best.iteration_ms)}).`);
    } else {
      parts.push(`The best plan uses ${best.k} GPUs (${formatMs(best.iteration_ms)})`);
      if (all && all.k !== best.k) parts.push(`; with all ${all.k} it takes ${formatMs(all.iteration_ms)}: adding GPUs stopped helping at k = ${best.k}.`);
      else parts.push('.');
    }
  }
  const infeasible = points.filter(isInfeasible).map((p) => p.k);
  if (infeasible.length) parts.push(` No plan fits in memory with k = ${infeasible.join(', ')}.`);
  if (summary.missing > 0) parts.push(` ${summary.missing} job${summary.missing === 1 ? '' : 's'} did not finish (cancelled).`);
  return parts.join('') || `${formatNumber(points.length)} subset sizes.`;
}
