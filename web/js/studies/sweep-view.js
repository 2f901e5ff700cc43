// The network sweeps (studies.md point 3, the paper's Fig. 8b/c): iteration time over the swept
// cross-site latency or bandwidth (log axis), the planner against METIS-style, improved, with the
// planner's gain at each value. Each point's plan (on its own rescaled problem) is one click away.
import { el, html, round2 } from '../views/svg.js';
import { formatEnergy, formatMs, formatNumber, formatPercent } from '../views/format.js';
import { asButton, chartFrame, legendRow, paddedExtent } from './chart.js';

const SIDES = [
  ['planner', 'planner', 'st-planner'],
  ['metis_improved', 'METIS-style, improved', 'st-metis'],
];
const isPlan = (p) => p && Number.isFinite(p.iteration_ms);

export function valueText(value, unit) {
  return `${formatNumber(value)} ${unit}`;
}

function sideLabel(point, key, name, unit, kind) {
  const side = point[key];
  const sites = Array.isArray(side.sites_used) && side.sites_used.length ? `, sites ${side.sites_used.join(' + ')}` : '';
  return `${name} at ${kind} ${valueText(point.value, unit)}: ${formatMs(side.iteration_ms)}, ${formatEnergy(side.energy_j)}${sites}`;
}

export function renderSweep(container, summary, { onSelect }) {
  const kind = summary.study === 'bandwidth' ? 'bandwidth' : 'latency';
  const unit = summary.unit || (kind === 'latency' ? 'ms' : 'Gbps');
  const points = (summary.points || []).filter((p) => Number.isFinite(p.value) && p.value > 0).sort((a, b) => a.value - b.value);
  const body = [];
  if (!points.some((p) => isPlan(p.planner) || isPlan(p.metis_improved))) {
    body.push(html('p', { class: 'gt-empty-note' }, 'No point finished, so there is nothing to plot.'));
  } else {
    body.push(chart(points, kind, unit, summary.base, onSelect));
  }
  if (points.length) body.push(sweepTable(points, kind, unit, onSelect));
  body.push(html('figcaption', { class: 'gt-caption' }, captionText(points, kind, unit, summary)));
  container.replaceChildren(html('figure', { class: `st-view st-sweep st-${kind}` }, body));
}

function chart(points, kind, unit, base, onSelect) {
  const values = points.map((p) => p.value);
  const times = points.flatMap((p) => SIDES.map(([key]) => p[key]?.iteration_ms));
  const [v0, v1] = [Math.min(...values), Math.max(...values)];
  const yDomain = paddedExtent([0, ...times], 0.05);
  yDomain[0] = 0;
  const frame = chartFrame({
    label: `Iteration time against cross-site ${kind}, planner and METIS-style, improved`,
    className: 'st-sweep-chart',
    xDomain: v0 === v1 ? [v0 / 2, v1 * 2] : [v0 / 1.4, v1 * 1.4], xLog: true, yDomain,
    xTitle: `cross-site ${kind} (${unit}, log scale)`, yTitle: 'iteration time',
    xFormat: (v) => formatNumber(v), yFormat: formatMs, legend: true,
  });
  const { plot, x, y, top, bottom } = frame;
  if (Number.isFinite(base) && base >= frame.x.domain[0] && base <= frame.x.domain[1]) {
    plot.appendChild(el('line', { class: 'st-base', x1: round2(x(base)), x2: round2(x(base)), y1: top, y2: bottom }));
    plot.appendChild(el('text', { class: 'st-label st-base-label', x: round2(x(base) + 4), y: bottom - 6 }, `this problem: ${valueText(base, unit)}`));
  }
  for (const [key, name, cls] of SIDES) {
    const line = points.filter((p) => isPlan(p[key]));
    if (line.length > 1) {
      plot.appendChild(el('polyline', {
        class: `st-line ${cls}-line`, fill: 'none', 'data-side': key,
        points: line.map((p) => `${round2(x(p.value))},${round2(y(p[key].iteration_ms))}`).join(' '),
      }));
    }
    for (const point of line) {
      const label = sideLabel(point, key, name, unit, kind);
      const node = el('circle', {
        class: `st-point ${cls}`, cx: round2(x(point.value)), cy: round2(y(point[key].iteration_ms)), r: key === 'planner' ? 5.5 : 4.5,
        'data-job': point[key].job, 'data-side': key, 'data-value': point.value, 'data-t': point[key].iteration_ms,
      });
      plot.appendChild(asButton(node, label, () => onSelect(point[key].job, label)));
    }
  }
  for (const point of points) {
    if (!isPlan(point.planner) || !Number.isFinite(point.gain_pct)) continue;
    const top2 = Math.min(y(point.planner.iteration_ms), isPlan(point.metis_improved) ? y(point.metis_improved.iteration_ms) : Infinity);
    plot.appendChild(el('text', {
      class: `st-label st-gain${point.gain_pct > 0.05 ? ' is-gain' : ''}`, x: round2(x(point.value)), y: round2(top2 - 10),
      'text-anchor': 'middle', 'data-value': point.value,
    }, gainText(point.gain_pct)));
  }
  frame.svg.appendChild(legendRow(frame.left, frame.legendY, [
    [el('circle', { class: 'st-point st-planner', r: 5 }), 'planner'],
    [el('circle', { class: 'st-point st-metis', r: 4 }), 'METIS-style, improved'],
    [el('text', { class: 'st-gain is-gain', x: -4, y: 4 }, '%'), 'planner\'s time saving'],
  ]));
  return html('div', { class: 'st-chart-box' }, frame.svg);
}

// gain_pct > 0: the planner is that much faster than METIS-style, improved.
function gainText(gainPct) {
  return gainPct > 0.05 ? `−${formatNumber(gainPct)}%` : '±0%';
}

function sweepTable(points, kind, unit, onSelect) {
  const showButton = (point, key, name) => {
    const side = point[key];
    if (!isPlan(side)) return html('td', { class: 'num gt-muted' }, '–');
    const label = sideLabel(point, key, name, unit, kind);
    const button = html('button', { type: 'button', class: 'st-show', 'data-job': side.job, 'aria-label': `Show the plan: ${label}` }, formatMs(side.iteration_ms));
    button.addEventListener('click', () => onSelect(side.job, label));
    return html('td', { class: 'num' }, button);
  };
  const sites = (side) => (isPlan(side) && Array.isArray(side.sites_used) ? side.sites_used.join(' + ') : '–');
  const rows = points.map((point) => html('tr', { 'data-value': point.value }, [
    html('th', { scope: 'row', class: 'num' }, valueText(point.value, unit)),
    showButton(point, 'planner', 'planner'),
    showButton(point, 'metis_improved', 'METIS-style, improved'),
    html('td', { class: 'num' }, Number.isFinite(point.gain_pct) ? formatPercent(-point.gain_pct / 100) : '–'),
    html('td', null, sites(point.planner)),
    html('td', null, sites(point.metis_improved)),
  ]));
  return html('div', { class: 'gt-st-scroll' }, html('table', { class: 'gt-st-table st-table st-sweep-table' }, [
    html('caption', null, `Iteration time at each cross-site ${kind}. Choose a time to see that plan (on the problem rescaled to that ${kind}).`),
    html('thead', null, html('tr', null, [`${kind} (${unit})`, 'planner', 'METIS-style, improved', 'planner vs METIS', 'planner\'s sites', 'METIS sites']
      .map((t, i) => html('th', { scope: 'col', class: i < 4 ? 'num' : undefined }, t)))),
    html('tbody', null, rows)]));
}

function captionText(points, kind, unit, summary) {
  const gains = points.filter((p) => Number.isFinite(p.gain_pct));
  const parts = [];
  if (Number.isFinite(summary.base)) parts.push(`This problem's base cross-site ${kind} is ${valueText(summary.base, unit)}; every cross-site link was rescaled with it, asymmetries kept.`);
  if (gains.length) {
    const best = gains.reduce((a, b) => (b.gain_pct > a.gain_pct ? b : a));
    parts.push(` The planner saves up to ${formatNumber(best.gain_pct)}% of the iteration time against METIS-style, improved (at ${valueText(best.value, unit)}).`);
  }
  if (summary.missing > 0) parts.push(` ${summary.missing} job${summary.missing === 1 ? '' : 's'} did not finish (cancelled).`);
  return parts.join('');
}
