// Messages for the user in one live region: errors stay until dismissed, others fade after a while.
// A notice replaces the one of the same topic still shown (by default its kind), so repeated
// messages of one kind never stack up.
import { h } from './dom.js';

let region = null;

export function initNotices(element) {
  region = element;
}

// kind: 'info' | 'success' | 'warning' | 'error'; action: {label, run} adds a button;
// topic: what the notice is about (defaults to its kind).
export function notify(text, { kind = 'info', action = null, timeoutMs, topic = kind } = {}) {
  if (!region) return () => {};
  const item = h('div', { class: `notice notice-${kind}`, role: kind === 'error' ? 'alert' : 'status', dataset: { topic } });
  const dismiss = () => item.remove();
  item.append(h('p', { class: 'notice-text', text }));
  if (action) {
    item.append(h('button', {
      type: 'button', class: 'notice-action', text: action.label,
      onclick: () => {
        dismiss();
        action.run();
      },
    }));
  }
  item.append(h('button', { type: 'button', class: 'notice-close', 'aria-label': 'Dismiss message', text: '×', onclick: dismiss }));
  for (const old of region.querySelectorAll(':scope > .notice')) if (old.dataset.topic === topic) old.remove();
  region.append(item);
  const lifetime = timeoutMs ?? (kind === 'error' || action ? 0 : 6000);
  if (lifetime > 0) setTimeout(dismiss, lifetime);
  return dismiss;
}
