// The site-by-site matrix: row = from site, column = to site, so the two directions of a pair are
// two cells and may differ. An empty cell inherits intra_site / inter_site / default (shown as its
// placeholder); typing in it writes a network.site_links entry, clearing it removes the entry.
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

export function createSiteMatrix(ctx, redraw) {
  const element = h('div', { class: 'site-matrix' });
  let cellInputs = [];

  function edit(from, to, key, text) {
    let structural = false;
    ctx.store.edit((copy) => {
      if (!isPlainObject(copy.network)) copy.network = {};
      if (!Array.isArray(copy.network.site_links)) copy.network.site_links = [];
      const links = copy.network.site_links;
      let index = siteLinkIndex(copy, from, to);
      if (index < 0) {
        links.push({ from, to });
        index = links.length - 1;
        structural = true;
      }
      const value = parseFieldText(text);
      if (value === undefined) delete links[index][key];
      else links[index][key] = value;
      if (Object.keys(links[index]).every((k) => k === 'from' || k === 'to')) {
        links.splice(index, 1);
        structural = true;
      }
      if (links.length === 0) delete copy.network.site_links;
    }, ctx.source);
    if (structural) redraw();  // indices moved: paths on the other cells must follow
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
        dataset: { focusKey: `site:${from}\u0000${to}\u0000${key}` },
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
      if (sites.length > MAX_MATRIX_SITES) {
        setChildren(element, h('p', { class: 'hint', text: `${sites.length} sites are too many for a matrix (${sites.length * sites.length} cells): edit network.site_links in the JSON tab.` }));
        return;
      }
      const head = h('tr', {}, h('th', { scope: 'col', text: 'from ↓ / to →' }), sites.map((s) => h('th', { scope: 'col', text: siteLabel(s) })));
      const rows = sites.map((from) => h('tr', {}, h('th', { scope: 'row', text: siteLabel(from) }), sites.map((to) => cell(problem, from, to))));
      setChildren(element,
        sites.length ? h('div', { class: 'table-wrap' }, h('table', { class: 'grid matrix' }, h('caption', { text: 'Site to site links: bandwidth (Gbps) and latency (ms) per direction' }), h('thead', {}, head), h('tbody', {}, rows))) : h('p', { text: 'Add GPUs with sites to edit links between sites.' }),
        others(problem, sites));
    },
  };
}
