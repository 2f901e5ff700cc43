// The trade-off (studies.md point 1, issue 11 point 5): every plan the lambda sweep found as a point
// of its two figures (by default iteration time across and energy up; any two of time, energy,
// carbon and money), dominated ones muted, the frontier as a line, the reference plan (METIS-style,
// improved) as a diamond, the knee as a star, frontier points labelled with their lambdas; below it
// the per-lambda table like the paper's Table 7. Points and rows show their plan.
import { el, html, round2 } from '../views/svg.js';
import { formatNumber, formatPercent, plural } from '../views/format.js';
import { isDefaultAxes, summaryAxes } from './axes.js';
import { asButton, chartFrame, diamondPath, legendRow, paddedExtent, starPath } from './chart.js';

// The chart's two figures: set per render from the summary's axes.
let X = null;
let Y = null;
const xOf = (p) => p[X.field];
const yOf = (p) => p[Y.field];
const isPlan = (p) => p && Number.isFinite(xOf(p)) && Number.isFinite(yOf(p));
const sameSpot = (a, b) => xOf(a) === xOf(b) && yOf(a) === yOf(b);
const figures = (p) => `${X.format(xOf(p))}, ${Y.format(yOf(p))}`;

// Every figure a point carries, as data attributes (data-t and data-e as before the other axes).
const figureData = (p) => ({
  'data-t': p.iteration_ms, 'data-e': p.energy_j, 'data-x': xOf(p), 'data-y': yOf(p),
  'data-carbon': p.carbon_g, 'data-cost': p.cost,
});

export function lambdaList(lambdas) {
  const sorted = [...new Set(lambdas)].sort((a, b) => a - b);
  return sorted.map((l) => formatNumber(l)).join(', ');
}

function pointLabel(point) {
  const seed = point.seed !== undefined ? `, seed ${point.seed}` : '';
  const where = point.on_frontier ? ' (on the frontier)' : point.dominated ? ' (dominated)' : '';
  return `λ = ${formatNumber(point.lambda)}${seed}: ${figures(point)}${where}`;
}

export function renderTradeoff(container, summary, { onSelect }) {
  [X, Y] = summaryAxes(summary);
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
  const figure = html('figure', { class: 'st-view st-tradeoff', 'data-axes': `${X.name},${Y.name}` }, [...body, caption(points, table, knee, summary)]);
  container.replaceChildren(figure);
}

function chart(points, table, reference, knee, onSelect) {
  const all = reference ? [...points, reference] : points;
  const frame = chartFrame({
    label: `${Y.title} against ${X.title} for ${points.length} plans`,
    className: 'st-tradeoff-chart',
    xDomain: paddedExtent(all.map(xOf)),
    yDomain: paddedExtent(all.map(yOf), 0.1),
    xTitle: X.title, yTitle: Y.title,
    xFormat: X.format, yFormat: Y.format, height: 410, legend: true,
    left: Y.name === 'carbon' || Y.name === 'cost' ? 96 : undefined,
  });
  const { plot, x, y } = frame;
  const frontier = points.filter((p) => p.on_frontier).sort((a, b) => xOf(a) - xOf(b) || yOf(a) - yOf(b));
  if (frontier.length > 1) {
    plot.appendChild(el('polyline', {
      class: 'st-frontier', fill: 'none',
      points: frontier.map((p) => `${round2(x(xOf(p)))},${round2(y(yOf(p)))}`).join(' '),
      'data-count': frontier.length,
    }));
  }
  // Muted ones first so that frontier points stay on top.
  const order = [...points].sort((a, b) => Number(Boolean(b.dominated)) - Number(Boolean(a.dominated)) || Number(Boolean(a.on_frontier)) - Number(Boolean(b.on_frontier)));
  const group = plot.appendChild(el('g', { class: 'st-points' }));
  for (const point of order) {
    const kind = point.on_frontier ? 'is-frontier' : point.dominated ? 'is-dominated' : 'is-other';
    const node = el('circle', {
      class: `st-point ${kind}`, cx: round2(x(xOf(point))), cy: round2(y(yOf(point))), r: point.on_frontier ? 6 : 4.5,
      'data-job': point.job, 'data-lambda': point.lambda, 'data-seed': point.seed, ...figureData(point),
      'data-frontier': String(Boolean(point.on_frontier)), 'data-dominated': String(Boolean(point.dominated)),
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
      class: 'st-label', x: round2(x(xOf(spot)) + 9), y: round2(y(yOf(spot)) - 9), 'data-lambdas': lambdas.join(','),
    }, `λ ${lambdaList(lambdas)}`));
  }
  return group;
}

function referenceMark(reference, x, y, onSelect) {
  const cx = x(xOf(reference));
  const cy = y(yOf(reference));
  const label = `Reference plan (METIS-style, improved): ${figures(reference)}`;
  const node = el('g', { class: 'st-reference-mark', 'data-job': reference.job, ...figureData(reference) }, [
    el('path', { class: 'st-reference', d: diamondPath(cx, cy, 7) }),
    el('text', { class: 'st-label st-reference-label', x: round2(cx + 10), y: round2(cy + 14) }, 'METIS-style, improved'),
  ]);
  return reference.job ? asButton(node, label, () => onSelect(reference.job, label)) : node;
}

function kneeMark(knee, x, y, onSelect) {
  const cx = x(xOf(knee));
  const cy = y(yOf(knee));
  const label = `Knee: λ = ${formatNumber(knee.lambda)}, ${figures(knee)}`;
  const node = el('g', { class: 'st-knee-mark', 'data-job': knee.job, 'data-lambda': knee.lambda, ...figureData(knee) }, [
    el('path', { class: 'st-knee', d: starPath(cx, cy, 11, 4.6) }),
    el('text', { class: 'st-label st-knee-label', x: round2(cx - 12), y: round2(cy + 22), 'text-anchor': 'end' }, 'knee'),
  ]);
  return asButton(node, label, () => onSelect(knee.job, label));
}

function tradeoffTable(rows, onSelect) {
  const base = rows.find((r) => r.lambda === 1) ?? rows.reduce((a, b) => (b.lambda > a.lambda ? b : a));
  const versus = `vs λ = ${formatNumber(base.lambda)}`;
  // On other axes than the paper's the other two figures follow, for comparison.
  const others = isDefaultAxes([X.name, Y.name]) ? [] : summaryAxes({ axes: ['time', 'energy', 'carbon', 'cost'].filter((a) => a !== X.name && a !== Y.name) });
  const head = html('thead', null, html('tr', null, [
    html('th', { scope: 'col' }, 'λ'),
    html('th', { scope: 'col', class: 'num' }, X.short),
    html('th', { scope: 'col', class: 'num' }, Y.short),
    html('th', { scope: 'col', class: 'num', title: `against λ = ${formatNumber(base.lambda)}` }, `${X.deltaLabel} ${versus}`),
    html('th', { scope: 'col', class: 'num', title: `against λ = ${formatNumber(base.lambda)}` }, `${Y.deltaLabel} ${versus}`),
    ...others.map((a) => html('th', { scope: 'col', class: 'num' }, a.short)),
    html('th', { scope: 'col' }, 'GPUs chosen'),
    html('th', { scope: 'col', class: 'num', title: 'seeds whose best plan had the best objective at this lambda' }, 'Seeds agreeing'),
    html('th', { scope: 'col' }, html('span', { class: 'gt-visually-hidden' }, 'Knee')),
  ]));
  const body = html('tbody', null, rows.map((row) => {
    const label = `λ = ${formatNumber(row.lambda)}: ${figures(row)}`;
    const show = html('button', { type: 'button', class: 'st-show', 'data-job': row.job, 'aria-label': `Show the plan for ${label}` }, formatNumber(row.lambda));
    show.addEventListener('click', () => onSelect(row.job, label));
    return html('tr', { class: row.knee ? 'is-knee' : undefined, 'data-job': row.job, 'data-lambda': row.lambda }, [
      html('th', { scope: 'row' }, show),
      html('td', { class: 'num' }, X.format(xOf(row))),
      html('td', { class: 'num' }, Y.format(yOf(row))),
      html('td', { class: 'num' }, formatPercent(row[X.delta] / 100)),
      html('td', { class: 'num' }, formatPercent(row[Y.delta] / 100)),
      ...others.map((a) => html('td', { class: 'num' }, a.format(row[a.field]))),
      html('td', { class: 'st-gpus' }, `${row.gpus ?? ''}${Number.isFinite(row.gpus_used) ? ` (${row.gpus_used})` : ''}`),
      html('td', { class: 'num' }, Number.isFinite(row.seeds_agreeing) ? String(row.seeds_agreeing) : '–'),
      html('td', { class: 'st-knee-cell' }, row.knee ? '★ knee' : ''),
    ]);
  }));
  const deltas = `${X.deltaLabel} and ${Y.deltaLabel}`;
  return html('div', { class: 'gt-st-scroll' }, html('table', { class: 'gt-st-table st-table st-tradeoff-table' }, [
    html('caption', null, `Best plan per λ (like the paper's Table 7); ${deltas} against λ = ${formatNumber(base.lambda)}. Choose a λ to see its plan.`),
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
  const weights = isDefaultAxes([X.name, Y.name]) ? '' : ` λ weighs ${X.noun}, 1 − λ ${Y.noun}.`;
  const parts = [`${plural(plans, 'distinct plan')} from ${plural(table.length, 'value')} of λ; ${frontier.toLocaleString('en-US')} on the frontier.${weights}`];
  if (knee) {
    const where = isDefaultAxes([X.name, Y.name]) ? 'where more speed starts to cost much more energy'
      : `where less ${X.noun} starts to cost much more ${Y.noun}`;
    parts.push(` The knee, ${where}, is λ = ${formatNumber(knee.lambda)}: ${figures(knee)}.`);
  } else {
    parts.push(' No knee: it needs at least three frontier plans.');
  }
  if (summary.missing > 0) parts.push(` ${summary.missing} job${summary.missing === 1 ? '' : 's'} did not finish (cancelled).`);
  return html('figcaption', { class: 'gt-caption' }, parts.join(''));
}
