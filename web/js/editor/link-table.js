// Per-link overrides (network.links): one directed GPU-to-GPU link per row; they beat every
// other rule for that pair. A generated 512-GPU pool may list tens of thousands of them: the
// table shows a page of rows at a time, with a filter by GPU id, and above SELECT_MAX_GPUS GPUs an
// end is a text field with the pool's ids as suggestions (one shared list) instead of a <select>
// holding every id (5,510 links of a 256-GPU pool made 2.8 million <option>s and froze the page
// for 47 s).
import { h, uniqueId } from '../dom.js';
import { fieldText } from '../format.js';
import { isPlainObject } from '../paths.js';
import { cellInput, writeField } from './fields.js';
import { createRowPager } from './row-pager.js';

export const LINK_PAGE_ROWS = 50;
const SELECT_MAX_GPUS = 32;

const linksOf = (problem) => (Array.isArray(problem.network?.links) ? problem.network.links : []);
const gpuIds = (problem) => (Array.isArray(problem.gpus) ? problem.gpus.map((g) => (isPlainObject(g) && typeof g.id === 'string' ? g.id : '')).filter(Boolean) : []);

export function createLinkTable(ctx, redraw) {
  const element = h('div', { class: 'link-table' });
  const listId = uniqueId('link-gpus');
  const pager = createRowPager({
    noun: 'links', pageRows: LINK_PAGE_ROWS, filterLabel: 'Show the link overrides whose ends contain', placeholder: 'GPU id',
    focusKey: 'link-filter', rerender: () => render(ctx.store.get()),
  });
  const body = h('div');  // redrawn; the pager stays, so its filter never loses the focus
  element.append(pager.element, body);

  function endSelect(problem, ids, index, end) {
    const path = `network.links[${index}].${end}`;
    const current = fieldText(linksOf(problem)[index]?.[end]);
    const label = `${end === 'from' ? 'From' : 'To'} GPU of link ${index + 1}`;
    if (ids.length > SELECT_MAX_GPUS) {
      const input = h('input', { type: 'text', list: listId, value: current, autocomplete: 'off', spellcheck: 'false', 'aria-label': label, dataset: { path, focusKey: path } });
      input.addEventListener('input', () => ctx.store.edit((copy) => writeField(copy, path, input.value), ctx.source));
      return h('td', { dataset: { errorHost: '' } }, input);
    }
    const select = h('select', { 'aria-label': label, dataset: { path, focusKey: path } },
      ids.map((id) => h('option', { value: id, text: id, selected: id === current })));
    if (!ids.includes(current)) select.append(h('option', { value: current, text: `${current || '(none)'} (unknown)`, selected: true }));
    select.title = select.selectedOptions[0]?.textContent ?? '';
    select.addEventListener('change', () => ctx.store.edit((copy) => writeField(copy, path, select.value), ctx.source));
    return h('td', { dataset: { errorHost: '' } }, select);
  }

  function row(problem, ids, index) {
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
      endSelect(problem, ids, index, 'from'), endSelect(problem, ids, index, 'to'),
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
    pager.showRow(linksOf(ctx.store.get()).length - 1);  // the new link is the last
    redraw();
  }

  function render(problem) {
    const links = linksOf(problem);
    const ids = gpuIds(problem);
    const shown = pager.page(pager.matching(links.length, (i) => [links[i]?.from, links[i]?.to]), links.length);
    const table = shown.length
      ? h('div', { class: 'table-wrap' }, h('table', { class: 'grid' },
        h('caption', { class: 'visually-hidden', text: 'Link overrides' }),
        h('thead', {}, h('tr', {}, ['From', 'To', 'Bandwidth Gbps', 'Latency ms', 'Util', 'Actions'].map((t) => h('th', { scope: 'col', text: t })))),
        h('tbody', {}, shown.map((i) => row(problem, ids, i)))))
      : h('p', { class: 'hint', text: links.length ? 'No link override matches the filter.' : 'No per-link overrides.' });
    const suggestions = ids.length > SELECT_MAX_GPUS ? h('datalist', { id: listId }, ids.map((id) => h('option', { value: id }))) : null;
    pager.element.hidden = !pager.needed(links.length);
    body.replaceChildren(...[table, suggestions,
      h('div', { class: 'row-actions' }, h('button', { type: 'button', class: 'add', text: 'Add link override', onclick: add }))].filter(Boolean));
  }

  return { element, render };
}
