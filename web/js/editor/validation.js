// Puts the planner's messages next to the fields they name. A message starts with a path
// (`gpus[3].compute_util: must be in (0, 1], got 1.5`); the element with that data-path, or
// with the longest prefix of it, gets the message; the rest go to the summary list.
import { h, setChildren, uniqueId } from '../dom.js';
import { capMessages, messageTotal } from '../limits.js';
import { pathPrefixes, splitMessage } from '../paths.js';

function findTarget(root, path) {
  if (!path) return null;
  for (const prefix of pathPrefixes(path)) {
    const target = root.querySelector(`[data-path="${CSS.escape(prefix)}"]`);
    if (target) return { target, exact: prefix === path };
  }
  return null;
}

function slotFor(host, kind) {
  const existing = [...host.children].find((c) => c.classList.contains(`field-${kind}`));
  if (existing) return existing;
  const slot = h('div', { class: `field-${kind}`, id: uniqueId(kind) });
  if (host.tagName === 'FIELDSET') {
    const after = host.querySelector(':scope > .intro') || host.querySelector(':scope > legend');
    after ? after.after(slot) : host.prepend(slot);
  } else {
    host.append(slot);
  }
  return slot;
}

const isControl = (el) => ['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName);

export function createValidationDisplay({ root, summary, onCounts = () => {} }) {
  let last = { errors: [], warnings: [], state: 'idle' };

  function clear() {
    for (const el of root.querySelectorAll('.field-error, .field-warning')) el.remove();
    for (const el of root.querySelectorAll('[data-path].has-error, [data-path].has-warning')) el.classList.remove('has-error', 'has-warning');
    for (const el of root.querySelectorAll('[data-path][aria-invalid]')) {
      el.removeAttribute('aria-invalid');
      const own = el.dataset.describedby;
      if (own) el.setAttribute('aria-describedby', own);
      else el.removeAttribute('aria-describedby');
    }
  }

  function place(message, kind) {
    const { path, text } = splitMessage(message);
    const found = findTarget(root, path);
    if (!found) return false;
    const { target, exact } = found;
    const host = target.closest('[data-error-host]') || target.parentElement;
    const slot = slotFor(host, kind);
    slot.append(h('p', { text: exact ? text : message }));
    target.classList.add(`has-${kind}`);
    if (kind === 'error' && isControl(target)) {
      if (!('describedby' in target.dataset)) target.dataset.describedby = target.getAttribute('aria-describedby') || '';
      target.setAttribute('aria-invalid', 'true');
      target.setAttribute('aria-describedby', `${target.dataset.describedby} ${slot.id}`.trim());
    }
    return true;
  }

  function renderSummary(unplacedErrors, unplacedWarnings) {
    const { errors, warnings, state } = last;
    const errorCount = messageTotal(errors);
    const warningCount = messageTotal(warnings);
    let headline;
    if (state === 'checking') headline = 'Checking…';
    else if (state === 'unavailable') headline = 'The checker is not available: the planner module did not load.';
    else if (errors.length === 0) headline = warnings.length ? `The problem is valid (${warningCount.toLocaleString('en-US')} warning${warningCount === 1 ? '' : 's'}).` : 'The problem is valid.';
    else headline = `${errorCount.toLocaleString('en-US')} error${errorCount === 1 ? '' : 's'}${unplacedErrors.length < errors.length ? ', shown next to the fields they name' : ''}.`;
    setChildren(summary,
      h('p', { class: `summary-headline ${errors.length || state === 'unavailable' ? 'bad' : state === 'checking' ? '' : 'good'}`, text: headline }),
      unplacedErrors.length ? h('ul', { class: 'summary-errors' }, unplacedErrors.map((m) => h('li', { text: m }))) : null,
      unplacedWarnings.length ? h('ul', { class: 'summary-warnings' }, unplacedWarnings.map((m) => h('li', { text: m }))) : null);
  }

  function apply() {
    clear();
    // At most 100 of each are placed or listed, then "and N more" (the worker caps them too).
    const unplacedErrors = capMessages(last.errors).filter((m) => !place(m, 'error'));
    const unplacedWarnings = capMessages(last.warnings).filter((m) => !place(m, 'warning'));
    renderSummary(unplacedErrors, unplacedWarnings);
    onCounts(root);
  }

  return {
    // {errors: [text], warnings: [text], state: 'done'|'checking'|'unavailable'}
    show(next) {
      last = { errors: [], warnings: [], state: 'done', ...next };
      apply();
    },
    checking() {
      last = { ...last, state: 'checking' };
      summary.querySelector('.summary-headline')?.replaceChildren('Checking…');
    },
    // After a part of the form was redrawn: put the messages back.
    reapply: apply,
    errors: () => last.errors,
  };
}
