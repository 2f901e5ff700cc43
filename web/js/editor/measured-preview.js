// What an import or a calibration would change, shown before it is applied: one line per change
// (where, before, after, and where the new figure came from), the tool's warnings, Apply and Discard.
import { h } from '../dom.js';
import { formatNumber } from '../format.js';
import { notify } from '../notices.js';

const SHOWN_CHANGES = 200;

export function formatBytes(n) {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

// A value for people: numbers as the page writes them, a new GPU or link by its name and figures.
export function describeValue(value) {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value !== 'object' || Array.isArray(value)) return JSON.stringify(value);
  if (typeof value.id === 'string') return `GPU ${value.id}${value.type ? ` (${value.type})` : ''}`;
  if (typeof value.from === 'string') {
    const figures = [value.bandwidth_gbps !== undefined && `${formatNumber(value.bandwidth_gbps)} Gbps`,
      value.latency_ms !== undefined && `${formatNumber(value.latency_ms)} ms`].filter(Boolean).join(', ');
    return `${value.from} → ${value.to}${figures ? `: ${figures}` : ''}`;
  }
  if (value.bandwidth_gbps !== undefined) return `${formatNumber(value.bandwidth_gbps)} Gbps, ${formatNumber(value.latency_ms)} ms`;
  return JSON.stringify(value);
}

// Where the change's figures come from: its own source, or those an added GPU or link carries.
function sourcesOf(change) {
  if (change.source) return [change.source];
  const sources = change.after?.sources;
  if (!sources || typeof sources !== 'object') return [];
  return [...new Set(Object.entries(sources).map(([figure, text]) => `${figure}: ${text}`))];
}

export function changeList(changes) {
  const items = changes.slice(0, SHOWN_CHANGES).map((c) => h('li', {},
    h('code', { class: 'change-path', text: c.path }), ' ',
    h('span', { class: `change-what change-${c.what}`, text: c.what }), ' ',
    c.what === 'added' ? null : h('span', { class: 'change-before', text: describeValue(c.before) }),
    c.what === 'added' ? null : ' → ',
    h('span', { class: 'change-after', text: describeValue(c.after) }),
    sourcesOf(c).map((text) => h('span', { class: 'change-source', text }))));
  const more = changes.length > SHOWN_CHANGES ? h('p', { class: 'hint', text: `… and ${changes.length - SHOWN_CHANGES} more.` }) : null;
  return h('div', {}, h('ol', { class: 'change-list' }, items), more);
}

export function errorBox(messages) {
  const shown = messages.slice(0, 20);
  return h('div', { class: 'measured-error', role: 'alert' },
    h('p', { class: 'summary-headline bad', text: 'Nothing was changed:' }),
    h('ul', {}, shown.map((m) => h('li', { text: m }))),
    messages.length > shown.length ? h('p', { class: 'hint', text: `… and ${messages.length - shown.length} more.` }) : null);
}

export function previewBox({ title, lines = [], body, warnings = [], onApply, onDiscard, applyId }) {
  const apply = h('button', { type: 'button', class: 'primary', id: applyId, text: 'Apply' });
  const discard = h('button', { type: 'button', text: 'Discard' });
  apply.addEventListener('click', onApply);
  discard.addEventListener('click', onDiscard);
  return h('div', { class: 'measured-preview' },
    h('p', { class: 'summary-headline', text: title }),
    lines.length ? h('ul', { class: 'measured-summary' }, lines.map((l) => h('li', { text: l }))) : null,
    body,
    warnings.length ? h('ul', { class: 'summary-warnings' }, warnings.map((w) => h('li', { text: w }))) : null,
    h('div', { class: 'row-actions' }, apply, discard));
}

// Puts a previewed problem in the store, with Undo; false (and says so in `out`) when the problem
// changed since the preview was made, so that nothing typed meanwhile is lost.
export function applyPreview(ctx, preview, { out, message, stale }) {
  if (!preview) return false;
  if (ctx.store.get() !== preview.problem) {
    out.replaceChildren(errorBox([stale]));
    return false;
  }
  const before = ctx.store.get();
  ctx.store.set(preview.result.problem, 'load');
  notify(message, { kind: 'success', topic: 'measured', timeoutMs: 12000, action: { label: 'Undo', run: () => ctx.store.set(before, 'load') } });
  return true;
}
