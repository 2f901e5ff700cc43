// The GPU table: one row per GPU, a catalogue dropdown per row, add / duplicate / remove.
// Choosing a catalogue type clears the row's own figures so that the catalogue fills them for the
// model's precision (they show as placeholders); any figure typed in wins, as in the file format.
import { h, preservingFocus } from '../dom.js';
import { fieldText, parseFieldText } from '../format.js';
import { formatMoney } from '../views/format.js';
import { isPlainObject } from '../paths.js';
import { cataloguePrice, findEntry, gpuDefault } from './catalogue.js';
import { boundInput, cellInput, section, writeField } from './fields.js';
import { createNodeAdd, utilisationsFor } from './node-add.js';
import { createRowPager } from './row-pager.js';

const FIGURES = ['peak_tflops', 'memory_gib', 'idle_w', 'active_w'];
const COLUMNS = [
  ['id', 'ID', 'text'], ['type', 'Type', 'type'], ['site', 'Site', 'text'], ['node', 'Node', 'text'],
  ['peak_tflops', 'Peak TFLOPS', 'number'], ['compute_util', 'Compute util', 'number'],
  ['memory_gib', 'Memory GiB', 'number'], ['memory_util', 'Memory util', 'number'],
  ['idle_w', 'Idle W', 'number'], ['active_w', 'Active W', 'number'],
  ['price_per_hour', 'Price $/h', 'price'],
  // Where the launch lines run (issue 12): the machine's address and the GPU's CUDA index.
  ['host', 'Host', 'text'], ['device', 'Device', 'number'],
];

// The largest example (64 GPUs) shows whole; a larger pool a page at a time (row-pager.js).
export const GPU_PAGE_ROWS = 64;

const gpuList = (problem) => (Array.isArray(problem.gpus) ? problem.gpus : []);
const idOf = (gpu) => (isPlainObject(gpu) && typeof gpu.id === 'string' ? gpu.id : '');

export function sitesOf(problem) {
  const sites = [];
  for (const gpu of gpuList(problem)) {
    const site = isPlainObject(gpu) && typeof gpu.site === 'string' ? gpu.site : '';
    if (!sites.includes(site)) sites.push(site);
  }
  return sites;
}

// 'a100-2' -> 'a100-3' (or 'gpu-N'), not yet taken.
export function freshId(problem, base) {
  const taken = new Set(gpuList(problem).map(idOf));
  const match = /^(.*?)(\d+)$/.exec(base || '');
  const stem = match ? match[1] : (base ? `${base}-` : 'gpu-');
  let n = match ? Number(match[2]) + 1 : taken.size;
  while (taken.has(`${stem}${n}`)) n += 1;
  return `${stem}${n}`;
}

// The link-override ends ([index, 'from'|'to']) that name `id`: they follow the GPU through a rename.
export function linkEndsNaming(problem, id) {
  const links = problem.network?.links;
  const ends = [];
  if (!Array.isArray(links) || !id) return ends;
  links.forEach((link, index) => {
    if (!isPlainObject(link)) return;
    for (const end of ['from', 'to']) if (link[end] === id) ends.push([index, end]);
  });
  return ends;
}

function dropLinksOf(problem, id) {
  const links = problem.network?.links;
  if (!Array.isArray(links)) return;
  problem.network.links = links.filter((l) => !isPlainObject(l) || (l.from !== id && l.to !== id));
  if (problem.network.links.length === 0) delete problem.network.links;
}

export function createGpuSection(ctx) {
  const element = section('GPUs', { path: 'gpus', intro: 'Each GPU is one pipeline stage at most; with parallelism "hybrid" (Objective & search tab) GPUs of one node may serve a stage together. Pick a type to use the catalogue figures; type a figure to override it.' });
  const summary = h('p', { class: 'derived' });
  const wrap = h('div', { class: 'table-wrap' });
  const siteList = h('datalist', { id: 'site-names' });
  const addButton = h('button', { type: 'button', class: 'add', text: 'Add GPU' });
  const fillPrices = h('button', { type: 'button', class: 'add', id: 'fill-gpu-prices', hidden: true });
  const noPrice = h('small', { class: 'hint', id: 'gpu-no-price', hidden: true, 'aria-live': 'polite' });
  const store = ctx.store;
  const nodeAdd = createNodeAdd(ctx, (change) => editSelf(change));
  const pager = createRowPager({
    noun: 'GPUs', pageRows: GPU_PAGE_ROWS, filterLabel: 'Show the GPUs whose id, type, site or node contain',
    placeholder: 'id, type, site or node', focusKey: 'gpu-filter', rerender: () => api.render(store.get()),
  });
  element.append(summary, pager.element, wrap, siteList, h('div', { class: 'row-actions' }, addButton, fillPrices), noPrice, nodeAdd.element);
  const renames = new Map();  // row -> {ends, id}: the link ends its last rename moved, and to what

  const editSelf = (change) => {
    store.edit(change, ctx.source);
    api.render(store.get());
  };

  // A new GPU starts as a copy of the last row (type, site, utilisations, figures) with a fresh id:
  // pools are mostly runs of alike GPUs.
  addButton.addEventListener('click', () => {
    store.edit(addGpu, ctx.source);
    pager.showRow(gpuList(store.get()).length - 1);  // the new GPU is the last
    api.render(store.get());
  });
  function addGpu(copy) {
    if (!Array.isArray(copy.gpus)) copy.gpus = [];
    const last = copy.gpus[copy.gpus.length - 1];
    const gpu = isPlainObject(last) ? structuredClone(last) : {};
    gpu.id = freshId(copy, idOf(last) || 'gpu-0');
    if (!isPlainObject(last)) {
      const type = ctx.catalogue()[0]?.type;
      if (type) gpu.type = type;
      gpu.site = 'site-a';
      Object.assign(gpu, utilisationsFor(copy));
    }
    copy.gpus.push(gpu);
  }

  function typeCell(index, gpu) {
    const path = `gpus[${index}].type`;
    const current = isPlainObject(gpu) && gpu.type !== undefined ? fieldText(gpu.type) : '';
    const select = h('select', { 'aria-label': `Type of GPU ${index + 1}`, dataset: { path, focusKey: path } },
      h('option', { value: '', text: 'custom', selected: current === '' }));
    const types = ctx.catalogue().map((c) => c.type);
    const known = findEntry(ctx.catalogue(), current)?.type;  // 'a100 sxm 80gb' shows as A100-SXM-80GB
    for (const t of types) select.append(h('option', { value: t, text: t, selected: t === known }));
    if (current && !known) select.append(h('option', { value: current, text: `${current} (not in catalogue)`, selected: true }));
    select.title = select.selectedOptions[0]?.textContent ?? '';
    select.addEventListener('change', () => editSelf((copy) => {
      if (!isPlainObject(copy.gpus[index])) copy.gpus[index] = {};
      const target = copy.gpus[index];
      if (select.value) {
        target.type = select.value;
        for (const f of FIGURES) delete target[f];
      } else {
        // Custom: keep the figures the catalogue gave, written out, so nothing changes silently.
        for (const f of FIGURES) {
          const figure = gpuDefault(copy, ctx.catalogue(), `gpus[${index}].${f}`);
          if (target[f] === undefined && Number.isFinite(figure)) target[f] = figure;
        }
        delete target.type;
      }
    }));
    return h('td', { dataset: { errorHost: '' } }, select);
  }

  // Renaming a GPU renames it in the link overrides too, keystroke by keystroke: the ends that named
  // it when the typing began (when no other GPU shared its id) follow every state of the text, even
  // an empty one, so clearing the id and typing it again leaves the links as they were. The edit is
  // one store change per key under this section's own name, so nothing redraws under the caret.
  function idCell(index) {
    const path = `gpus[${index}].id`;
    const input = boundInput(ctx, { path, kind: 'text', label: `ID of GPU ${index + 1}`, bind: false });
    let ends = null;
    // The ends this row renamed last time still follow it (they may name '' after a clear), as long
    // as they still name what the row's id now is.
    const track = () => {
      const problem = store.get();
      const id = idOf(gpuList(problem)[index]);
      const kept = renames.get(index);
      const links = problem.network?.links;
      if (kept && kept.id === id) {
        ends = kept.ends.filter(([link, end]) => Array.isArray(links) && isPlainObject(links[link]) && links[link][end] === id);
        return;
      }
      const shared = gpuList(problem).filter((g) => idOf(g) === id).length > 1;
      ends = shared ? [] : linkEndsNaming(problem, id);
    };
    input.addEventListener('focus', track);
    input.addEventListener('input', () => {
      if (!ends) track();
      renames.set(index, { ends, id: input.value });
      const value = parseFieldText(input.value, { kind: 'text' });
      store.edit((copy) => {
        writeField(copy, path, value);
        for (const [link, end] of ends) {
          const entry = copy.network?.links?.[link];
          if (isPlainObject(entry)) entry[end] = input.value;
        }
      }, ctx.source);
    });
    input.addEventListener('blur', () => { ends = null; });
    return h('td', { dataset: { errorHost: '' } }, input);
  }

  // The rental price: empty means $0/h (as before issue 11); the catalogue's price for the row's
  // type is a suggestion beside it, written in only by a click.
  function priceCell(index, gpu) {
    const path = `gpus[${index}].price_per_hour`;
    const input = boundInput(ctx, { path, label: `Price per hour of GPU ${index + 1}`, placeholder: '0' });
    const price = cataloguePrice(ctx.catalogue(), gpu);
    // No button when there is no price to suggest, or the row already has that price.
    if (!Number.isFinite(price) || gpu.price_per_hour === price) return h('td', { dataset: { errorHost: '' } }, input);
    const suggest = h('button', {
      type: 'button', class: 'small suggest', text: formatMoney(price),
      title: `Catalogue price of ${gpu.type}: ${formatMoney(price)} per hour`,
      'aria-label': `Use the catalogue price ${formatMoney(price)} per hour for GPU ${index + 1}`,
      dataset: { focusKey: `price-suggest:${index}` },
    });
    suggest.addEventListener('click', () => editSelf((copy) => writeField(copy, path, price)));
    return h('td', { class: 'price-cell', dataset: { errorHost: '' } }, h('div', { class: 'cell-with-suggestion' }, input, suggest));
  }

  // GPUs whose price is empty and whose type has a catalogue price.
  const unpriced = (problem) => gpuList(problem).map((gpu, i) => [i, cataloguePrice(ctx.catalogue(), gpu)])
    .filter(([i, price]) => Number.isFinite(price) && gpuList(problem)[i].price_per_hour === undefined);
  fillPrices.addEventListener('click', () => editSelf((copy) => {
    for (const [i, price] of unpriced(copy)) copy.gpus[i].price_per_hour = price;
  }));
  const describeFill = (problem) => {
    const n = unpriced(problem).length;
    fillPrices.hidden = n === 0;
    fillPrices.textContent = `Fill ${n} empty price${n === 1 ? '' : 's'} from the catalogue`;
    // Once some GPUs have prices, those still without one (no catalogue price either) are named
    // here, not left empty far to the right: they cost $0/h in every plan.
    const gpus = gpuList(problem);
    const priced = (g) => isPlainObject(g) && Number(g.price_per_hour) > 0;
    const free = gpus.some(priced) ? gpus.filter((g, i) => isPlainObject(g) && !priced(g) && !unpriced(problem).some(([k]) => k === i)).map(idOf) : [];
    noPrice.hidden = free.length === 0;
    noPrice.textContent = free.length ? `No price for ${free.length > 6 ? `${free.slice(0, 5).join(', ')} and ${free.length - 5} more` : free.join(', ')}: counted as $0/h.` : '';
  };

  // Renaming the last GPU of a site renames the site's carbon, PUE and price entry (sites.NAME)
  // with it, keystroke by keystroke as ids carry their links; a GPU leaving a site that other GPUs
  // keep, or joining one other GPUs are on, leaves the entries where they are.
  function siteCell(index) {
    const path = `gpus[${index}].site`;
    const input = boundInput(ctx, { path, kind: 'text', label: `Site of GPU ${index + 1}`, list: 'site-names', bind: false });
    let carried = null;  // the sites key this row's typing carries, or '' for none
    const siteOf = (gpu) => (isPlainObject(gpu) && typeof gpu.site === 'string' ? gpu.site : '');
    input.addEventListener('focus', () => {
      const problem = store.get();
      const site = siteOf(gpuList(problem)[index]);
      const alone = gpuList(problem).filter((g) => siteOf(g) === site).length === 1;
      carried = alone && isPlainObject(problem.sites?.[site]) ? site : null;
    });
    input.addEventListener('input', () => {
      const value = parseFieldText(input.value, { kind: 'text' });
      const next = value ?? '';
      store.edit((copy) => {
        writeField(copy, path, value);
        // Not onto a site other GPUs are on: joining it keeps that site's own figures.
        const taken = gpuList(copy).some((g, i) => i !== index && siteOf(g) === next);
        if (carried !== null && carried !== next && !taken && isPlainObject(copy.sites?.[carried]) && copy.sites[next] === undefined) {
          copy.sites[next] = copy.sites[carried];
          delete copy.sites[carried];
          carried = next;
        }
      }, ctx.source);
    });
    input.addEventListener('blur', () => { carried = null; });
    return h('td', { dataset: { errorHost: '' } }, input);
  }

  function row(index, gpu) {
    const name = idOf(gpu) || `GPU ${index + 1}`;
    const cells = COLUMNS.map(([key, label, kind]) => {
      if (key === 'type') return typeCell(index, gpu);
      if (key === 'id') return idCell(index);
      if (key === 'price_per_hour') return priceCell(index, gpu);
      if (key === 'site') return siteCell(index);
      return cellInput(ctx, { path: `gpus[${index}].${key}`, kind, label: `${label} of GPU ${index + 1}` });
    });
    const duplicate = h('button', { type: 'button', class: 'small', text: 'Duplicate', 'aria-label': `Duplicate ${name}` });
    const remove = h('button', { type: 'button', class: 'small danger', text: 'Remove', 'aria-label': `Remove ${name}` });
    duplicate.addEventListener('click', () => editSelf((copy) => {
      const source = structuredClone(copy.gpus[index]);
      if (isPlainObject(source)) source.id = freshId(copy, idOf(source));
      copy.gpus.splice(index + 1, 0, source);
    }));
    remove.addEventListener('click', () => editSelf((copy) => {
      const [gone] = copy.gpus.splice(index, 1);
      const id = idOf(gone);
      if (id && !copy.gpus.some((g) => idOf(g) === id)) dropLinksOf(copy, id);
    }));
    return h('tr', { dataset: { path: `gpus[${index}]` } },
      h('th', { scope: 'row', class: 'row-number', text: String(index + 1) }),
      h('td', { class: 'actions' }, duplicate, remove), cells);
  }

  function describe(problem) {
    const n = gpuList(problem).length;
    const sites = sitesOf(problem).length;
    return `${n} GPU${n === 1 ? '' : 's'} on ${sites} site${sites === 1 ? '' : 's'}`;
  }

  const api = {
    name: 'gpus',
    element,
    render(problem) {
      preservingFocus(element, () => {
        const head = h('tr', {}, h('th', { scope: 'col', text: '#' }), h('th', { scope: 'col', text: 'Actions' }),
          COLUMNS.map(([, label]) => h('th', { scope: 'col', text: label })));
        const gpus = gpuList(problem);
        const shown = pager.page(pager.matching(gpus.length, (i) => (isPlainObject(gpus[i]) ? [gpus[i].id, gpus[i].type, gpus[i].site, gpus[i].node] : [])), gpus.length);
        pager.element.hidden = !pager.needed(gpus.length);
        const body = h('tbody', {}, shown.map((i) => row(i, gpus[i])));
        wrap.replaceChildren(h('table', { class: 'grid gpu-table' }, h('caption', { class: 'visually-hidden', text: 'GPUs' }), h('thead', {}, head), body));
        siteList.replaceChildren(...sitesOf(problem).filter(Boolean).map((s) => h('option', { value: s })));
        summary.textContent = describe(problem);
        describeFill(problem);
        nodeAdd.refresh();
      });
    },
    update(problem) {
      summary.textContent = describe(problem);
      describeFill(problem);
      siteList.replaceChildren(...sitesOf(problem).filter(Boolean).map((s) => h('option', { value: s })));
    },
  };
  return api;
}
