// "Add a node": N GPUs of one catalogue type in one machine at one site, in one click, so that a
// pool of 8-GPU nodes is typed in seconds. The new GPUs get ids <node>-g0, <node>-g1, ... and the
// node's name in gpus[].node (stage-groups.md: GPUs of one node may form a stage group).
import { h, uniqueId } from '../dom.js';
import { isPlainObject } from '../paths.js';

const MAX_NODE_GPUS = 64;

const gpuList = (problem) => (Array.isArray(problem.gpus) ? problem.gpus : []);

// 'node-3' (or the first free 'node-N'), not yet used by a GPU's node or id prefix.
export function freshNodeName(problem) {
  const taken = new Set();
  for (const g of gpuList(problem)) {
    if (!isPlainObject(g)) continue;
    if (typeof g.node === 'string') taken.add(g.node);
    if (typeof g.id === 'string') taken.add(g.id.replace(/-g\d+$/, ''));
  }
  let n = 0;
  while (taken.has(`node-${n}`)) n += 1;
  return `node-${n}`;
}

// The utilisations a new GPU starts with: those of the pool's last GPU that gives them, so that an
// added H100 is not assumed at 100 % next to A100s at 45 %; in an empty pool the examples' 0.45
// (written out, so that the table shows it). A pool that gives none runs at 1, and so do its new GPUs.
export const NEW_GPU_COMPUTE_UTIL = 0.45;
export function utilisationsFor(problem) {
  const gpus = gpuList(problem).filter(isPlainObject);
  if (gpus.length === 0) return { compute_util: NEW_GPU_COMPUTE_UTIL };
  const out = {};
  for (const key of ['compute_util', 'memory_util']) {
    const from = [...gpus].reverse().find((g) => g[key] !== undefined);
    if (from) out[key] = from[key];
  }
  return out;
}

// The GPUs of a new node; ids that are taken get a suffix until they are free.
export function nodeGpus(problem, { count, type, node, site }) {
  const ids = new Set(gpuList(problem).map((g) => (isPlainObject(g) ? g.id : undefined)));
  const gpus = [];
  for (let k = 0; gpus.length < count; ++k) {
    const id = `${node}-g${k}`;
    if (ids.has(id)) continue;
    ids.add(id);
    const gpu = { id, site, node };
    if (type) gpu.type = type;
    gpus.push(Object.assign(gpu, utilisationsFor(problem)));
  }
  return gpus;
}

// edit(change): the GPU section's own edit-and-redraw.
export function createNodeAdd(ctx, edit) {
  const countId = uniqueId('node-count');
  const typeId = uniqueId('node-type');
  const siteId = uniqueId('node-site');
  const count = h('input', { type: 'text', id: countId, inputmode: 'numeric', value: '8', size: '3', class: 'node-add-count', autocomplete: 'off' });
  const type = h('select', { id: typeId, class: 'node-add-type' });
  const site = h('input', { type: 'text', id: siteId, list: 'site-names', class: 'node-add-site', placeholder: 'site-a', autocomplete: 'off', spellcheck: 'false' });
  const button = h('button', { type: 'button', class: 'add node-add-button', text: 'Add node' });
  const note = h('small', { class: 'hint node-add-note', 'aria-live': 'polite' });

  function fillTypes() {
    const chosen = type.value;
    const types = ctx.catalogue().map((c) => c.type);
    type.replaceChildren(...types.map((t) => h('option', { value: t, text: t, selected: t === chosen })));
    if (types.length === 0) type.append(h('option', { value: '', text: '(catalogue loading)' }));
    type.title = type.selectedOptions[0]?.textContent ?? '';
  }

  button.addEventListener('click', () => {
    const n = Number(count.value.trim());
    if (!Number.isInteger(n) || n < 1 || n > MAX_NODE_GPUS) {
      note.textContent = `The node needs a whole number of GPUs from 1 to ${MAX_NODE_GPUS}.`;
      count.focus();
      return;
    }
    note.textContent = '';
    edit((copy) => {
      if (!Array.isArray(copy.gpus)) copy.gpus = [];
      const last = copy.gpus[copy.gpus.length - 1];
      const where = site.value.trim() || (isPlainObject(last) && typeof last.site === 'string' ? last.site : 'site-a');
      const node = freshNodeName(copy);
      const added = nodeGpus(copy, { count: n, type: type.value, node, site: where });
      copy.gpus.push(...added);
      const util = added[0].compute_util ?? 1;
      note.textContent = `Added ${node}: ${n} GPU${n === 1 ? '' : 's'} at ${where}, compute utilisation ${util} (change it in the table).`;
    });
  });

  const element = h('div', { class: 'node-add', role: 'group', 'aria-label': 'Add a node of GPUs' },
    h('label', { for: countId, text: 'Add' }), count,
    h('label', { for: typeId, text: 'GPUs of type' }), type,
    h('label', { for: siteId, text: 'in one node at site' }), site,
    button, note);
  // One row that wraps on a narrow screen (set here, not in the shared style sheet); the fields keep
  // their own widths instead of the editor's full-width inputs.
  Object.assign(element.style, { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '0.35rem 0.5rem', marginTop: '0.5rem' });
  count.style.width = '3.5em';
  site.style.width = '8em';
  type.style.width = 'auto';
  type.style.maxWidth = '14em';
  note.style.flexBasis = '100%';
  for (const label of element.querySelectorAll('label')) label.style.margin = '0';
  return { element, refresh: fillTypes };
}
