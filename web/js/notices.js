// Messages for the user in one live region: errors stay until dismissed, others fade after a while.
import { h } from './dom.js';

let region = null;

export function initNotices(element) {
  region = element;
}

// kind: 'info' | 'success' | 'warning' | 'error'; action: {label, run} adds a button.
export function notify(text, { kind = 'info', action = null, timeoutMs } = {}) {
  if (!region) return () => {};
  const item = h('div', { class: `notice notice-${kind}`, role: kind === 'error' ? 'alert' : 'status' });
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
  region.append(item);
  const lifetime = timeoutMs ?? (kind === 'error' || action ? 0 : 6000);
  if (lifetime > 0) setTimeout(dismiss, lifetime);
  return dismiss;
}
