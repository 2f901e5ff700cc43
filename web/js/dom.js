// Tiny DOM helpers. Text always goes in through textContent and attributes through setAttribute:
// nothing here ever parses a string as HTML.

// h('button', {class: 'primary', type: 'button', onclick: fn, dataset: {path: 'x'}}, 'Text', child)
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'text') el.textContent = String(value);
    else if (key === 'value') el.value = String(value);
    else if (key === 'checked' || key === 'selected' || key === 'disabled') el[key] = Boolean(value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

export function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

// Replaces the children; like h(), skips null/undefined/false and turns strings into text nodes.
export function setChildren(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

let uniqueCounter = 0;
export function uniqueId(prefix = 'el') {
  uniqueCounter += 1;
  return `${prefix}-${uniqueCounter}`;
}

// Calls fn once, `ms` after the last of a burst of calls.
export function debounce(fn, ms) {
  let timer = null;
  const debounced = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      fn();
    }, ms);
  };
  // Runs a pending call now (nothing when none is pending).
  debounced.flush = () => {
    if (timer === null) return;
    clearTimeout(timer);
    timer = null;
    fn();
  };
  debounced.cancel = () => {
    clearTimeout(timer);
    timer = null;
  };
  return debounced;
}

// Re-renders `container` with `render()` and puts the focus (and caret) back on the element that
// had it, found again by its data-focus-key.
export function preservingFocus(container, render) {
  const active = document.activeElement;
  const key = active && container.contains(active) ? active.dataset.focusKey : undefined;
  let selection = null;
  if (key && typeof active.selectionStart === 'number') selection = [active.selectionStart, active.selectionEnd];
  render();
  if (!key) return;
  const again = container.querySelector(`[data-focus-key="${CSS.escape(key)}"]`);
  if (!again) return;
  again.focus();
  if (selection && typeof again.setSelectionRange === 'function') {
    try {
      again.setSelectionRange(...selection);
    } catch {
      // inputs such as selects have no caret
    }
  }
}
