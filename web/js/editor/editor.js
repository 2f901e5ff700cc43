// The problem editor: tabs of form sections plus the raw JSON, all bound to one store, checked by
// the planner's own validator (in the worker) as the user types.
import { debounce, h, preservingFocus } from '../dom.js';
import { helpLink } from '../help-link.js';
import { WorkerError } from '../messenger.js';
import { getPath } from '../paths.js';
import { gpuDefault } from './catalogue.js';
import { createAboutSection } from './about-section.js';
import { createGpuSection } from './gpu-section.js';
import { createFigureSources } from './figure-sources.js';
import { createJsonSection } from './json-section.js';
import { createMeasuredSection } from './measured-section.js';
import { createModelSection } from './model-section.js';
import { createNetworkSection } from './network-section.js';
import { createObjectiveSection } from './objective-section.js';
import { createSitesSection } from './sites-section.js';
import { createTabs } from './tabs.js';
import { createValidationDisplay } from './validation.js';

const VALIDATE_DELAY_MS = 200;
const STALE_DELAY_MS = 400;

const TABS = [
  ['about', 'Problem', createAboutSection],
  ['model', 'Model', createModelSection],
  ['gpus', 'GPUs', createGpuSection],
  ['network', 'Network', createNetworkSection],
  ['sites', 'Sites & costs', createSitesSection],
  ['objective', 'Objective & search', createObjectiveSection],
  ['measured', 'Measured', createMeasuredSection],
  ['json', 'JSON', createJsonSection],
];

// onChecked(): after each successful check (the effective problem, with defaults, has changed).
export function createEditor({ store, tools, onChecked = () => {} }) {
  let catalogue = [];
  let regions = [];
  let effective = null;
  const ctxFor = (source) => ({ store, source, tools, catalogue: () => catalogue, regions: () => regions });
  const sections = TABS.map(([name, , make]) => make(ctxFor(name)));
  // Sections in hidden tabs are redrawn when shown (a 500-GPU table is costly to redraw on every
  // keystroke elsewhere); the JSON text always follows, since it is the problem itself.
  const stale = new Set();
  const tabs = createTabs(TABS.map(([name, title], i) => ({ name, title, element: [helpLink(`editor-${name}`), sections[i].element] })), {
    label: 'Problem editor',
    initial: 'gpus',
    onSelect: (name) => {
      if (!stale.has(name)) return;
      stale.delete(name);
      sections.find((s) => s.name === name).render(store.get());
      applyPlaceholders();
      validation.reapply();
    },
  });
  const summary = h('div', { class: 'validation-summary', id: 'validation-summary', 'aria-live': 'polite' });
  const element = h('div', { class: 'editor' }, tabs.element, summary);
  const figureSources = createFigureSources({ root: element, store });  // issue 26: where each figure came from
  tabs.element.after(figureSources.note);

  const validation = createValidationDisplay({
    root: element,
    summary,
    onCounts: () => {
      const counts = {};
      for (const name of tabs.names()) counts[name] = tabs.panelOf(name).querySelectorAll('.field-error > p').length;
      tabs.setCounts(counts);
    },
  });

  // An empty field shows what the planner will use instead: catalogue figures for GPUs (worked
  // out here), everything else from the last successful check.
  function applyPlaceholders() {
    const problem = store.get();
    figureSources.mark(problem);
    for (const el of element.querySelectorAll('[data-placeholder-from="effective"]')) {
      let value = gpuDefault(problem, catalogue, el.dataset.path);
      if (value === undefined) value = effective ? getPath(effective, el.dataset.path) : undefined;
      const shown = value !== undefined && value !== null && typeof value !== 'object' ? String(value) : '';
      el.placeholder = shown || el.dataset.placeholderDefault || '';
    }
    for (const select of element.querySelectorAll('select')) titleSelect(select);
  }
  // A narrow select cuts its text short: its title holds the whole of it.
  const titleSelect = (select) => { select.title = select.selectedOptions[0]?.textContent ?? ''; };
  element.addEventListener('change', (event) => { if (event.target.tagName === 'SELECT') titleSelect(event.target); });

  let sequence = 0;
  // Resolves to {ok: true, problem, warnings} or {ok: false, errors}.
  async function check(problem) {
    const mine = ++sequence;
    validation.checking();
    try {
      const result = await tools.call('validate', { problem: JSON.stringify(problem) });
      if (mine === sequence) {
        effective = result.problem;
        validation.show({ errors: [], warnings: result.warnings || [] });
        applyPlaceholders();
        onChecked();
      }
      return { ok: true, problem: result.problem, warnings: result.warnings || [] };
    } catch (error) {
      const input = error instanceof WorkerError && error.kind === 'input';
      if (mine === sequence) validation.show(input ? { errors: error.messages } : { state: 'unavailable' });
      return { ok: false, errors: error instanceof WorkerError ? error.messages : [String(error)], unavailable: !input };
    }
  }
  const scheduleCheck = debounce(() => check(store.get()), VALIDATE_DELAY_MS);

  function renderAll(problem, except, { everything = false } = {}) {
    for (const s of sections) {
      if (s.name === except) s.update?.(problem);
      else if (everything || (s.name === 'json' && !s.large()) || tabs.isShown(s.name)) s.render(problem);
      else stale.add(s.name);
    }
    if (everything) stale.clear();
    applyPlaceholders();
    validation.reapply();
    if (stale.size) renderStale();
  }
  // ...and catch up once the typing pauses.
  const renderStale = debounce(() => {
    if (stale.size === 0) return;
    for (const s of sections) if (stale.has(s.name)) s.render(store.get());
    stale.clear();
    applyPlaceholders();
    validation.reapply();
  }, STALE_DELAY_MS);

  store.subscribe((problem, source) => {
    renderAll(problem, source);
    scheduleCheck();
  });
  renderAll(store.get(), null, { everything: true });

  const json = sections.find((s) => s.name === 'json');
  return {
    element,
    selectTab: (name) => tabs.select(name),
    setCatalogue(list) {
      catalogue = Array.isArray(list) ? list : [];
      preservingFocus(element, () => renderAll(store.get(), null, { everything: true }));
    },
    // The region catalogue (carbon, PUE, price per region): suggestions in the Sites & costs tab.
    setRegions(list) {
      regions = Array.isArray(list) ? list.filter((r) => r && typeof r === 'object') : [];
      const sites = sections.find((s) => s.name === 'sites');
      if (tabs.isShown('sites')) preservingFocus(element, () => { sites.render(store.get()); applyPlaceholders(); validation.reapply(); });
      else stale.add('sites');
    },
    // The last plan: the Objective tab shows the references it resolved.
    showResult(result) {
      for (const s of sections) s.showResult?.(result);
    },
    // Applies pending JSON text, then checks the problem now.
    // Text in the JSON box that does not parse counts as an error: planning or sharing the last
    // good problem instead would surprise.
    async checkNow() {
      json.flush();
      scheduleCheck.cancel();
      const checked = await check(store.get());
      if (json.hasPendingText()) return { ok: false, jsonInvalid: true, errors: ['The problem JSON text does not parse (see the JSON tab).'] };
      return checked;
    },
    scheduleCheck,
    effective: () => effective,
    jsonHasErrors: () => json.hasPendingText(),
    errors: () => validation.errors(),
  };
}
