// Replicas (docs/replicas.md): how many copies of the pipeline train side by side (search.replicas:
// 1, a number R >= 2, or "auto"), and how often they average their gradients (training.sync_every,
// H) on what share of the bytes (training.sync_compression, c). Empty fields mean one pipeline,
// H = 1 and c = 1: the plan is exactly as before replicas.
import { h, preservingFocus, uniqueId } from '../dom.js';
import { fieldText } from '../format.js';
import { getPath } from '../paths.js';
import { boundInput, field, section, writeField } from './fields.js';

const MODES = [
  ['', 'one pipeline (default)'],
  ['auto', 'auto: the planner chooses'],
  ['count', 'exactly R replicas'],
];

const modeOf = (value) => (value === 'auto' ? 'auto' : value === undefined || value === 1 ? '' : 'count');

// The mode select and, for "exactly R", the count R (typed; anything not a number reaches the
// validator as typed and its message names search.replicas).
function replicasControl(ctx, problem, redraw) {
  const value = getPath(problem, 'search.replicas');
  const id = uniqueId('replicas');
  const select = h('select', { id, dataset: { focusKey: 'replicas-mode' }, 'aria-describedby': `${id}-hint` });
  for (const [mode, label] of MODES) select.append(h('option', { value: mode, text: label, selected: mode === modeOf(value) }));
  const countId = uniqueId('replica-count');
  const count = boundInput(ctx, { path: 'search.replicas', id: countId, placeholder: '2' });
  count.removeAttribute('aria-label');
  const countField = h('div', { class: 'field replica-count', dataset: { errorHost: '' }, hidden: modeOf(value) !== 'count' },
    h('label', { for: countId, text: 'Replicas R' }), count);
  // Messages about search.replicas land on the first element with that path: the select, unless
  // the count is shown.
  if (modeOf(value) !== 'count') select.dataset.path = 'search.replicas';
  select.addEventListener('change', () => {
    const mode = select.value;
    ctx.store.edit((copy) => {
      const current = getPath(copy, 'search.replicas');
      if (mode === '') writeField(copy, 'search.replicas', undefined);
      else if (mode === 'auto') writeField(copy, 'search.replicas', 'auto');
      else writeField(copy, 'search.replicas', Number.isInteger(current) && current >= 2 ? current : 2);
    }, ctx.source);
    redraw();
  });
  const hint = h('small', { class: 'hint', id: `${id}-hint`, text: 'One pipeline, or several copies of it (data parallelism), each on its share of the micro-batches; auto tries R up to 64 and keeps one pipeline when that is best.' });
  return [h('div', { class: 'field', dataset: { errorHost: '' } }, h('label', { for: id, text: 'Replicas' }), select, hint), countField];
}

export function createReplicasSection(ctx) {
  const element = section('Replicas', {
    intro: 'Several replicas of the pipeline train at once and average their gradients over the network. On a pool spread over sites the planner can compare one pipeline across sites with a replica per site (the Studies\' replicas study sweeps the wide-area bandwidth).',
  });
  const body = h('div', { class: 'field-grid' });
  const note = h('p', { class: 'hint replica-sync-note', id: 'replica-sync-note' });
  element.append(body, note);
  const syncNote = (problem) => {
    const H = getPath(problem, 'training.sync_every');
    note.textContent = Number.isFinite(H) && H > 1
      ? `Syncing every ${fieldText(H)} iterations is local SGD: it changes the optimiser, and how it converges is not modelled. The plan is compared per iteration, not per unit of accuracy; the planner never chooses H itself.`
      : 'A sync period H > 1 (local SGD, DiLoCo-style) changes the optimiser: its convergence is not modelled, so the planner only plans for the H you give.';
  };
  const api = {
    name: 'replicas',
    element,
    render(problem) {
      preservingFocus(element, () => {
        body.replaceChildren(
          ...replicasControl(ctx, problem, () => api.render(ctx.store.get())),
          field(ctx, { path: 'training.sync_every', label: 'Sync every', unit: 'iterations', hint: 'H: replicas average gradients every H iterations; empty: 1 (every iteration)' }),
          field(ctx, { path: 'training.sync_compression', label: 'Sync compression', hint: 'c in (0, 1]: share of gradient bytes sent between replicas (0.5: 8-bit from 16-bit); empty: 1' }));
        syncNote(problem);
      });
    },
    update(problem) {
      syncNote(problem);
    },
  };
  return api;
}
