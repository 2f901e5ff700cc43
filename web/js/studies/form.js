// The studies panel's form: the study, and the options that study takes (the others are hidden).
// Errors that name a field (study.lambdas[2]: ...) appear under that field.
import { h } from '../dom.js';
import { DEFAULT_LAMBDAS, DEFAULT_VALUES, STUDIES, studyByKind } from './options.js';

const FIELD_HINTS = {
  lambdas: 'Weights of time against energy, between 0 (energy only) and 1 (time only). Empty: 0, 0.1, …, 1.',
  values: 'Empty: the default values.',
  seeds: 'Searches per point with different seeds; the best is kept.',
  time_limit_s: 'Per job; empty: the problem\'s search setting.',
};

function textField(name, label, { value = '', inputmode = 'decimal', placeholder } = {}) {
  const id = `study-${name.replace(/_/g, '-')}`;
  const input = h('input', { type: 'text', id, name, value, inputmode, placeholder, 'aria-describedby': `${id}-hint ${id}-error`, autocomplete: 'off', spellcheck: 'false' });
  const error = h('p', { class: 'study-field-error', id: `${id}-error`, hidden: true });
  const hint = h('small', { class: 'hint', id: `${id}-hint`, text: FIELD_HINTS[name] || '' });
  const field = h('div', { class: `field study-field-${name}`, dataset: { field: name } }, h('label', { for: id, text: label }), input, hint, error);
  return { field, input, error, hint };
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
    lambdas: textField('lambdas', 'Lambdas', { value: DEFAULT_LAMBDAS }),
    values: textField('values', 'Values'),
    seeds: textField('seeds', 'Seeds per point', { value: '3', inputmode: 'numeric' }),
    method: { field: h('div', { class: 'field study-field-method', dataset: { field: 'method' } }, h('label', { for: 'study-method', text: 'Planner' }), method, methodError), input: method, error: methodError },
    time_limit_s: textField('time_limit_s', 'Time limit per job (s)'),
  };
  const element = h('div', { class: 'study-form' },
    h('div', { class: 'field' }, h('label', { for: 'study-kind', text: 'Study' }), kind, blurb),
    h('div', { class: 'field-grid compact' }, Object.values(fields).map((f) => f.field)));

  function sync() {
    const study = studyByKind(kind.value);
    blurb.textContent = study.blurb;
    for (const [name, f] of Object.entries(fields)) f.field.hidden = !study.fields.includes(name);
    if (DEFAULT_VALUES[kind.value]) {
      const unit = kind.value === 'latency' ? 'ms' : 'Gbps';
      fields.values.field.querySelector('label').textContent = `Base cross-site ${kind.value} (${unit})`;
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
      f.error.textContent = f.error.textContent ? `${f.error.textContent} ${match[3]}` : `${match[2] ? `item ${Number(match[2].slice(1, -1)) + 1}: ` : ''}${match[3]}`;
      f.input.setAttribute('aria-invalid', 'true');
    }
    return rest;
  }

  kind.addEventListener('change', sync);
  sync();
  return {
    element,
    kind: () => kind.value,
    values: () => Object.fromEntries(Object.entries(fields).map(([name, f]) => [name, f.input.value])),
    // choice: {study, lambdas, values, seeds, method, time_limit_s} as text (missing: unchanged).
    set(choice) {
      if (choice.study) kind.value = choice.study;
      sync();
      for (const [name, f] of Object.entries(fields)) if (choice[name] !== undefined) f.input.value = String(choice[name]);
    },
    setDisabled(disabled) {
      kind.disabled = disabled;
      for (const f of Object.values(fields)) f.input.disabled = disabled;
    },
    showErrors,
    clearErrors,
  };
}
