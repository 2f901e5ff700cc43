// The objective (the weights or lambda, and the optional reference values) and the search's settings.
import { h, uniqueId } from '../dom.js';
import { getPath } from '../paths.js';
import { referencesList } from '../run-totals.js';
import { field, section, selectField, writeField } from './fields.js';
import { createWeightsControl, useLambda } from './weights-control.js';
import { createReplicasSection } from './replicas-section.js';

function lambdaControl(ctx, onChange) {
  const path = 'objective.lambda';
  const id = uniqueId('lambda');
  const value = getPath(ctx.store.get(), path);
  const slider = h('input', {
    type: 'range', id, min: '0', max: '1', step: '0.01',
    value: Number.isFinite(value) ? value : 1,
    dataset: { focusKey: 'lambda-slider' },
  });
  const exact = field(ctx, { path, label: 'λ exactly', hint: '1 = time only, 0 = energy only' });
  const text = exact.querySelector('input');
  const shown = h('output', { for: id, text: Number.isFinite(value) ? String(value) : '1 (default)' });
  slider.addEventListener('input', () => {
    const lambda = Number(slider.value);
    text.value = String(lambda);
    shown.textContent = String(lambda);
    ctx.store.edit((copy) => writeField(copy, path, lambda), ctx.source);
    onChange();
  });
  text.addEventListener('input', () => {
    const lambda = Number(text.value);
    if (text.value.trim() !== '' && Number.isFinite(lambda)) slider.value = String(lambda);
    shown.textContent = text.value.trim() || '1 (default)';
    onChange();
  });
  const sliderField = h('div', { class: 'field wide slider-field' },
    h('label', { for: id }, 'Trade-off λ: ', shown),
    h('div', { class: 'slider-row' }, h('span', { class: 'hint', text: 'energy' }), slider, h('span', { class: 'hint', text: 'time' })));
  return [sliderField, exact];
}

export function createObjectiveSection(ctx) {
  const objective = section('Objective', {
    path: 'objective',
    intro: 'Minimise w_t·T/T_ref + w_e·E/E_ref + w_c·C/C_ref + w_m·M/M_ref per iteration (time, energy, carbon, money); λ alone means w_t = λ, w_e = 1 − λ, as in the paper. Leave the references empty and the planner fills them from a baseline plan.',
  });
  const objectiveBody = h('div', { class: 'field-grid' });
  const resolved = h('p', { class: 'derived', id: 'resolved-references', 'aria-live': 'polite', hidden: true });
  objective.append(objectiveBody, resolved);
  let weights = null;
  const lambdaArea = h('div', { class: 'field-grid wide lambda-area' });
  const redrawLambda = () => {
    if (weights.mode() === 'lambda') {
      lambdaArea.replaceChildren(...lambdaControl(ctx, () => weights.sync(ctx.store.get())));
    } else {
      const back = h('button', { type: 'button', class: 'small', id: 'use-lambda', text: 'Use λ instead' });
      back.addEventListener('click', () => {
        ctx.store.edit(useLambda, ctx.source);
        api.render(ctx.store.get());
      });
      lambdaArea.replaceChildren(h('div', { class: 'lambda-note' }, h('span', { class: 'hint', text: 'The file gives weights: λ is not used.' }), back));
    }
  };
  const search = section('Search', { path: 'search', intro: 'Empty fields use the paper\'s values.' });
  const searchBody = h('div', { class: 'field-grid' });
  search.append(searchBody);
  const replicas = createReplicasSection(ctx);
  const element = h('div', { class: 'stack' }, objective, search, replicas.element);
  let lastResult = null;
  const showResolved = () => {
    resolved.hidden = !lastResult;
    resolved.textContent = lastResult ? `The last plan used ${referencesList(lastResult, { all: true })}.` : '';
  };
  const api = {
    name: 'objective',
    element,
    render(problem) {
      weights = createWeightsControl(ctx, { onModeChange: redrawLambda });
      weights.sync(problem);
      redrawLambda();
      objectiveBody.replaceChildren(
        weights.element,
        lambdaArea,
        field(ctx, { path: 'objective.t_ref_ms', label: 'Reference time T_ref', unit: 'ms', placeholder: 'from a baseline' }),
        field(ctx, { path: 'objective.e_ref_j', label: 'Reference energy E_ref', unit: 'J', placeholder: 'from a baseline' }),
        field(ctx, { path: 'objective.c_ref_g', label: 'Reference carbon C_ref', unit: 'gCO2e', placeholder: 'from a baseline' }),
        field(ctx, { path: 'objective.m_ref', label: 'Reference money M_ref', unit: '$', placeholder: 'from a baseline' }));
      showResolved();
      searchBody.replaceChildren(
        selectField(ctx, {
          path: 'search.parallelism',
          label: 'Parallelism',
          options: [
            { value: '', label: 'pipeline (default)' },
            { value: 'pipeline', label: 'pipeline' },
            { value: 'hybrid', label: 'hybrid: stage groups' },
          ],
          hint: 'pipeline: one GPU per stage (the paper); hybrid: a stage may be GPUs of one node, tensor and data parallel',
        }),
        selectField(ctx, {
          path: 'search.engine',
          label: 'Engine',
          options: [
            { value: '', label: 'any (default)' },
            { value: 'any', label: 'any' },
            { value: 'megatron-core', label: 'Megatron-Core' },
            { value: 'deepspeed', label: 'DeepSpeed' },
            { value: 'torch', label: 'PyTorch pipelining' },
            { value: 'flashflex', label: 'FlashFlex' },
          ],
          hint: 'plan only what this engine can launch (docs/launch.md); the result says what that costs against any engine',
        }),
        field(ctx, { path: 'search.population', label: 'Population' }),
        field(ctx, { path: 'search.tournament', label: 'Tournament size' }),
        field(ctx, { path: 'search.elite', label: 'Elite' }),
        field(ctx, { path: 'search.local_search_rate', label: 'Local search rate', hint: 'in [0, 1]' }),
        field(ctx, { path: 'search.crossover_fallback_rate', label: 'Crossover full-scan rate', hint: 'p_fall, in [0, 1]' }),
        selectField(ctx, {
          path: 'search.boundary_shift',
          label: 'Boundary shift',
          options: [
            { value: '', label: 'paper (default)' },
            { value: 'paper', label: 'paper' },
            { value: 'both', label: 'both ways' },
          ],
          hint: 'Alg. 3 moves layers rightwards only; both ways often balances better',
        }),
        field(ctx, { path: 'search.time_limit_s', label: 'Time limit', unit: 's' }),
        field(ctx, { path: 'search.patience', label: 'Patience', unit: 'generations' }),
        field(ctx, { path: 'search.max_generations', label: 'Max generations' }),
        field(ctx, { path: 'search.seed', label: 'Seed' }),
        selectField(ctx, {
          path: 'search.micro_batch_size',
          label: 'Micro-batch size',
          options: [
            { value: '', label: 'fixed (default)' },
            { value: 'fixed', label: 'fixed' },
            { value: 'auto', label: 'auto: the search picks u' },
          ],
          hint: 'fixed: the model\'s u, as the paper; auto: u among the divisors of B, reported with the plan',
        }));
      replicas.render(problem);
    },
    // This section's own edits (λ, a weight): the other controls follow without a redraw.
    update(problem) {
      weights?.sync(problem, document.activeElement);
      replicas.update(problem);
    },
    showResult(result) {
      lastResult = result && typeof result === 'object' && !result.error ? result : null;
      showResolved();
    },
  };
  return api;
}
