// The studies panel's form: the study, and the options that study takes (the others are hidden).
// Errors that name a field (study.lambdas[2]: ...) appear under that field.
import { h } from '../dom.js';
import { AXES, AXIS_NAMES, DEFAULT_AXES } from './axes.js';
import { DEFAULT_LAMBDAS, DEFAULT_VALUES, STUDIES, studyByKind } from './options.js';

const FIELD_HINTS = {
  lambdas: 'Weights of time against energy, between 0 (energy only) and 1 (time only). Empty: 0, 0.1, …, 1.',
  axes: 'The two figures to trade: the first is weighted by λ and drawn across, the second by 1 − λ and drawn up.',
  values: 'Empty: the default values.',
  seeds: 'Searches per point with different seeds; the best is kept.',
  time_limit_s: 'Per job; empty: the problem\'s search setting.',
  plans: 'How many of the planner\'s best plans to compare, 1 to 16.',
  scenarios: 'Random scenarios per plan, 0 to 10,000.',
  jitter: 'Each link\'s bandwidth times a factor between 1 − jitter and 1 + jitter.',
  straggler_slowdown: 'One of the plan\'s GPUs computes this many times slower.',
  sync_every: 'Sync periods H, whole numbers ≥ 1; H > 1 is local SGD (convergence not modelled). Empty: 1.',
};

function textField(name, label, { value = '', inputmode = 'decimal', placeholder } = {}) {
  const id = `study-${name.replace(/_/g, '-')}`;
  const input = h('input', { type: 'text', id, name, value, inputmode, placeholder, 'aria-describedby': `${id}-hint ${id}-error`, autocomplete: 'off', spellcheck: 'false' });
  const error = h('p', { class: 'study-field-error', id: `${id}-error`, hidden: true });
  const hint = h('small', { class: 'hint', id: `${id}-hint`, text: FIELD_HINTS[name] || '' });
  const field = h('div', { class: `field study-field-${name}`, dataset: { field: name } }, h('label', { for: id, text: label }), input, hint, error);
  return { field, input, error, hint };
}

// No fixed unit: each chart axis picks ms or s, J, kJ or MJ by its figures (views/format.js).
const AXIS_LABELS = { time: 'Iteration time', energy: 'Energy per iteration', carbon: 'Carbon (CO2e) per iteration', cost: 'Money ($) per iteration' };

// Two selects, the trade-off's x and y figures, acting as one field "axes" ("carbon,cost").
function axesField() {
  const select = (id, value, label) => {
    const s = h('select', { id, 'aria-label': label, 'aria-describedby': 'study-axes-hint study-axes-error' },
      AXIS_NAMES.map((a) => h('option', { value: a, text: AXIS_LABELS[a], selected: a === value })));
    return s;
  };
  const x = select('study-axis-x', DEFAULT_AXES[0], 'Across (weighted by λ)');
  const y = select('study-axis-y', DEFAULT_AXES[1], 'Up (weighted by 1 − λ)');
  const error = h('p', { class: 'study-field-error', id: 'study-axes-error', hidden: true });
  const hint = h('small', { class: 'hint', id: 'study-axes-hint', text: FIELD_HINTS.axes });
  const field = h('div', { class: 'field study-field-axes', dataset: { field: 'axes' } },
    h('span', { class: 'study-axes-title', id: 'study-axes-title', text: 'Figures to trade' }),
    h('div', { class: 'study-axes-pair', role: 'group', 'aria-labelledby': 'study-axes-title' },
      h('span', { class: 'study-axis' }, h('label', { for: 'study-axis-x', text: 'Across' }), x),
      h('span', { class: 'study-axis' }, h('label', { for: 'study-axis-y', text: 'Up' }), y)),
    hint, error);
  // The panel reads and writes fields through .input: here a pair of selects.
  const input = {
    get value() { return `${x.value},${y.value}`; },
    set value(text) {
      const [a, b] = String(text).split(',').map((t) => t.trim());
      if (AXIS_NAMES.includes(a)) x.value = a;
      if (AXIS_NAMES.includes(b)) y.value = b;
    },
    set disabled(d) { x.disabled = d; y.disabled = d; },
    setAttribute(name, value) { x.setAttribute(name, value); y.setAttribute(name, value); },
    removeAttribute(name) { x.removeAttribute(name); y.removeAttribute(name); },
    addEventListener(type, fn) { x.addEventListener(type, fn); y.addEventListener(type, fn); },
  };
  return { field, input, error, hint };
}

// The lambdas hint names the two figures chosen.
function lambdaHint(axesText) {
  const [a, b] = axesText.split(',').map((n) => AXES[n]?.noun ?? n);
  return `Weights of ${a} against ${b}, between 0 (${b} only) and 1 (${a} only). Empty: 0, 0.1, …, 1.`;
}

export function createStudyForm() {
  const kind = h('select', { id: 'study-kind', 'aria-describedby': 'study-blurb' }, STUDIES.map((s) => h('option', { value: s.kind, text: s.label })));
  const blurb = h('p', { class: 'hint', id: 'study-blurb' });
  const method = h('select', { id: 'study-method', name: 'method' },
    h('option', { value: 'memetic', text: 'Memetic search (GeoTrain)' }), h('option', { value: 'exact', text: 'Exact (branch and bound)' }));
  const methodError = h('p', { class: 'study-field-error', id: 'study-method-error', hidden: true });
  // A narrow select cuts its text short: its title holds the whole of it.
  for (const select of [kind, method]) {
    const title = () => { select.title = select.selectedOptions[0]?.textContent ?? ''; };
    title();
    select.addEventListener('change', title);
  }
  const fields = {
    axes: axesField(),
    lambdas: textField('lambdas', 'Lambdas', { value: DEFAULT_LAMBDAS }),
    values: textField('values', 'Values'),
    sync_every: textField('sync_every', 'Sync periods H (iterations)', { placeholder: '1', inputmode: 'numeric' }),
    seeds: textField('seeds', 'Seeds per point', { value: '3', inputmode: 'numeric' }),
    method: { field: h('div', { class: 'field study-field-method', dataset: { field: 'method' } }, h('label', { for: 'study-method', text: 'Planner' }), method, methodError), input: method, error: methodError },
    time_limit_s: textField('time_limit_s', 'Time limit per job (s)'),
    plans: textField('plans', 'Plans', { value: '5', inputmode: 'numeric' }),
    scenarios: textField('scenarios', 'Scenarios', { value: '100', inputmode: 'numeric' }),
    jitter: textField('jitter', 'Bandwidth jitter', { value: '0.3' }),
    straggler_slowdown: textField('straggler_slowdown', 'Straggler slowdown', { value: '2' }),
  };
  const element = h('div', { class: 'study-form' },
    h('div', { class: 'field' }, h('label', { for: 'study-kind', text: 'Study' }), kind, blurb),
    h('div', { class: 'field-grid compact' }, Object.values(fields).map((f) => f.field)));

  function sync() {
    const study = studyByKind(kind.value);
    blurb.textContent = study.blurb;
    for (const [name, f] of Object.entries(fields)) f.field.hidden = !study.fields.includes(name);
    if (DEFAULT_VALUES[kind.value]) {
      const swept = kind.value === 'latency' ? 'latency' : 'bandwidth';  // the replicas study sweeps bandwidth
      const unit = kind.value === 'latency' ? 'ms' : 'Gbps';
      fields.values.field.querySelector('label').textContent = `Base cross-site ${swept} (${unit})`;
      fields.values.input.placeholder = DEFAULT_VALUES[kind.value];
      fields.values.hint.textContent = `Empty: ${DEFAULT_VALUES[kind.value]}.`;
    }
    clearErrors();
  }

  function clearErrors() {
    for (const f of Object.values(fields)) {
      f.error.hidden = true;
      f.error.textContent = '';
      f.input.removeAttribute('aria-invalid');
    }
  }

  // Shows messages naming a field at that field; returns the ones that named none.
  function showErrors(messages) {
    clearErrors();
    const rest = [];
    for (const message of messages) {
      const match = /^study\.([a-z_]+)(\[\d+\])?:\s*(.*)$/s.exec(message);
      const f = match && fields[match[1]];
      if (!f || f.field.hidden) {
        rest.push(message);
        continue;
      }
      f.error.hidden = false;
      const index = match[2] ? Number(match[2].slice(1, -1)) : null;
      const where = index === null ? '' : match[1] === 'axes' ? `${index === 0 ? 'Across' : 'Up'}: ` : `item ${index + 1}: `;
      f.error.textContent = f.error.textContent ? `${f.error.textContent} ${match[3]}` : `${where}${match[3]}`;
      f.input.setAttribute('aria-invalid', 'true');
    }
    return rest;
  }

  kind.addEventListener('change', sync);
  fields.axes.input.addEventListener('change', () => {
    fields.lambdas.hint.textContent = lambdaHint(fields.axes.input.value);
    clearErrors();
  });
  sync();
  return {
    element,
    kind: () => kind.value,
    values: () => Object.fromEntries(Object.entries(fields).map(([name, f]) => [name, f.input.value])),
    // choice: {study, axes ("carbon,cost"), lambdas, values, seeds, method, time_limit_s} as text (missing: unchanged).
    set(choice) {
      if (choice.study) kind.value = choice.study;
      sync();
      for (const [name, f] of Object.entries(fields)) if (choice[name] !== undefined) f.input.value = String(choice[name]);
      fields.lambdas.hint.textContent = lambdaHint(fields.axes.input.value);
    },
    setDisabled(disabled) {
      kind.disabled = disabled;
      for (const f of Object.values(fields)) f.input.disabled = disabled;
    },
    showErrors,
    clearErrors,
  };
}
