// Per-site breakdown of the plan's energy, carbon and money (issue 11): one stacked bar per figure,
// each split by site in the sites' colours, then the figures as a table. With training.iterations
// the figures are the whole run's (as the run totals above the plan), otherwise per iteration.
// Cost bars split each site into electricity (solid) and GPU rental (pale).

import {el, html, svgRoot, figure, emptyView, round2, textWidth, tip} from './svg.js';
import {colourScheme} from './colours.js';
import {formatEnergy, formatKwh, formatCarbonG, formatMoney, formatNumber, siteLabel, plural, isError,
        noPlanMessage} from './format.js';

const MIN_WIDTH = 280;
const MAX_WIDTH = 900;
const ROW_H = 62;
const BAR_H = 24;
const PAD = 8;
const FONT = 12;

const num = (x) => (Number.isFinite(x) ? x : 0);

// The figures to draw, scaled to the run when there is one.
function metricsOf(result, sites) {
  const n = Number.isFinite(result.run?.iterations) && result.run.iterations > 0 ? result.run.iterations : 1;
  const facility = sites.some((s) => Number.isFinite(s.facility_energy_j));
  const energyKey = facility ? 'facility_energy_j' : 'energy_j';
  const differs = facility && sites.some((s) => Math.abs(num(s.facility_energy_j) - num(s.energy_j)) > 5e-4 * num(s.energy_j));
  const energyFormat = n > 1 || result.run ? (j) => formatKwh(j / 3.6e6) : formatEnergy;
  const metrics = [{
    key: 'energy', label: differs ? 'Energy at the wall (with PUE)' : 'Energy', format: energyFormat,
    parts: (s) => [{value: num(s[energyKey]) * n}],
  }, {
    key: 'carbon', label: 'Carbon', format: formatCarbonG, parts: (s) => [{value: num(s.carbon_g) * n}],
  }, {
    key: 'cost', label: 'Cost', format: formatMoney,
    // A site without the split counts its whole cost as electricity.
    parts: (s) => (Number.isFinite(s.electricity_cost) || Number.isFinite(s.rental_cost)
      ? [{value: num(s.electricity_cost) * n, what: 'electricity'}, {value: num(s.rental_cost) * n, what: 'GPU rental', pale: true}]
      : [{value: num(s.cost) * n, what: 'electricity'}]),
  }];
  for (const m of metrics) m.total = sites.reduce((sum, s) => sum + m.parts(s).reduce((a, p) => a + p.value, 0), 0);
  // Carbon and cost show only when the problem gives them (energy always: it is the paper's own).
  return {n, metrics: metrics.filter((m) => m.key === 'energy' || m.total > 0)};
}

export function renderSiteCosts(container, problem, result) {
  if (isError(result)) return emptyView(container, 'gt-site-costs', noPlanMessage(result));
  const sites = Array.isArray(result.sites) ? result.sites.filter((s) => s && typeof s === 'object') : [];
  if (sites.length === 0) return emptyView(container, 'gt-site-costs', 'This result has no per-site figures.');
  const colours = colourScheme(problem);
  const {n, metrics} = metricsOf(result, sites);
  const width = Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, Math.floor(container.clientWidth || 640)));
  const legend = legendLayout(sites, width);
  const height = metrics.length * ROW_H + legend.height + PAD;
  const scope = n > 1 ? `over ${n.toLocaleString('en-US')} iterations` : 'per iteration';
  const label = `Per-site breakdown ${scope}: ` + metrics.map((m) => `${m.label} ${m.format(m.total)}`).join(', ');
  const svg = svgRoot(width, height, label, 'gt-sc-svg');
  metrics.forEach((m, row) => svg.appendChild(metricRow(m, sites, colours, width, row * ROW_H + PAD)));
  svg.appendChild(drawLegend(legend, colours, metrics.length * ROW_H + PAD, metrics.some((m) => m.key === 'cost')));
  return figure(container, 'gt-site-costs', [svg, siteTable(sites, metrics, colours, n)],
    `${plural(sites.length, 'site')} in the plan, ${scope}.`);
}

function metricRow(metric, sites, colours, width, top) {
  const g = el('g', {class: 'gt-sc-row', 'data-metric': metric.key});
  const right = width - PAD;
  g.appendChild(el('text', {x: PAD, y: top + FONT, class: 'gt-sc-label'}, metric.label));
  g.appendChild(el('text', {x: right, y: top + FONT, 'text-anchor': 'end', class: 'gt-sc-total'}, metric.format(metric.total)));
  const barTop = top + FONT + 8;
  g.appendChild(el('rect', {x: PAD, y: barTop, width: right - PAD, height: BAR_H, rx: 3, class: 'gt-sc-track'}));
  if (!(metric.total > 0)) return g;
  let x = PAD;
  const span = right - PAD;
  const shares = wholeShares(sites.map((site) => metric.parts(site).reduce((a, p) => a + p.value, 0)));
  sites.forEach((site, index) => {
    const parts = metric.parts(site);
    const siteTotal = parts.reduce((a, p) => a + p.value, 0);
    if (!(siteTotal > 0)) return;
    const siteX = x;
    let solidEnd = x;  // the label sits on the site's solid part (white text on its colour)
    for (const part of parts) {
      const w = (part.value / metric.total) * span;
      if (!(w > 0)) continue;
      const rect = el('rect', {x: round2(x), y: barTop, width: round2(Math.max(0.5, w)), height: BAR_H,
        fill: colours.site(site.site), 'fill-opacity': part.pale ? 0.3 : 1, stroke: colours.site(site.site),
        'stroke-width': part.pale ? 1 : 0, class: part.pale ? 'gt-sc-part is-pale' : 'gt-sc-part', 'data-site': site.site});
      rect.appendChild(tip(`${siteLabel(site.site)}: ${metric.format(part.value)}${part.what && metric.key === 'cost' ? ` ${part.what}` : ''}` +
        ` (${formatNumber((part.value / metric.total) * 100, 1)} % of ${metric.label.toLowerCase()})`));
      g.appendChild(rect);
      x += w;
      if (!part.pale) solidEnd = x;
    }
    // The site's share of the total (its electricity and rental together, as the table's Cost
    // column), inside its part of the bar when it fits.
    const share = shares[index];
    const text = `${siteLabel(site.site)} ${share}`;
    // On the solid part in white; when that is too narrow (a cost that is mostly rent), on the
    // pale part in dark text.
    const fit = (room) => (textWidth(text, 11) + 8 <= room ? text : textWidth(share, 11) + 6 <= room ? share : '');
    const onSolid = fit(solidEnd - siteX);
    const onPale = onSolid ? '' : fit(x - solidEnd);
    if (onSolid || onPale) {
      g.appendChild(el('text', {x: round2((onSolid ? siteX : solidEnd) + 4), y: barTop + BAR_H / 2 + 4,
                                class: onSolid ? 'gt-sc-share' : 'gt-sc-share is-dark', 'data-share': share}, onSolid || onPale));
    }
  });
  return g;
}

// Whole percentages that add up to 100 (largest remainders), as the dollars beside them do;
// a share that rounds to 0 shows as "<1 %", never as "0 %" or "0.4 %" beside a "100 %".
export function wholeShares(values) {
  const total = values.reduce((a, v) => a + (v > 0 ? v : 0), 0);
  if (!(total > 0)) return values.map(() => '');
  const exact = values.map((v) => (v > 0 ? (v / total) * 100 : 0));
  const whole = exact.map(Math.floor);
  let left = 100 - whole.reduce((a, v) => a + v, 0);
  const order = exact.map((v, i) => [v - whole[i], i]).sort((a, b) => b[0] - a[0]);
  for (const [, i] of order) {
    if (left <= 0) break;
    if (exact[i] > 0) whole[i] += 1, left -= 1;
  }
  return whole.map((w, i) => (values[i] > 0 ? (w === 0 ? '<1 %' : `${w} %`) : ''));
}

// Legend entries flow into rows that fit the drawing's width.
function legendLayout(sites, width) {
  const items = [];
  let x = PAD;
  let y = 0;
  for (const site of sites) {
    const text = siteLabel(site.site);
    const w = 18 + textWidth(text, FONT) + 14;
    if (x + w > width - PAD && x > PAD) {
      x = PAD;
      y += 20;
    }
    items.push({site, text, x, y});
    x += w;
  }
  return {items, height: y + 20 + 20};
}

function drawLegend(layout, colours, top, withCost) {
  const g = el('g', {class: 'gt-legend gt-sc-legend'});
  for (const item of layout.items) {
    g.appendChild(el('rect', {x: item.x, y: top + item.y, width: 12, height: 12, rx: 2, fill: colours.site(item.site.site)}));
    g.appendChild(el('text', {x: item.x + 17, y: top + item.y + 10.5}, item.text));
  }
  if (withCost) {
    const y = top + layout.height - 20 + 10.5;
    g.appendChild(el('text', {x: PAD, y, class: 'gt-sc-note'}, 'Cost: solid = electricity, pale = GPU rental.'));
  }
  return g;
}

function siteTable(sites, metrics, colours, n) {
  const has = (key) => metrics.some((m) => m.key === key);
  const energy = metrics.find((m) => m.key === 'energy');
  const cols = [
    ['GPUs', (s) => (Number.isFinite(s.gpus_used) ? String(s.gpus_used) : '–')],
    [energy.label, (s) => energy.format(energy.parts(s)[0].value)],
    has('carbon') && ['Carbon', (s) => formatCarbonG(num(s.carbon_g) * n)],
    has('cost') && ['Electricity', (s) => formatMoney(num(s.electricity_cost ?? s.cost) * n)],
    has('cost') && ['GPU rental', (s) => formatMoney(num(s.rental_cost) * n)],
    has('cost') && ['Cost', (s) => formatMoney(num(s.cost) * n)],
  ].filter(Boolean);
  const head = html('thead', null, html('tr', null, [html('th', {scope: 'col'}, 'Site'),
    ...cols.map(([title]) => html('th', {scope: 'col', class: 'num'}, title))]));
  const body = html('tbody', null, sites.map((s) => {
    const swatch = html('span', {class: 'gt-sc-swatch', 'aria-hidden': 'true'});
    swatch.style.background = colours.site(s.site);
    return html('tr', {'data-site': s.site}, [html('th', {scope: 'row'}, [swatch, siteLabel(s.site)]),
      ...cols.map(([, value]) => html('td', {class: 'num'}, value(s)))]);
  }));
  return html('div', {class: 'gt-st-scroll'}, html('table', {class: 'gt-sc-table'}, [
    html('caption', {class: 'gt-visually-hidden'}, 'Per-site energy, carbon and cost'), head, body]));
}

