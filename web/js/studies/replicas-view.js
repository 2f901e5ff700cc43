// The replicas study (docs/replicas.md, "The replicas study"): per wide-area bandwidth (log axis)
// and sync period H, the iteration time of one pipeline against the planner's choice of replicas,
// each replica point labelled with its count, the bandwidths where replicas win shaded and the
// crossover marked: where one pipeline gives way to replicas. A table lists every point; each
// time is a button that shows that plan in the plan views.
import { el, html, round2 } from '../views/svg.js';
import { formatMs, formatNumber, formatPercent } from '../views/format.js';
import { asButton, chartFrame, legendRow, paddedExtent } from './chart.js';

const isPlan = (p) => p && Number.isFinite(p.iteration_ms);
const ONE = 'st-metis';
const MANY = 'st-planner';
const DASHES = ['', '2 3', '8 3 2 3'];

const periodText = (H) => (H === 1 ? 'sync every iteration' : `sync every ${formatNumber(H)} iterations`);
function sideLabel(point, key) {
  const side = point[key];
  const what = key === 'one_pipeline' ? 'one pipeline' : `replicas (${side.replica_count})`;
  return `${what} at ${formatNumber(point.bandwidth_gbps)} Gbps, ${periodText(point.sync_every)}: ` +
    `${formatMs(side.iteration_ms)} on ${formatNumber(side.gpus_used)} GPUs`;
}

export function renderReplicasStudy(container, summary, { onSelect }) {
  const points = (summary.points || []).filter((p) => Number.isFinite(p.bandwidth_gbps) && p.bandwidth_gbps > 0)
    .sort((a, b) => a.bandwidth_gbps - b.bandwidth_gbps || a.sync_every - b.sync_every);
  const periods = [...new Set(points.map((p) => p.sync_every))].sort((a, b) => a - b);
  const body = [];
  if (!points.some((p) => isPlan(p.one_pipeline) || isPlan(p.replicas))) {
    body.push(html('p', { class: 'gt-empty-note' }, 'No point finished, so there is nothing to plot.'));
  } else {
    body.push(html('div', { class: 'st-chart-box' }, chart(points, periods, summary, onSelect)));
  }
  body.push(html('p', { class: 'st-crossover', id: 'st-replicas-crossover' }, crossoverText(summary, periods)));
  if (points.length) body.push(table(points, onSelect));
  body.push(html('figcaption', { class: 'gt-caption' }, 'Every cross-site link (and pipe capacity) rescaled so that the base wide-area bandwidth takes each value; ' +
    'one pipeline is search.replicas 1, replicas the planner\'s choice with "auto" (which may still be one pipeline). ' +
    'A sync period H > 1 is local SGD: it changes the optimiser, whose convergence is not modelled.'));
  container.replaceChildren(html('figure', { class: 'st-view st-replicas' }, body));
}

function chart(points, periods, summary, onSelect) {
  const values = points.map((p) => p.bandwidth_gbps);
  const times = points.flatMap((p) => [p.one_pipeline?.iteration_ms, p.replicas?.iteration_ms]);
  const [v0, v1] = [Math.min(...values), Math.max(...values)];
  const yDomain = paddedExtent([0, ...times], 0.08);
  yDomain[0] = 0;
  const frame = chartFrame({
    label: 'Iteration time against wide-area bandwidth: one pipeline and the planner\'s replicas',
    className: 'st-replicas-chart',
    xDomain: v0 === v1 ? [v0 / 2, v1 * 2] : [v0 / 1.4, v1 * 1.4], xLog: true, yDomain,
    xTitle: 'wide-area bandwidth (Gbps, log scale)', yTitle: 'iteration time',
    xFormat: (v) => formatNumber(v), yFormat: formatMs, legend: true,
  });
  const { plot, x, y, top, bottom } = frame;
  // Where replicas win, per H: shaded from the lowest winning bandwidth (the crossover) rightwards.
  (summary.crossover || []).forEach((c, k) => {
    if (!Number.isFinite(c.lowest_gbps)) return;
    const px = round2(x(c.lowest_gbps));
    plot.appendChild(el('line', { class: 'st-base st-crossover-line', x1: px, x2: px, y1: top, y2: bottom, 'data-sync-every': c.sync_every,
      'stroke-dasharray': DASHES[k % DASHES.length] || undefined }));
    plot.appendChild(el('text', { class: 'st-label st-crossover-label', x: round2(px + 4), y: top + 12 + 14 * k, 'font-size': 11 },
      `replicas win from ${formatNumber(c.lowest_gbps)} Gbps${periods.length > 1 ? ` (H ${c.sync_every})` : ''}`));
  });
  periods.forEach((H, k) => {
    for (const [key, cls] of [['one_pipeline', ONE], ['replicas', MANY]]) {
      const line = points.filter((p) => p.sync_every === H && isPlan(p[key]));
      if (line.length > 1) {
        plot.appendChild(el('polyline', {
          class: `st-line ${cls}-line`, fill: 'none', 'data-side': key, 'data-sync-every': H,
          'stroke-dasharray': k > 0 ? DASHES[k % DASHES.length] : undefined,
          points: line.map((p) => `${round2(x(p.bandwidth_gbps))},${round2(y(p[key].iteration_ms))}`).join(' '),
        }));
      }
      for (const point of line) {
        const side = point[key];
        const label = sideLabel(point, key);
        const wins = key === 'replicas' && point.winner === 'replicas';
        const node = el('circle', {
          class: `st-point ${cls}${wins ? ' is-win' : ''}`, cx: round2(x(point.bandwidth_gbps)), cy: round2(y(side.iteration_ms)),
          r: key === 'replicas' ? 5.5 : 4.5, 'data-job': side.job, 'data-side': key, 'data-value': point.bandwidth_gbps, 'data-sync-every': H,
        });
        plot.appendChild(asButton(node, label, () => onSelect(side.job, label)));
        if (key === 'replicas' && side.replica_count > 1) {
          plot.appendChild(el('text', { class: 'st-label st-replica-count', x: round2(x(point.bandwidth_gbps) + 7), y: round2(y(side.iteration_ms) - 7),
            'font-size': 11, 'data-value': point.bandwidth_gbps }, `×${side.replica_count}`));
        }
      }
    }
  });
  frame.svg.appendChild(legendRow(frame.left, frame.legendY, [
    [el('circle', { class: `st-point ${ONE}`, r: 4 }), 'one pipeline'],
    [el('circle', { class: `st-point ${MANY}`, r: 5 }), 'replicas (auto)'],
    [el('text', { class: 'st-label', x: -6, y: 4, 'font-size': 11 }, '×R'), 'replica count'],
  ]));
  return frame.svg;
}

function crossoverText(summary, periods) {
  const parts = (summary.crossover || []).map((c) => {
    const where = Number.isFinite(c.lowest_gbps)
      ? `replicas win from ${formatNumber(c.lowest_gbps)} Gbps (at ${c.replicas_win_at_gbps.map((v) => formatNumber(v)).join(', ')} Gbps)`
      : 'one pipeline wins at every bandwidth tried';
    return `${periods.length > 1 || c.sync_every !== 1 ? `${periodText(c.sync_every)}: ` : ''}${where}`;
  });
  if (summary.missing > 0) parts.push(`${summary.missing} job${summary.missing === 1 ? '' : 's'} did not finish`);
  return parts.length ? `${parts.join('; ')}.` : '';
}

function table(points, onSelect) {
  const cell = (point, key) => {
    const side = point[key];
    if (!isPlan(side)) return html('td', { class: 'num gt-muted' }, side?.error ? 'failed' : '–');
    const label = sideLabel(point, key);
    const button = html('button', { type: 'button', class: 'st-show', 'data-job': side.job, 'aria-label': `Show the plan: ${label}` }, formatMs(side.iteration_ms));
    button.addEventListener('click', () => onSelect(side.job, label));
    return html('td', { class: 'num' }, button);
  };
  const rows = points.map((point) => html('tr', { 'data-value': point.bandwidth_gbps, 'data-sync-every': point.sync_every,
    class: point.winner === 'replicas' ? 'is-win' : undefined }, [
    html('th', { scope: 'row', class: 'num' }, `${formatNumber(point.bandwidth_gbps)} Gbps`),
    html('td', { class: 'num' }, formatNumber(point.sync_every)),
    cell(point, 'one_pipeline'),
    html('td', { class: 'num' }, isPlan(point.one_pipeline) ? formatNumber(point.one_pipeline.gpus_used) : '–'),
    cell(point, 'replicas'),
    html('td', { class: 'num' }, isPlan(point.replicas) ? `${point.replicas.replica_count} on ${formatNumber(point.replicas.gpus_used)}` : '–'),
    html('td', null, point.winner ?? '–'),
    html('td', { class: 'num' }, Number.isFinite(point.gain_pct) ? formatPercent(-point.gain_pct / 100) : '–'),
  ]));
  return html('div', { class: 'gt-st-scroll' }, html('table', { class: 'gt-st-table st-table st-replicas-table' }, [
    html('caption', null, 'One pipeline against the planner\'s replicas at each wide-area bandwidth and sync period H. Choose a time to see that plan.'),
    html('thead', null, html('tr', null, ['bandwidth', 'H', 'one pipeline', 'GPUs', 'replicas', 'R on GPUs', 'winner', 'replicas vs one']
      .map((t, i) => html('th', { scope: 'col', class: i === 6 ? undefined : 'num' }, t)))),
    html('tbody', null, rows)]));
}
