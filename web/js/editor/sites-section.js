// Sites & costs (issue 11): per site the grid's carbon intensity, the data centre's PUE and the
// electricity price (problem.sites, keyed by the names in gpus[].site), and the run's length
// (training.iterations) for the run totals. A region from the catalogue fills a site's empty
// figures; a figure already typed is kept and the row offers the region's value instead, so a
// typed number never changes without a click.
import { h, preservingFocus } from '../dom.js';
import { fieldText, formatNumber, parseFieldText } from '../format.js';
import { isPlainObject } from '../paths.js';
import { field, section } from './fields.js';
import { sitesOf } from './gpu-section.js';

export const SITE_FIELDS = [
  ['carbon_g_per_kwh', 'Carbon', 'gCO2e/kWh', '0'],
  ['pue', 'PUE', '≥ 1', '1'],
  ['price_per_kwh', 'Electricity', '$/kWh', '0'],
];
const MAX_SITE_ROWS = 200;
const siteLabel = (site) => (site === '' ? '(no site)' : site);
// How the planner's messages name a site: `sites.us-east.pue`, `sites."".pue` for GPUs with no site.
const sitePath = (site) => `sites.${site === '' ? '""' : site}`;
const siteEntries = (problem) => (isPlainObject(problem.sites) ? problem.sites : {});

// Writes (value undefined: removes) sites[site][key] in `problem` (a copy), dropping a site left
// empty and `sites` itself when no site is left: an empty object means "as before" anyway.
export function writeSiteField(problem, site, key, value) {
  if (value === undefined) {
    const entry = problem.sites?.[site];
    if (!isPlainObject(entry)) return;
    delete entry[key];
    if (Object.keys(entry).length === 0) delete problem.sites[site];
    if (Object.keys(problem.sites).length === 0) delete problem.sites;
    return;
  }
  if (!isPlainObject(problem.sites)) problem.sites = {};
  if (!isPlainObject(problem.sites[site])) problem.sites[site] = {};
  problem.sites[site][key] = value;
}

// What picking `region` does to `site`: the empty fields it fills, and the typed ones that differ.
export function regionFill(problem, site, region) {
  const entry = isPlainObject(siteEntries(problem)[site]) ? siteEntries(problem)[site] : {};
  const fills = [];
  const kept = [];
  for (const [key] of SITE_FIELDS) {
    const value = region?.[key];
    if (!Number.isFinite(value)) continue;
    if (entry[key] === undefined) fills.push([key, value]);
    else if (entry[key] !== value) kept.push([key, value]);
  }
  return { fills, kept };
}

const regionText = (r) => `${r.name ?? r.region}: ${formatNumber(r.carbon_g_per_kwh)} g/kWh, PUE ${formatNumber(r.pue)}, $${formatNumber(r.price_per_kwh)}/kWh`;

export function createSitesSection(ctx) {
  const sites = section('Sites', {
    path: 'sites',
    intro: 'Per site: the grid\'s carbon intensity, the data centre\'s PUE (facility energy ÷ GPU energy) and the electricity price. Empty fields mean 0 gCO2e/kWh, PUE 1 and $0/kWh, so the plan is costed as before. A region suggestion fills the empty fields only; numbers you type always win.',
  });
  const body = h('div', { class: 'sites-body' });
  sites.append(body);
  const run = section('Training run', { path: 'training', intro: 'With the run\'s length the plan shows its totals: wall time, energy, carbon and money. Without it, carbon and money per iteration.' });
  const runBody = h('div', { class: 'field-grid' });
  run.append(runBody);
  const element = h('div', { class: 'stack' }, sites, run);
  const notes = new Map();  // site -> what its last region pick did (kept figures to offer)
  const redraw = () => api.render(ctx.store.get());

  function siteInput(site, key, label, unit, fallback) {
    const entry = siteEntries(ctx.store.get())[site];
    const input = h('input', {
      type: 'text', inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false', class: 'cell-number',
      'aria-label': `${label} of site ${siteLabel(site)} (${unit})`, placeholder: fallback,
      value: isPlainObject(entry) ? fieldText(entry[key]) : '',
      // The planner's messages name `sites.NAME.field`: they land on this input.
      dataset: { path: `${sitePath(site)}.${key}`, focusKey: `site-cost:${JSON.stringify([site, key])}` },
    });
    input.addEventListener('input', () => {
      notes.delete(site);
      ctx.store.edit((copy) => writeSiteField(copy, site, key, parseFieldText(input.value)), ctx.source);
    });
    // data-label: the column's name, shown above the input when a phone stacks the row.
    return h('td', { dataset: { errorHost: '', label: `${label} (${unit})` } }, input);
  }

  function regionCell(site) {
    const regions = ctx.regions();
    if (!regions.length) return h('td', {}, h('span', { class: 'hint', text: 'no region catalogue in this build' }));
    // The region picked last is kept in the site's entry (`region`, a note the planner accepts) and
    // shows here; the figures themselves are what the file says.
    const picked = siteEntries(ctx.store.get())[site]?.region;
    const select = h('select', { 'aria-label': `Suggest figures for site ${siteLabel(site)} from a region`, dataset: { path: `${sitePath(site)}.region`, focusKey: `site-region:${JSON.stringify(site)}` } },
      h('option', { value: '', text: 'Suggest from region…' }),
      regions.map((r, i) => h('option', { value: String(i), text: regionText(r), selected: r.region === picked })));
    select.addEventListener('change', () => {
      const region = regions[Number(select.value)];
      if (!region) return;
      const { fills, kept } = regionFill(ctx.store.get(), site, region);
      notes.set(site, { region, kept });
      ctx.store.edit((copy) => {
        for (const [key, value] of fills) writeSiteField(copy, site, key, value);
        if (typeof region.region === 'string') writeSiteField(copy, site, 'region', region.region);
      }, ctx.source);
      redraw();
    });
    return h('td', { class: 'site-suggestion' }, select);
  }

  // After a pick: which region, and a button per typed figure it did not replace.
  function noteRow(site) {
    const note = notes.get(site);
    if (!note) return null;
    const year = Number.isFinite(note.region.year) ? ` (${note.region.year} figures)` : '';
    const offers = note.kept.map(([key, value]) => {
      const [, label, unit] = SITE_FIELDS.find(([k]) => k === key);
      const button = h('button', { type: 'button', class: 'small', text: `Use ${formatNumber(value)} ${unit}`,
        'aria-label': `Use the region's ${label.toLowerCase()} ${formatNumber(value)} ${unit} for site ${siteLabel(site)}`,
        dataset: { focusKey: `site-offer:${JSON.stringify([site, key])}` } });
      button.addEventListener('click', () => {
        note.kept = note.kept.filter(([k]) => k !== key);
        ctx.store.edit((copy) => writeSiteField(copy, site, key, value), ctx.source);
        redraw();
      });
      return button;
    });
    const text = `${note.region.name ?? note.region.region}${year}: ` +
      (note.kept.length ? 'kept the figures you typed; ' : 'filled the empty figures.');
    // The sources are long: they show on hover (and to screen readers) rather than in the row.
    return h('tr', { class: 'site-note' }, h('td', { colspan: String(SITE_FIELDS.length + 2) },
      h('span', { class: 'hint', text, title: note.region.source || undefined }), ...offers));
  }

  // Site keys no GPU uses: the planner refuses them; one click removes them.
  function orphans(problem, used) {
    const names = Object.keys(siteEntries(problem)).filter((s) => !used.includes(s));
    if (!names.length) return null;
    return h('div', { class: 'orphans' }, h('p', { text: 'Sites in the file that no GPU uses (the planner refuses them):' }),
      h('ul', {}, names.map((name) => {
        const remove = h('button', { type: 'button', class: 'small danger', text: 'Remove', 'aria-label': `Remove site ${siteLabel(name)}`, dataset: { focusKey: `site-orphan:${JSON.stringify(name)}` } });
        remove.addEventListener('click', () => {
          ctx.store.edit((copy) => {
            delete copy.sites[name];
            if (Object.keys(copy.sites).length === 0) delete copy.sites;
          }, ctx.source);
          redraw();
        });
        return h('li', { dataset: { path: sitePath(name), errorHost: '' } }, h('code', { text: JSON.stringify({ [name]: problem.sites[name] }) }), ' ', remove);
      })));
  }

  function table(problem, used) {
    if (used.length === 0) return h('p', { text: 'Add GPUs to give their sites carbon, PUE and prices.' });
    if (used.length > MAX_SITE_ROWS) return h('p', { class: 'hint', text: `${used.length} sites are too many for this table: edit sites in the JSON tab.` });
    const head = h('tr', {}, h('th', { scope: 'col', text: 'Site' }),
      SITE_FIELDS.map(([, label, unit]) => h('th', { scope: 'col' }, label, h('span', { class: 'unit', text: ` (${unit})` }))),
      h('th', { scope: 'col', text: 'Suggestion' }));
    const rows = used.flatMap((site) => [
      h('tr', { dataset: { path: sitePath(site) } }, h('th', { scope: 'row', text: siteLabel(site) }),
        SITE_FIELDS.map(([key, label, unit, fallback]) => siteInput(site, key, label, unit, fallback)), regionCell(site)),
      noteRow(site),
    ]);
    return h('div', { class: 'table-wrap' }, h('table', { class: 'grid site-costs' },
      h('caption', { class: 'visually-hidden', text: 'Carbon intensity, PUE and electricity price per site' }),
      h('thead', {}, head), h('tbody', {}, rows)));
  }

  const api = {
    name: 'sites',
    element,
    render(problem) {
      preservingFocus(element, () => {
        const used = sitesOf(problem);
        body.replaceChildren(table(problem, used), orphans(problem, used) ?? '');
        runBody.replaceChildren(field(ctx, { path: 'training.iterations', label: 'Iterations', unit: 'for run totals', hint: 'a whole number; empty: figures per iteration' }));
      });
    },
  };
  return api;
}
