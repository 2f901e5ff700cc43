// The site-by-site matrix: row = from site, column = to site, so the two directions of a pair are
// two cells and may differ. An empty cell inherits intra_site / inter_site / default (shown as its
// placeholder); typing in it writes a network.site_links entry, clearing it removes the entry.
// An entry needs both halves: typing only one takes the other from the level the cell overrides
// (what its placeholder showed). Edits never redraw the matrix: the cells' paths are updated in
// place, so the focus, the caret and every key stay where the user is typing.
import { h, setChildren } from '../dom.js';
import { fieldText, parseFieldText } from '../format.js';
import { isPlainObject } from '../paths.js';
import { sitesOf } from './gpu-section.js';

// Beyond this the matrix would hold thousands of inputs; the JSON tab stays available.
const MAX_MATRIX_SITES = 24;
const FIELDS = [['bandwidth_gbps', 'Gbps'], ['latency_ms', 'ms']];
const siteLinks = (problem) => (Array.isArray(problem.network?.site_links) ? problem.network.site_links : []);

// The index the planner uses for (from, to): the last matching entry wins.
export function siteLinkIndex(problem, from, to) {
  const links = siteLinks(problem);
  for (let i = links.length - 1; i >= 0; --i) {
    if (isPlainObject(links[i]) && links[i].from === from && links[i].to === to) return i;
  }
  return -1;
}

function inherited(problem, from, to) {
  const net = isPlainObject(problem.network) ? problem.network : {};
  const spec = (from === to ? net.intra_site : net.inter_site) ?? net.default;
  return isPlainObject(spec) ? spec : {};
}

const siteLabel = (site) => (site === '' ? '(no site)' : site);

const otherHalf = (key) => (key === 'bandwidth_gbps' ? 'latency_ms' : 'bandwidth_gbps');

// Writes one half of (from, to)'s entry in `problem` (a copy): a new entry takes the other half
// from the inherited level; clearing a half whose other half is still the inherited one removes the
// entry, otherwise the cleared half falls back to the inherited value.
export function writeSiteLinkHalf(problem, from, to, key, value) {
  const base = inherited(problem, from, to);
  if (!isPlainObject(problem.network)) problem.network = {};
  if (!Array.isArray(problem.network.site_links)) problem.network.site_links = [];
  const links = problem.network.site_links;
  let index = siteLinkIndex(problem, from, to);
  if (index < 0) {
    if (value === undefined) return;
    links.push({ from, to });
    index = links.length - 1;
  }
  const entry = links[index];
  const other = otherHalf(key);
  if (value === undefined) {
    // An entry that also holds a pipe capacity (pipe-capacities.js) stays: the capacity is its own.
    if ((entry[other] === undefined || entry[other] === base[other]) && entry.capacity_gbps === undefined) links.splice(index, 1);
    else if (base[key] !== undefined) entry[key] = base[key];
    else delete entry[key];
  } else {
    entry[key] = value;
    if (entry[other] === undefined && base[other] !== undefined) entry[other] = base[other];
  }
  if (links.length === 0) delete problem.network.site_links;
}

export function createSiteMatrix(ctx, redraw) {
  const element = h('div', { class: 'site-matrix' });
  const orphans = h('div', { class: 'orphans-host' });
  let cellInputs = [];
  let shownSites = [];

  function edit(from, to, key, text) {
    ctx.store.edit((copy) => writeSiteLinkHalf(copy, from, to, key, parseFieldText(text)), ctx.source);
    refreshCells(ctx.store.get());
  }

  // After an edit: every cell's path (indices move when entries come and go), its class, and the
  // values of cells not being typed in (a new entry's other half appears).
  function refreshCells(problem) {
    for (const { input, from, to, key } of cellInputs) {
      const index = siteLinkIndex(problem, from, to);
      const td = input.closest('td');
      td.className = index >= 0 ? 'overridden' : 'inherited';
      if (index >= 0) {
        input.dataset.path = `network.site_links[${index}].${key}`;
        td.dataset.path = `network.site_links[${index}]`;
      } else {
        delete input.dataset.path;
        delete td.dataset.path;
      }
      if (input !== document.activeElement) input.value = index >= 0 ? fieldText(siteLinks(problem)[index][key]) : '';
    }
    orphans.replaceChildren(others(problem, shownSites) ?? '');
  }

  function cell(problem, from, to) {
    const index = siteLinkIndex(problem, from, to);
    const entry = index >= 0 ? siteLinks(problem)[index] : null;
    const base = inherited(problem, from, to);
    const td = h('td', { class: entry ? 'overridden' : 'inherited', dataset: index >= 0 ? { path: `network.site_links[${index}]`, errorHost: '' } : { errorHost: '' } });
    for (const [key, unit] of FIELDS) {
      const input = h('input', {
        type: 'text', inputmode: 'decimal', autocomplete: 'off', class: 'cell-number',
        'aria-label': `${key === 'bandwidth_gbps' ? 'Bandwidth' : 'Latency'} from ${siteLabel(from)} to ${siteLabel(to)} (${unit})`,
        placeholder: fieldText(base[key]),
        value: entry ? fieldText(entry[key]) : '',
        dataset: { focusKey: `site:${JSON.stringify([from, to, key])}` },
      });
      cellInputs.push({ input, from, to, key });
      if (index >= 0) input.dataset.path = `network.site_links[${index}].${key}`;
      input.addEventListener('input', () => edit(from, to, key, input.value));
      td.append(h('label', { class: 'cell-pair' }, input, h('span', { class: 'unit', text: unit })));
    }
    return td;
  }

  // Entries the matrix cannot show: unknown sites, or earlier duplicates of a pair.
  function others(problem, sites) {
    const items = [];
    siteLinks(problem).forEach((link, index) => {
      const shown = isPlainObject(link) && sites.includes(link.from) && sites.includes(link.to) &&
        siteLinkIndex(problem, link.from, link.to) === index;
      if (shown) return;
      const remove = h('button', { type: 'button', class: 'small danger', text: 'Remove', 'aria-label': `Remove site link ${index + 1}` });
      remove.addEventListener('click', () => {
        ctx.store.edit((copy) => {
          copy.network.site_links.splice(index, 1);
          if (copy.network.site_links.length === 0) delete copy.network.site_links;
        }, ctx.source);
        redraw();
      });
      remove.dataset.focusKey = `site-orphan-remove:${index}`;
      items.push(h('li', { dataset: { path: `network.site_links[${index}]`, errorHost: '' } },
        h('code', { text: JSON.stringify(link) }), ' ', remove));
    });
    if (items.length === 0) return null;
    return h('div', { class: 'orphans' }, h('p', { text: 'Site links the matrix cannot show (unknown site, or shadowed by a later entry for the same pair):' }), h('ul', {}, items));
  }

  return {
    element,
    // New fall-back values show in the empty cells without redrawing the cell being typed in.
    refreshPlaceholders(problem) {
      for (const { input, from, to, key } of cellInputs) input.placeholder = fieldText(inherited(problem, from, to)[key]);
    },
    render(problem) {
      cellInputs = [];
      const sites = sitesOf(problem);
      shownSites = sites;
      if (sites.length > MAX_MATRIX_SITES) {
        setChildren(element, h('p', { class: 'hint', text: `${sites.length} sites are too many for a matrix (${sites.length * sites.length} cells): edit network.site_links in the JSON tab.` }));
        return;
      }
      const head = h('tr', {}, h('th', { scope: 'col', text: 'from ↓ / to →' }), sites.map((s) => h('th', { scope: 'col', text: siteLabel(s) })));
      const rows = sites.map((from) => h('tr', {}, h('th', { scope: 'row', text: siteLabel(from) }), sites.map((to) => cell(problem, from, to))));
      orphans.replaceChildren(others(problem, sites) ?? '');
      setChildren(element,
        sites.length ? h('div', { class: 'table-wrap' }, h('table', { class: 'grid matrix' }, h('caption', { text: 'Site to site links: bandwidth (Gbps) and latency (ms) per direction' }), h('thead', {}, head), h('tbody', {}, rows))) : h('p', { text: 'Add GPUs with sites to edit links between sites.' }),
        orphans);
    },
  };
}
