// Where each figure came from (the problem's optional `sources`, model/figure_sources.hpp): a
// coloured edge on every input whose figure has a source (imported, calibrated, assumed), its text
// read out when the input has the focus, and kept true as the user edits: a figure typed over
// becomes "typed", one cleared loses its source.
import { h } from '../dom.js';
import { getPath, isPlainObject, parsePath, setPath, formatPath } from '../paths.js';

const KINDS = ['typed', 'catalogue', 'imported', 'calibrated', 'assumed'];

// 'gpus[3].memory_gib' -> {owner: 'gpus[3]', key: 'memory_gib'}
function split(path) {
  const parts = parsePath(path || '');
  if (parts.length < 2 || typeof parts[parts.length - 1] !== 'string') return null;
  return { owner: formatPath(parts.slice(0, -1)), key: parts[parts.length - 1] };
}

function sourceOf(problem, path) {
  const at = split(path);
  if (!at) return null;
  const sources = getPath(problem, `${at.owner}.sources`);
  const text = isPlainObject(sources) ? sources[at.key] : undefined;
  return typeof text === 'string' ? text : null;
}

const kindOf = (text) => KINDS.find((k) => text === k || text.startsWith(`${k}: `)) ?? 'typed';

// The section an input belongs to: its tab panel's name ('gpus', 'network', ...).
const sectionOf = (el) => el.closest('[role="tabpanel"]')?.id?.replace(/^panel-/, '') ?? 'unknown';

export function createFigureSources({ root, store }) {
  const note = h('p', { class: 'figure-source-note', id: 'figure-source-note', 'aria-live': 'polite', hidden: true });

  // Marks every bound input of `root` by its figure's source.
  function mark(problem) {
    for (const el of root.querySelectorAll('input[data-path], select[data-path]')) {
      const text = sourceOf(problem, el.dataset.path);
      if (!text) {
        if (el.dataset.sourceKind) {
          delete el.dataset.sourceKind;
          el.removeAttribute('aria-description');
          el.removeAttribute('title');
        }
        continue;
      }
      el.dataset.sourceKind = kindOf(text);
      el.setAttribute('aria-description', `Source: ${text}`);
      el.title = text;
    }
  }

  function show(el) {
    const text = el?.dataset?.sourceKind ? sourceOf(store.get(), el.dataset.path) : null;
    note.hidden = !text;
    note.textContent = text ? `${el.getAttribute('aria-label') || el.dataset.path}: ${text}` : '';
  }
  root.addEventListener('focusin', (event) => show(event.target));

  // After a field's own edit (its listener ran first, on the input itself): a figure typed over is
  // "typed" now; a cleared one has no source; in its object, sources of figures now absent go too
  // (a catalogue type picked clears the figures it fills).
  function follow(event) {
    const el = event.target;
    const at = split(el?.dataset?.path);
    if (!at || sectionOf(el) === 'json') return;
    const problem = store.get();
    const owner = getPath(problem, at.owner);
    if (!isPlainObject(owner) || !isPlainObject(owner.sources)) return;
    const stale = Object.keys(owner.sources).filter((k) => owner[k] === undefined);
    const retype = owner[at.key] !== undefined && owner.sources[at.key] !== undefined && owner.sources[at.key] !== 'typed';
    if (!stale.length && !retype) return;
    store.edit((copy) => {
      const sources = getPath(copy, `${at.owner}.sources`);
      for (const k of stale) delete sources[k];
      if (retype) sources[at.key] = 'typed';
      if (Object.keys(sources).length === 0) setPath(copy, `${at.owner}.sources`, undefined);
    }, sectionOf(el));
    show(el);
  }
  root.addEventListener('input', follow);
  root.addEventListener('change', (event) => { if (event.target.tagName === 'SELECT') follow(event); });

  return { note, mark };
}
