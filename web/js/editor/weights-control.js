// The objective's four weights (issue 11) as sliders, each with its exact number. A file with only
// λ keeps it: the sliders then show what λ means ({time: λ, energy: 1 − λ}) and the λ slider stays;
// moving a weight slider writes objective.weights (all four, as shown) and drops λ, which the
// weights replace. "Use λ instead" goes back, with λ = time ÷ (time + energy).
import { h, uniqueId } from '../dom.js';
import { fieldText, formatNumber, parseFieldText } from '../format.js';
import { getPath, isPlainObject } from '../paths.js';
import { writeField } from './fields.js';

export const WEIGHT_KEYS = [
  ['time', 'Time', 'T/T_ref'],
  ['energy', 'Energy', 'E/E_ref'],
  ['carbon', 'Carbon', 'C/C_ref'],
  ['cost', 'Cost', 'M/M_ref'],
];

const lambdaOf = (problem) => {
  const value = getPath(problem, 'objective.lambda');
  return Number.isFinite(value) ? value : 1;
};

// The weights the planner will use: the file's (missing keys 0), or λ's.
export function weightsOf(problem) {
  const given = getPath(problem, 'objective.weights');
  if (isPlainObject(given)) {
    return { fromLambda: false, weights: Object.fromEntries(WEIGHT_KEYS.map(([k]) => [k, Number.isFinite(given[k]) ? given[k] : 0])) };
  }
  const lambda = lambdaOf(problem);
  // Rounded so that λ = 0.7 shows energy 0.3, not 0.30000000000000004.
  return { fromLambda: true, weights: { time: lambda, energy: Math.round((1 - lambda) * 1e9) / 1e9, carbon: 0, cost: 0 } };
}

// Writes weight `key` = value (undefined: removes it) into `problem` (a copy), taking the other
// weights from λ when the file had none, and dropping λ.
export function writeWeight(problem, key, value) {
  const { fromLambda, weights } = weightsOf(problem);
  if (fromLambda) {
    writeField(problem, 'objective.weights', { ...weights });
    writeField(problem, 'objective.lambda', undefined);
  }
  writeField(problem, `objective.weights.${key}`, value);
}

// Back to λ: removes the weights; λ = time ÷ (time + energy), the weights' own trade-off between
// the two figures λ knows (carbon and cost drop out).
export function useLambda(problem) {
  const { weights } = weightsOf(problem);
  writeField(problem, 'objective.weights', undefined);
  const pair = weights.time + weights.energy;
  if (pair > 0) writeField(problem, 'objective.lambda', Number((weights.time / pair).toFixed(4)));
}

export function createWeightsControl(ctx, { onModeChange }) {
  const rows = WEIGHT_KEYS.map(([key, label, term]) => {
    const id = uniqueId(`weight-${key}`);
    const slider = h('input', { type: 'range', id, min: '0', max: '1', step: '0.01', class: 'weight-slider', dataset: { focusKey: `weight-slider:${key}` } });
    const exact = h('input', {
      type: 'text', inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false', class: 'weight-exact',
      'aria-label': `${label} weight exactly`, placeholder: '0',
      dataset: { path: `objective.weights.${key}`, focusKey: `objective.weights.${key}` },
    });
    const shown = h('output', { for: id });
    slider.addEventListener('input', () => edit(key, Number(slider.value), slider));
    exact.addEventListener('input', () => edit(key, parseFieldText(exact.value), exact));
    const element = h('div', { class: 'weight-row', dataset: { errorHost: '' } },
      h('label', { for: id }, h('span', { class: 'weight-name', text: label }), h('span', { class: 'hint', text: ` ${term}` })),
      slider, shown, exact);
    return { key, slider, exact, shown, element };
  });
  const note = h('p', { class: 'hint weights-note', id: 'weights-note' });
  const element = h('div', { class: 'field wide weights', dataset: { path: 'objective.weights', errorHost: '' } },
    h('span', { class: 'weights-title', text: 'Weights' }), ...rows.map((r) => r.element), note);
  let mode = null;

  function edit(key, value, from) {
    ctx.store.edit((copy) => writeWeight(copy, key, value), ctx.source);
    sync(ctx.store.get(), from);
  }

  // Puts the problem's weights into every control but the one being used.
  function sync(problem, except) {
    const { fromLambda, weights } = weightsOf(problem);
    const given = getPath(problem, 'objective.weights');
    for (const row of rows) {
      const value = weights[row.key];
      if (row.slider !== except) row.slider.value = String(Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0);
      if (row.exact !== except) row.exact.value = fromLambda ? '' : fieldText(isPlainObject(given) ? given[row.key] : undefined);
      row.exact.placeholder = fromLambda ? formatNumber(value) : '0';
      row.shown.textContent = Number.isFinite(value) ? formatNumber(value) : fieldText(value);
    }
    note.textContent = fromLambda
      ? `From λ = ${formatNumber(lambdaOf(problem))}: moving a weight writes objective.weights, which replace λ.`
      : 'The weights replace λ. A weight of 0 leaves its figure out (it needs no reference).';
    const next = fromLambda ? 'lambda' : 'weights';
    const changed = mode !== null && next !== mode;
    mode = next;
    if (changed) onModeChange(next);
  }

  return { element, sync, mode: () => mode };
}
