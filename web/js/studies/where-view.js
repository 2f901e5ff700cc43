// Where to train (issue 11 point 5): the best plan on each site alone and on every pair of sites.
// The summary's four picks (best objective, fastest, cleanest, cheapest) as a short list; a small bar
// chart of objective, carbon and money per subset (each site, and each pair whose plan uses both
// sites: a pair that keeps to one site repeats that site's row), narrow enough for a phone; and a
// table of every subset. Bars and rows show their plan.
import { el, html, round2 } from '../views/svg.js';
import { formatCarbonG, formatEnergy, formatMoney, formatMs, formatNumber, formatRunTime, siteLabel } from '../views/format.js';
import { asButton } from './chart.js';

const isPlan = (p) => p && p.feasible !== false && Number.isFinite(p.objective);
const sitesText = (sites) => (sites || []).map((s) => siteLabel(s)).join(' + ');
const samePick = (pick, point) => pick && JSON.stringify(pick.sites) === JSON.stringify(point.sites);

const PICKS = [
  ['best', 'Best objective', (p) => formatNumber(p.objective, 4), 'objective'],
  ['fastest', 'Fastest', (p) => formatMs(p.iteration_ms), 'iteration_ms'],
  ['cleanest', 'Cleanest', (p) => formatCarbonG(p.carbon_g), 'carbon_g'],
  ['cheapest', 'Cheapest', (p) => formatMoney(p.cost), 'cost'],
];

// A pick names a winner only when the choices differ in its figure: with no site figures every
// choice is 0 g and $0, and none of them is the cleanest or the cheapest.
function differs(plans, key) {
  const values = plans.map((p) => p[key]).filter(Number.isFinite);
  if (values.length < 2) return values.length === 1 && plans.length === 1;
  const low = Math.min(...values);
  const high = Math.max(...values);
  return high - low > 1e-9 * Math.max(Math.abs(low), Math.abs(high));
}

// The picks that name a winner, for this summary's plans.
function winningPicks(summary, points) {
  const plans = points.filter(isPlan);
  return new Set(PICKS.filter(([key, , , field]) => summary[key] && differs(plans, field)).map(([key]) => key));
}

const METRICS = [
  { key: 'objective', label: 'objective', format: (v) => formatNumber(v, 4), className: 'st-where-objective' },
  { key: 'carbon_g', label: 'carbon', format: formatCarbonG, className: 'st-where-carbon' },
  { key: 'cost', label: 'money', format: formatMoney, className: 'st-where-cost' },
];

function pointState(point) {
  if (point.feasible === false) return `no plan fits: ${point.reason ?? ''}`;
  if (point.error) return `failed: ${point.error}`;
  return 'did not finish';
}

function pointLabel(point) {
  if (!isPlan(point)) return `${sitesText(point.sites)}: ${pointState(point)}`;
  return `${sitesText(point.sites)}: objective ${formatNumber(point.objective, 4)}, ${formatMs(point.iteration_ms)}, ${formatCarbonG(point.carbon_g)}, ${formatMoney(point.cost)} per iteration`;
}

export function renderWhere(container, summary, { onSelect }) {
  const points = summary.points || [];
  const plans = points.filter(isPlan);
  const winners = winningPicks(summary, points);
  // Ties name no winner: the summary's picks are kept only where the choices differ.
  summary = { ...summary, ...Object.fromEntries(PICKS.filter(([key]) => !winners.has(key)).map(([key]) => [key, null])) };
  const body = [picksList(summary, points, onSelect, plans)];
  // A pair whose best plan keeps to one site draws nothing new: the bars show the distinct choices.
  const drawn = plans.filter((p) => p.sites.length === 1 || (p.sites_used || []).length === p.sites.length);
  if (drawn.length) body.push(barChart(drawn, summary, onSelect));
  else body.push(html('p', { class: 'gt-empty-note' }, 'No subset of sites has a plan yet.'));
  if (points.length) body.push(whereTable(points, summary, onSelect));
  body.push(html('figcaption', { class: 'gt-caption' }, captionText(summary, points, plans)));
  container.replaceChildren(html('figure', { class: 'st-view st-where' }, body));
}

function picksList(summary, points, onSelect, plans) {
  const items = PICKS.map(([key, title, format, field]) => {
    const pick = summary[key];
    const point = pick && points.find((p) => samePick(pick, p));
    if (!point || !isPlan(point)) {
      // Every choice alike: say so, with the figure they share.
      const tie = plans.length > 1 && Number.isFinite(plans[0][field]) ? `no difference: all ${format(plans[0])}` : '–';
      return html('div', { class: 'st-where-pick', 'data-pick': key, 'data-tie': plans.length > 1 ? 'true' : undefined }, [html('dt', null, title), html('dd', null, tie)]);
    }
    const label = `${title}: ${pointLabel(point)}`;
    const button = html('button', { type: 'button', class: 'st-show', 'data-job': point.job, 'aria-label': `Show the plan: ${label}` }, sitesText(point.sites));
    button.addEventListener('click', () => onSelect(point.job, label));
    return html('div', { class: 'st-where-pick', 'data-pick': key, 'data-sites': sitesText(point.sites) },
      [html('dt', null, title), html('dd', null, [button, html('span', { class: 'st-where-pick-value' }, ` ${format(point)}`)])]);
  });
  return html('dl', { class: 'st-where-picks' }, items);
}

// One row a subset: its sites, then a thin bar per metric scaled to that metric's largest value.
const W = 340;
const BAR_X = 64;
const BAR_MAX = 170;
const BAR_H = 8;
const LINE = 12;

function barChart(points, summary, onSelect) {
  const rowHeight = 16 + METRICS.length * LINE + 8;
  const height = points.length * rowHeight + 30;
  const label = `Objective, carbon and money per iteration for ${points.length} choices of sites`;
  const svg = el('svg', {
    class: 'st-chart st-where-chart', viewBox: `0 0 ${W} ${height}`, width: '100%', style: `max-width: ${W * 1.4}px; min-width: ${W}px`,
    preserveAspectRatio: 'xMinYMin meet', role: 'img', 'aria-label': label,
  }, el('title', null, label));
  const largest = Object.fromEntries(METRICS.map((m) => [m.key, Math.max(...points.map((p) => p[m.key]).filter(Number.isFinite), 0)]));
  points.forEach((point, i) => {
    const top = i * rowHeight;
    const best = samePick(summary.best, point);
    const parts = [el('text', { class: `st-where-name${best ? ' is-best' : ''}`, x: 0, y: top + 12 }, `${sitesText(point.sites)}${best ? ' (best)' : ''}`)];
    METRICS.forEach((m, k) => {
      const y = top + 16 + k * LINE;
      const value = point[m.key];
      const length = largest[m.key] > 0 && Number.isFinite(value) ? Math.max(1, (value / largest[m.key]) * BAR_MAX) : 1;
      parts.push(el('text', { class: 'st-where-metric', x: 0, y: y + BAR_H }, m.label));
      parts.push(el('rect', { class: `st-bar ${m.className}`, x: BAR_X, y: y + 1, width: round2(length), height: BAR_H, rx: 1.5, 'data-metric': m.key, 'data-value': value }));
      parts.push(el('text', { class: 'st-where-value', x: round2(BAR_X + length + 4), y: y + BAR_H }, m.format(value)));
    });
    const row = el('g', { class: `st-where-row${best ? ' is-best' : ''}`, 'data-job': point.job, 'data-sites': sitesText(point.sites) }, parts);
    svg.appendChild(asButton(row, pointLabel(point), () => onSelect(point.job, pointLabel(point))));
  });
  const legendY = points.length * rowHeight + 14;
  svg.appendChild(el('text', { class: 'st-where-metric', x: 0, y: legendY }, 'Each bar against the largest of its kind; per iteration.'));
  return html('div', { class: 'st-chart-box st-where-box' }, svg);
}

function whereTable(points, summary, onSelect) {
  const marks = (point) => PICKS.filter(([key]) => samePick(summary[key], point)).map(([, title]) => title.toLowerCase());
  const head = html('thead', null, html('tr', null, ['Sites', 'Plan uses', 'T_iter', 'Carbon', 'Money', 'Objective', 'GPUs', 'Run'].map((t, i) =>
    html('th', { scope: 'col', class: i >= 2 && i <= 5 ? 'num' : undefined }, t))));
  const rows = points.map((point) => {
    const label = pointLabel(point);
    const name = sitesText(point.sites);
    const attrs = { 'data-job': point.job ?? undefined, 'data-sites': name, class: isPlan(point) ? (samePick(summary.best, point) ? 'is-best' : undefined) : 'is-infeasible' };
    if (!isPlan(point)) {
      return html('tr', attrs, [html('th', { scope: 'row' }, name), html('td', { colspan: 7 }, pointState(point))]);
    }
    const show = html('button', { type: 'button', class: 'st-show', 'data-job': point.job, 'aria-label': `Show the plan for ${label}` }, name);
    show.addEventListener('click', () => onSelect(point.job, label));
    const picked = marks(point);
    const uses = (point.sites_used || []).length < point.sites.length ? `only ${sitesText(point.sites_used)}` : sitesText(point.sites_used);
    const run = point.run ? `${formatRunTime(point.run.hours)}, ${formatCarbonG(point.run.carbon_kg * 1000)}, ${formatMoney(point.run.cost)}` : '–';
    return html('tr', attrs, [
      html('th', { scope: 'row' }, [show, picked.length ? html('span', { class: 'st-where-marks' }, picked.join(', ')) : null]),
      html('td', null, uses),
      html('td', { class: 'num', title: `energy ${formatEnergy(point.energy_j)} per iteration` }, formatMs(point.iteration_ms)),
      html('td', { class: 'num' }, formatCarbonG(point.carbon_g)),
      html('td', { class: 'num' }, formatMoney(point.cost)),
      html('td', { class: 'num' }, formatNumber(point.objective, 4)),
      html('td', { class: 'st-gpus' }, `${point.gpus ?? ''}${Number.isFinite(point.gpus_used) ? ` (${point.gpus_used})` : ''}`),
      html('td', null, run),
    ]);
  });
  return html('div', { class: 'gt-st-scroll' }, html('table', { class: 'gt-st-table st-table st-where-table' }, [
    html('caption', null, 'Every site alone and every pair of sites: the best plan on their GPUs, per iteration, and over the run when the problem gives its length. Choose the sites to see the plan.'),
    head, html('tbody', null, rows)]));
}

function captionText(summary, points, plans) {
  const parts = [`${plans.length} of ${points.length} choices of sites have a plan; objectives use the whole problem's references, so they compare.`];
  for (const note of summary.notes || []) parts.push(` Note: ${note}.`);
  if (summary.missing > 0) parts.push(` ${summary.missing} job${summary.missing === 1 ? '' : 's'} did not finish (cancelled).`);
  return parts.join('');
}
