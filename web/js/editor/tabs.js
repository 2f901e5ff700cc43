// Accessible tabs (WAI-ARIA tabs pattern): arrow keys move between tabs, each tab shows one panel,
// and a badge counts the errors inside a panel that is not in view.
import { h } from '../dom.js';
import { tabKeyTarget } from '../tab-keys.js';

export function createTabs(items, { label, initial, onSelect = () => {} } = {}) {
  const list = h('div', { class: 'tabs', role: 'tablist', 'aria-label': label });
  const panels = h('div', { class: 'tab-panels' });
  const entries = items.map(({ name, title, element }) => {
    const badge = h('span', { class: 'badge', hidden: true });
    const tab = h('button', {
      type: 'button', role: 'tab', id: `tab-${name}`, 'aria-controls': `panel-${name}`,
      'aria-selected': 'false', tabindex: '-1',
    }, h('span', { text: title }), badge);
    const panel = h('div', { role: 'tabpanel', id: `panel-${name}`, 'aria-labelledby': `tab-${name}`, class: 'tab-panel', hidden: true }, element);
    list.append(tab);
    panels.append(panel);
    return { name, tab, panel, badge };
  });

  function select(name, { focus = false } = {}) {
    for (const e of entries) {
      const on = e.name === name;
      e.tab.setAttribute('aria-selected', String(on));
      e.tab.tabIndex = on ? 0 : -1;
      e.panel.hidden = !on;
      if (on && focus) e.tab.focus();
    }
    onSelect(name);
  }

  entries.forEach((e, i) => {
    e.tab.addEventListener('click', () => select(e.name));
    e.tab.addEventListener('keydown', (event) => {
      const next = tabKeyTarget(event, i, entries.length);
      if (next === null) return;
      event.preventDefault();
      select(entries[next].name, { focus: true });
    });
  });
  select(initial || entries[0].name);

  return {
    element: h('div', { class: 'tabbed' }, list, panels),
    select,
    // counts: {name: number}
    setCounts(counts) {
      for (const e of entries) {
        const n = counts[e.name] || 0;
        e.badge.hidden = n === 0;
        e.badge.textContent = n ? String(n) : '';
        e.badge.title = n ? `${n} error${n === 1 ? '' : 's'} in this tab` : '';
      }
    },
    panelOf: (name) => entries.find((e) => e.name === name)?.panel,
    isShown: (name) => entries.some((e) => e.name === name && !e.panel.hidden),
    names: () => entries.map((e) => e.name),
  };
}
