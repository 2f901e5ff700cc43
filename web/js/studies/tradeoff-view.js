// The energy-time trade-off (studies.md point 1): every plan the lambda sweep found as a point of
// iteration time (x) against energy (y), dominated ones muted, the frontier as a line, the reference
// plan (METIS-style, improved) as a diamond, the knee as a star, frontier points labelled with their
// lambdas; below it the per-lambda table like the paper's Table 7. Points and rows show their plan.
import { el, html, round2 } from '../views/svg.js';
import { formatEnergy, formatMs, formatNumber, formatPercent, plural } from '../views/format.js';
import { asButton, chartFrame, diamondPath, legendRow, paddedExtent, starPath } from './chart.js';

const isPlan = (p) => p && Number.isFinite(p.iteration_ms) && Number.isFinite(p.energy_j);
const sameSpot = (a, b) => a.iteration_ms === b.iteration_ms && a.energy_j === b.energy_j;

export function lambdaList(lambdas) {
  const sorted = [...new Set(lambdas)].sort((a, b) => a - b);
  return sorted.map((l) => formatNumber(l)).join(', ');
}

function pointLabel(point) {
  const seed = point.seed !== undefined ? `, seed ${point.seed}` : '';
  const where = point.on_frontier ? ' (on the frontier)' : point.dominated ? ' (dominated)' : '';
  return `λ = ${formatNumber(point.lambda)}${seed}: ${formatMs(point.iteration_ms)}, ${formatEnergy(point.energy_j)}${where}`;
}

export function renderTradeoff(container, summary, { onSelect }) {
  const points = (summary.points || []).filter(isPlan);
  const table = (summary.table || []).filter(isPlan);
  const reference = isPlan(summary.reference) ? summary.reference : null;
  const knee = isPlan(summary.knee) ? summary.knee : null;
  const body = [];
  if (points.length === 0) {
    body.push(html('p', { class: 'gt-empty-note' }, 'No plan finished, so there is nothing to plot.'));
  } else {
    body.push(chart(points, table, reference, knee, onSelect));
  }
  if (table.length) body.push(tradeoffTable(table, onSelect));
  container.replaceChildren(html('figure', { class: 'st-view st-tradeoff' }, [...body, caption(points, table, knee, summary)]));
}

function chart(points, table, reference, knee, onSelect) {
  const all = reference ? [...points, reference] : points;
  const frame = chartFrame({
    label: `Energy per iteration against iteration time for ${points.length} plans`,
    className: 'st-tradeoff-chart',
    xDomain: paddedExtent(all.map((p) => p.iteration_ms)),
    yDomain: paddedExtent(all.map((p) => p.energy_j), 0.1),
    xTitle: 'iteration time T_iter', yTitle: 'energy per iteration E_iter',
    xFormat: formatMs, yFormat: formatEnergy, height: 410, legend: true,
  });
  const { plot, x, y } = frame;
  const frontier = points.filter((p) => p.on_frontier).sort((a, b) => a.iteration_ms - b.iteration_ms || a.energy_j - b.energy_j);
  if (frontier.length > 1) {
    plot.appendChild(el('polyline', {
      class: 'st-frontier', fill: 'none',
      points: frontier.map((p) => `${round2(x(p.iteration_ms))},${round2(y(p.energy_j))}`).join(' '),
      'data-count': frontier.length,
    }));
  }
  // Muted ones first so that frontier points stay on top.
  const order = [...points].sort((a, b) => Number(Boolean(b.dominated)) - Number(Boolean(a.dominated)) || Number(Boolean(a.on_frontier)) - Number(Boolean(b.on_frontier)));
  const group = plot.appendChild(el('g', { class: 'st-points' }));
  for (const point of order) {
    const kind = point.on_frontier ? 'is-frontier' : point.dominated ? 'is-dominated' : 'is-other';
    const node = el('circle', {
      class: `st-point ${kind}`, cx: round2(x(point.iteration_ms)), cy: round2(y(point.energy_j)), r: point.on_frontier ? 6 : 4.5,
      'data-job': point.job, 'data-lambda': point.lambda, 'data-seed': point.seed, 'data-t': point.iteration_ms,
      'data-e': point.energy_j, 'data-frontier': String(Boolean(point.on_frontier)), 'data-dominated': String(Boolean(point.dominated)),
    });
    group.appendChild(asButton(node, pointLabel(point), () => onSelect(point.job, pointLabel(point))));
  }
  plot.appendChild(frontierLabels(frontier, table, x, y));
  if (reference) plot.appendChild(referenceMark(reference, x, y, onSelect));
  if (knee) plot.appendChild(kneeMark(knee, x, y, onSelect));
  frame.svg.appendChild(legendRow(frame.left, frame.legendY, [
    [el('line', { class: 'st-frontier', x1: 0, x2: 10, y1: 0, y2: 0 }), 'frontier'],
    [el('circle', { class: 'st-point is-frontier', r: 5 }), 'frontier plan'],
    [el('circle', { class: 'st-point is-dominated', r: 4 }), 'dominated'],
    reference ? [el('path', { class: 'st-reference', d: diamondPath(0, 0, 6) }), 'METIS-style, improved'] : null,
    knee ? [el('path', { class: 'st-knee', d: starPath(0, 0, 7, 3) }), 'knee'] : null,
  ].filter(Boolean)));
  return html('div', { class: 'st-chart-box' }, frame.svg);
}

// One label per distinct frontier spot, naming every lambda whose best plan landed there.
function frontierLabels(frontier, table, x, y) {
  const group = el('g', { class: 'st-labels' });
  const spots = [];
  for (const point of frontier) if (!spots.some((s) => sameSpot(s, point))) spots.push(point);
  for (const spot of spots) {
    const lambdas = table.filter((row) => sameSpot(row, spot)).map((row) => row.lambda);
    if (lambdas.length === 0) lambdas.push(spot.lambda);
    group.appendChild(el('text', {
      class: 'st-label', x: round2(x(spot.iteration_ms) + 9), y: round2(y(spot.energy_j) - 9), 'data-lambdas': lambdas.join(','),
    }, `λ ${lambdaList(lambdas)}`));
  }
  return group;
}

function referenceMark(reference, x, y, onSelect) {
  const cx = x(reference.iteration_ms);
  const cy = y(reference.energy_j);
  const label = `Reference plan (METIS-style, improved): ${formatMs(reference.iteration_ms)}, ${formatEnergy(reference.energy_j)}`;
  const node = el('g', { class: 'st-reference-mark', 'data-job': reference.job, 'data-t': reference.iteration_ms, 'data-e': reference.energy_j }, [
    el('path', { class: 'st-reference', d: diamondPath(cx, cy, 7) }),
    el('text', { class: 'st-label st-reference-label', x: round2(cx + 10), y: round2(cy + 14) }, 'METIS-style, improved'),
  ]);
  return reference.job ? asButton(node, label, () => onSelect(reference.job, label)) : node;
}

function kneeMark(knee, x, y, onSelect) {
  const cx = x(knee.iteration_ms);
  const cy = y(knee.energy_j);
  const label = `Knee: λ = ${formatNumber(knee.lambda)}, ${formatMs(knee.iteration_ms)}, ${formatEnergy(knee.energy_j)}`;
  const node = el('g', { class: 'st-knee-mark', 'data-job': knee.job, 'data-lambda': knee.lambda, 'data-t': knee.iteration_ms, 'data-e': knee.energy_j }, [
    el('path', { class: 'st-knee', d: starPath(cx, cy, 11, 4.6) }),
    el('text', { class: 'st-label st-knee-label', x: round2(cx - 12), y: round2(cy + 22), 'text-anchor': 'end' }, 'knee'),
  ]);
  return asButton(node, label, () => onSelect(knee.job, label));
}

function tradeoffTable(rows, onSelect) {
  const base = rows.find((r) => r.lambda === 1) ?? rows.reduce((a, b) => (b.lambda > a.lambda ? b : a));
  const head = html('thead', null, html('tr', null, [
    html('th', { scope: 'col' }, 'λ'),
    html('th', { scope: 'col', class: 'num' }, 'T_iter'),
    html('th', { scope: 'col', class: 'num' }, 'E_iter'),
    html('th', { scope: 'col', class: 'num', title: `against λ = ${formatNumber(base.lambda)}` }, `ΔT vs λ = ${formatNumber(base.lambda)}`),
    html('th', { scope: 'col', class: 'num', title: `against λ = ${formatNumber(base.lambda)}` }, `ΔE vs λ = ${formatNumber(base.lambda)}`),
    html('th', { scope: 'col' }, 'GPUs chosen'),
    html('th', { scope: 'col', class: 'num', title: 'seeds whose best plan had the best objective at this lambda' }, 'Seeds agreeing'),
    html('th', { scope: 'col' }, html('span', { class: 'gt-visually-hidden' }, 'Knee')),
  ]));
  const body = html('tbody', null, rows.map((row) => {
    const label = `λ = ${formatNumber(row.lambda)}: ${formatMs(row.iteration_ms)}, ${formatEnergy(row.energy_j)}`;
    const show = html('button', { type: 'button', class: 'st-show', 'data-job': row.job, 'aria-label': `Show the plan for ${label}` }, formatNumber(row.lambda));
    show.addEventListener('click', () => onSelect(row.job, label));
    return html('tr', { class: row.knee ? 'is-knee' : undefined, 'data-job': row.job, 'data-lambda': row.lambda }, [
      html('th', { scope: 'row' }, show),
      html('td', { class: 'num' }, formatMs(row.iteration_ms)),
      html('td', { class: 'num' }, formatEnergy(row.energy_j)),
      html('td', { class: 'num' }, formatPercent(row.delta_t_pct / 100)),
      html('td', { class: 'num' }, formatPercent(row.delta_e_pct / 100)),
      html('td', { class: 'st-gpus' }, `${row.gpus ?? ''}${Number.isFinite(row.gpus_used) ? ` (${row.gpus_used})` : ''}`),
      html('td', { class: 'num' }, Number.isFinite(row.seeds_agreeing) ? String(row.seeds_agreeing) : '–'),
      html('td', { class: 'st-knee-cell' }, row.knee ? '★ knee' : ''),
    ]);
  }));
  return html('div', { class: 'gt-st-scroll' }, html('table', { class: 'gt-st-table st-table st-tradeoff-table' }, [
    html('caption', null, `Best plan per λ (like the paper's Table 7); ΔT and ΔE against λ = ${formatNumber(base.lambda)}. Choose a λ to see its plan.`),
    head, body]));
}

// Several values of lambda often find the same plan: the caption counts distinct plans (by their
// figures), as the chart draws them.
function distinctCount(points) {
  const spots = [];
  for (const point of points) if (!spots.some((s) => sameSpot(s, point))) spots.push(point);
  return spots.length;
}

function caption(points, table, knee, summary) {
  const frontier = distinctCount(points.filter((p) => p.on_frontier));
  const plans = distinctCount(points);
  const parts = [`${plural(plans, 'distinct plan')} from ${plural(table.length, 'value')} of λ; ${frontier.toLocaleString('en-US')} on the frontier.`];
  if (knee) {
    parts.push(` The knee, where more speed starts to cost much more energy, is λ = ${formatNumber(knee.lambda)}: ${formatMs(knee.iteration_ms)}, ${formatEnergy(knee.energy_j)}.`);
  } else {
    parts.push(' No knee: it needs at least three frontier plans.');
  }
  if (summary.missing > 0) parts.push(` ${summary.missing} job${summary.missing === 1 ? '' : 's'} did not finish (cancelled).`);
  return html('figcaption', { class: 'gt-caption' }, parts.join(''));
}
