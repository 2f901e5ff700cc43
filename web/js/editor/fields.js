// Inputs bound to a problem path. Every input carries data-path (where validation messages land)
// and data-focus-key (so a redraw can give the focus back). Values go in through .value and
// textContent only.
import { h, uniqueId } from '../dom.js';
import { fieldText, parseFieldText } from '../format.js';
import { getPath, isPlainObject, parsePath, setPath } from '../paths.js';

// Removes `path`'s object when the last of its fields was just cleared (an empty {} would be invalid).
export function pruneEmpty(problem, path) {
  const parts = parsePath(path);
  for (let n = parts.length - 1; n > 0; --n) {
    const value = getPath(problem, parts.slice(0, n));
    if (!isPlainObject(value) || Object.keys(value).length > 0) return;
    setPath(problem, parts.slice(0, n), undefined);
  }
}

// Writes a field (undefined removes it), pruning objects left empty.
export function writeField(problem, path, value) {
  setPath(problem, path, value);
  if (value === undefined) pruneEmpty(problem, path);
}

// A bare text input for `path`; kind 'number' (parsed when it reads as a number) or 'text'.
// bind: false leaves the writing to the caller (an input listener of its own).
export function boundInput(ctx, { path, kind = 'number', label, id, placeholder, list, className, onCommit, bind = true }) {
  const input = h('input', {
    type: 'text', id, class: className, list, placeholder,
    inputmode: kind === 'number' ? 'decimal' : undefined,
    autocomplete: 'off', spellcheck: 'false',
    'aria-label': label,
    dataset: kind === 'number' ? { path, focusKey: path, placeholderFrom: 'effective' } : { path, focusKey: path },
    value: fieldText(getPath(ctx.store.get(), path)),
  });
  if (placeholder) input.dataset.placeholderDefault = placeholder;
  if (bind) {
    input.addEventListener('input', () => {
      ctx.store.edit((copy) => writeField(copy, path, parseFieldText(input.value, { kind })), ctx.source);
    });
  }
  if (onCommit) input.addEventListener('change', () => onCommit(input));
  return input;
}

// label + input + (later) the field's error, stacked. `context` is read out after the label but
// not shown, for fields whose label repeats in several boxes ("Bandwidth" within a site, between...).
export function field(ctx, { path, label, unit, hint, kind = 'number', placeholder, list, wide, context }) {
  const id = uniqueId('f');
  const input = boundInput(ctx, { path, kind, id, placeholder, list });
  input.removeAttribute('aria-label');
  const labelEl = h('label', { for: id }, label, context ? h('span', { class: 'visually-hidden', text: ` ${context}` }) : null,
    unit ? h('span', { class: 'unit', text: ` (${unit})` }) : null);
  const hintEl = hint ? h('small', { class: 'hint', id: `${id}-hint`, text: hint }) : null;
  if (hintEl) input.setAttribute('aria-describedby', hintEl.id);
  return h('div', { class: wide ? 'field wide' : 'field', dataset: { errorHost: '' } }, labelEl, input, hintEl);
}

// A <select> for `path`; options [{value, label}]; the empty value removes the field.
export function selectField(ctx, { path, label, options, hint }) {
  const id = uniqueId('f');
  const current = getPath(ctx.store.get(), path);
  const select = h('select', { id, dataset: { path, focusKey: path } });
  const known = options.some((o) => o.value === (current ?? ''));
  for (const o of options) select.append(h('option', { value: o.value, text: o.label, selected: o.value === (current ?? '') }));
  if (!known) select.append(h('option', { value: fieldText(current), text: `${fieldText(current)} (unknown)`, selected: true }));
  select.addEventListener('change', () => {
    ctx.store.edit((copy) => writeField(copy, path, select.value === '' ? undefined : select.value), ctx.source);
  });
  const hintEl = hint ? h('small', { class: 'hint', text: hint }) : null;
  return h('div', { class: 'field', dataset: { errorHost: '' } }, h('label', { for: id, text: label }), select, hintEl);
}

// A table cell holding one bound input (aria-label names it, since the header is far away).
export function cellInput(ctx, options) {
  return h('td', { dataset: { errorHost: '' } }, boundInput(ctx, options));
}

export function section(title, { path, intro } = {}) {
  return h('fieldset', { class: 'section', dataset: path ? { path, errorHost: '' } : {} },
    h('legend', { text: title }),
    intro ? h('p', { class: 'intro', text: intro }) : null);
}
