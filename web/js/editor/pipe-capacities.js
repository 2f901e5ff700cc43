// Site pipe capacities (replicas.md): network.site_links[k].capacity_gbps, the aggregate capacity
// of the directed pipe between two sites that every transfer across it at the same time shares
// (the replicas' gradient sync above all). One input per directed pair of different sites; an
// empty cell shows what applies without it: the inter-site default's capacity, else none (each
// transfer gets its link's bandwidth). A capacity belongs to its pair's own site link: typing one
// for a pair without a site link adds one with the figures the pair used (so its bandwidth and
// latency do not change), and clearing it removes that entry again when it holds nothing else.
import { h, setChildren } from '../dom.js';
import { fieldText, parseFieldText } from '../format.js';
import { isPlainObject } from '../paths.js';
import { sitesOf } from './gpu-section.js';
import { siteLinkIndex } from './site-matrix.js';

const MAX_SITES = 24;
const siteLabel = (site) => (site === '' ? '(no site)' : site);

function inherited(problem) {
  const net = isPlainObject(problem.network) ? problem.network : {};
  const spec = net.inter_site ?? net.default;
  return isPlainObject(spec) ? spec : {};
}

// Writes (value undefined: clears) the capacity of from -> to in `problem` (a copy).
export function writePipeCapacity(problem, from, to, value) {
  if (!isPlainObject(problem.network)) problem.network = {};
  if (!Array.isArray(problem.network.site_links)) problem.network.site_links = [];
  const links = problem.network.site_links;
  let index = siteLinkIndex(problem, from, to);
  if (index < 0) {
    if (value === undefined) {
      if (links.length === 0) delete problem.network.site_links;
      return;
    }
    const base = inherited(problem);
    links.push({ from, to, bandwidth_gbps: base.bandwidth_gbps, latency_ms: base.latency_ms, ...(base.util !== undefined ? { util: base.util } : {}) });
    index = links.length - 1;
  }
  const entry = links[index];
  if (value !== undefined) {
    entry.capacity_gbps = value;
    return;
  }
  delete entry.capacity_gbps;
  // An entry that only carried the capacity (its figures those the pair would use anyway) goes.
  const base = inherited(problem);
  const extra = Object.keys(entry).filter((k) => !['from', 'to', 'bandwidth_gbps', 'latency_ms', 'util'].includes(k));
  if (extra.length === 0 && entry.bandwidth_gbps === base.bandwidth_gbps && entry.latency_ms === base.latency_ms &&
      (entry.util ?? 1) === (base.util ?? 1)) links.splice(index, 1);
  if (links.length === 0) delete problem.network.site_links;
}

export function createPipeCapacities(ctx, redraw) {
  const element = h('div', { class: 'pipe-capacities' });
  let cells = [];   // [{input, from, to}]
  const placeholderOf = (problem, from, to) => {
    const fallback = inherited(problem).capacity_gbps;
    // Without its own entry the pair uses inter_site and its capacity; with one, only its own.
    return siteLinkIndex(problem, from, to) >= 0 || fallback === undefined ? 'none' : fieldText(fallback);
  };
  return {
    element,
    // The inter-site capacity shows in the empty cells as it is typed, without a redraw.
    refreshPlaceholders(problem) {
      for (const { input, from, to } of cells) input.placeholder = placeholderOf(problem, from, to);
    },
    render(problem) {
      cells = [];
      const sites = sitesOf(problem);
      if (sites.length < 2) {
        setChildren(element, h('p', { class: 'hint', text: 'Pipes join two sites: add GPUs on a second site to give them capacities.' }));
        return;
      }
      if (sites.length > MAX_SITES) {
        setChildren(element, h('p', { class: 'hint', text: `${sites.length} sites are too many for a matrix: edit network.site_links[].capacity_gbps in the JSON tab.` }));
        return;
      }
      const cell = (from, to) => {
        if (from === to) return h('td', { class: 'inherited', text: '–' });
        const index = siteLinkIndex(problem, from, to);
        const entry = index >= 0 ? problem.network.site_links[index] : null;
        const path = index >= 0 ? `network.site_links[${index}].capacity_gbps` : undefined;
        const input = h('input', {
          type: 'text', inputmode: 'decimal', autocomplete: 'off', class: 'cell-number',
          'aria-label': `Pipe capacity from ${siteLabel(from)} to ${siteLabel(to)} (Gbps)`,
          placeholder: placeholderOf(problem, from, to),
          value: entry ? fieldText(entry.capacity_gbps) : '',
          dataset: { focusKey: `pipe:${JSON.stringify([from, to])}`, ...(path ? { path } : {}) },
        });
        cells.push({ input, from, to });
        input.addEventListener('input', () => {
          ctx.store.edit((copy) => writePipeCapacity(copy, from, to, parseFieldText(input.value)), ctx.source);
          redraw();
        });
        return h('td', { class: entry?.capacity_gbps !== undefined ? 'overridden' : 'inherited', dataset: { errorHost: '' } },
          h('label', { class: 'cell-pair' }, input, h('span', { class: 'unit', text: 'Gbps' })));
      };
      const head = h('tr', {}, h('th', { scope: 'col', text: 'from ↓ / to →' }), sites.map((s) => h('th', { scope: 'col', text: siteLabel(s) })));
      const rows = sites.map((from) => h('tr', {}, h('th', { scope: 'row', text: siteLabel(from) }), sites.map((to) => cell(from, to))));
      setChildren(element,
        h('p', { class: 'intro', text: 'The aggregate capacity of each directed wide-area pipe, shared by everything that crosses it at once (the replicas\' gradient sync above all). Empty: the "Between sites" capacity, or none (each transfer gets its link\'s bandwidth). A capacity belongs to its pair\'s own site link: typing one adds that link with the figures the pair already used.' }),
        h('div', { class: 'table-wrap' }, h('table', { class: 'grid matrix' },
          h('caption', { text: 'Site pipe capacities (Gbps) per direction' }), h('thead', {}, head), h('tbody', {}, rows))));
    },
  };
}
