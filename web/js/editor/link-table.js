// Per-link overrides (network.links): one directed GPU-to-GPU link per row; they beat every
// other rule for that pair.
import { h } from '../dom.js';
import { fieldText } from '../format.js';
import { isPlainObject } from '../paths.js';
import { cellInput, writeField } from './fields.js';

const linksOf = (problem) => (Array.isArray(problem.network?.links) ? problem.network.links : []);
const gpuIds = (problem) => (Array.isArray(problem.gpus) ? problem.gpus.map((g) => (isPlainObject(g) && typeof g.id === 'string' ? g.id : '')).filter(Boolean) : []);

export function createLinkTable(ctx, redraw) {
  const element = h('div', { class: 'link-table' });

  function endSelect(problem, index, end) {
    const path = `network.links[${index}].${end}`;
    const current = fieldText(linksOf(problem)[index]?.[end]);
    const ids = gpuIds(problem);
    const select = h('select', { 'aria-label': `${end === 'from' ? 'From' : 'To'} GPU of link ${index + 1}`, dataset: { path, focusKey: path } },
      ids.map((id) => h('option', { value: id, text: id, selected: id === current })));
    if (!ids.includes(current)) select.append(h('option', { value: current, text: `${current || '(none)'} (unknown)`, selected: true }));
    select.title = select.selectedOptions[0]?.textContent ?? '';
    select.addEventListener('change', () => ctx.store.edit((copy) => writeField(copy, path, select.value), ctx.source));
    return h('td', { dataset: { errorHost: '' } }, select);
  }

  function row(problem, index) {
    const remove = h('button', { type: 'button', class: 'small danger', text: 'Remove', 'aria-label': `Remove link ${index + 1}` });
    remove.addEventListener('click', () => {
      ctx.store.edit((copy) => {
        copy.network.links.splice(index, 1);
        if (copy.network.links.length === 0) delete copy.network.links;
      }, ctx.source);
      redraw();
    });
    const p = `network.links[${index}]`;
    return h('tr', { dataset: { path: p } },
      endSelect(problem, index, 'from'), endSelect(problem, index, 'to'),
      cellInput(ctx, { path: `${p}.bandwidth_gbps`, label: `Bandwidth of link ${index + 1} (Gbps)` }),
      cellInput(ctx, { path: `${p}.latency_ms`, label: `Latency of link ${index + 1} (ms)` }),
      cellInput(ctx, { path: `${p}.util`, label: `Utilisation of link ${index + 1}`, placeholder: '1' }),
      h('td', { class: 'actions' }, remove));
  }

  function add() {
    ctx.store.edit((copy) => {
      if (!isPlainObject(copy.network)) copy.network = {};
      if (!Array.isArray(copy.network.links)) copy.network.links = [];
      const ids = gpuIds(copy);
      copy.network.links.push({ from: ids[0] ?? '', to: ids[1] ?? ids[0] ?? '', bandwidth_gbps: 10, latency_ms: 1 });
    }, ctx.source);
    redraw();
  }

  return {
    element,
    render(problem) {
      const links = linksOf(problem);
      const table = links.length
        ? h('div', { class: 'table-wrap' }, h('table', { class: 'grid' },
          h('caption', { class: 'visually-hidden', text: 'Link overrides' }),
          h('thead', {}, h('tr', {}, ['From', 'To', 'Bandwidth Gbps', 'Latency ms', 'Util', 'Actions'].map((t) => h('th', { scope: 'col', text: t })))),
          h('tbody', {}, links.map((_, i) => row(problem, i)))))
        : h('p', { class: 'hint', text: 'No per-link overrides.' });
      element.replaceChildren(table, h('div', { class: 'row-actions' }, h('button', { type: 'button', class: 'add', text: 'Add link override', onclick: add })));
    },
  };
}
