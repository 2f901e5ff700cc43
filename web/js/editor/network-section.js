// The network: the fall-back links, the site matrix and the per-link overrides. The planner uses
// the most specific rule for each directed GPU pair: links, intra_node, site_links, intra/inter_site, default.
import { h, preservingFocus } from '../dom.js';
import { field, section } from './fields.js';
import { createLinkTable } from './link-table.js';
import { createSiteMatrix } from './site-matrix.js';
import { createPipeCapacities } from './pipe-capacities.js';

const SPECS = [
  ['intra_site', 'Within a site'],
  ['inter_site', 'Between sites'],
  ['intra_node', 'Within a node (NVLink, PCIe; GPUs sharing gpus[].node)'],
  ['default', 'Default (any pair)'],
];

export function createNetworkSection(ctx) {
  const element = section('Network', { path: 'network', intro: 'Links are directed: A → B and B → A may differ. The most specific rule wins: a link override, then within a node (GPUs sharing a node), then a site-matrix cell, then within/between sites, then the default.' });
  const defaults = h('div', { class: 'link-specs' });
  const redraw = () => api.render(ctx.store.get());
  const matrix = createSiteMatrix(ctx, redraw);
  const links = createLinkTable(ctx, redraw);
  const pipes = createPipeCapacities(ctx, redraw);
  element.append(
    h('h3', { text: 'Defaults' }), defaults,
    h('h3', { text: 'Site matrix' }), matrix.element,
    h('h3', { text: 'Site pipe capacities' }), pipes.element,
    h('h3', { text: 'Link overrides' }), links.element);

  function specRow([key, label]) {
    const p = `network.${key}`;
    return h('div', { class: 'link-spec', dataset: { path: p, errorHost: '' } },
      h('h4', { text: label }),
      h('div', { class: 'field-grid compact' },
        field(ctx, { path: `${p}.bandwidth_gbps`, label: 'Bandwidth', unit: 'Gbps' }),
        field(ctx, { path: `${p}.latency_ms`, label: 'Latency', unit: 'ms' }),
        field(ctx, { path: `${p}.util`, label: 'Utilisation', placeholder: '1' }),
        // A pipe's shared capacity (replicas.md) exists for wide-area links only.
        key === 'inter_site' ? field(ctx, { path: `${p}.capacity_gbps`, label: 'Pipe capacity', unit: 'Gbps', placeholder: 'none' }) : null));
  }

  const api = {
    name: 'network',
    element,
    render(problem) {
      preservingFocus(element, () => {
        defaults.replaceChildren(...SPECS.map(specRow));
        matrix.render(problem);
        pipes.render(problem);
        links.render(problem);
      });
    },
    // The matrix placeholders show the fall-back links: keep them current while those are typed.
    update(problem) {
      matrix.refreshPlaceholders(problem);
      pipes.refreshPlaceholders(problem);
    },
  };
  return api;
}
