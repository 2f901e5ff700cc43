// The model: shape, batch and precision, with presets.
import { h } from '../dom.js';
import { formatNumber } from '../format.js';
import { isPlainObject } from '../paths.js';
import { MODEL_PRESETS } from '../presets.js';
import { field, section, selectField } from './fields.js';

// The preset the model matches (every field the preset sets), or -1: the dropdown shows it.
export function presetInUse(model) {
  if (!isPlainObject(model)) return -1;
  return MODEL_PRESETS.findIndex((preset) => Object.entries(preset.model).every(([key, value]) => model[key] === value));
}

function presetPicker(ctx) {
  const inUse = presetInUse(ctx.store.get().model);
  const select = h('select', { id: 'model-preset', dataset: { focusKey: 'model-preset' } },
    h('option', { value: '', text: 'Custom' }),
    MODEL_PRESETS.map((preset, i) => h('option', { value: String(i), text: preset.name })));
  select.value = inUse < 0 ? '' : String(inUse);
  select.addEventListener('change', () => {
    const preset = MODEL_PRESETS[Number(select.value)];
    if (!preset) return;
    ctx.store.edit((copy) => {
      copy.model = { ...(isPlainObject(copy.model) ? copy.model : {}), ...preset.model };
      if (!('num_attention_heads' in preset.model)) delete copy.model.num_attention_heads;
    }, 'model-preset');
  });
  return h('div', { class: 'field' }, h('label', { for: 'model-preset', text: 'Preset' }), select);
}

// M and a rough parameter count, so that a typo in H or L shows at once.
function summary(problem) {
  const model = problem.model;
  if (!isPlainObject(model)) return '';
  const { hidden_size: H, num_layers: L, vocab_size: V, micro_batch_size: u, global_batch_size: B } = model;
  const parts = [];
  if ([H, L, V].every(Number.isFinite)) parts.push(`≈ ${formatNumber((12 * H * H * L + V * H) / 1e9, 3)} B parameters`);
  if (Number.isFinite(u) && Number.isFinite(B) && u > 0 && B % u === 0) parts.push(`M = ${B / u} micro-batches per iteration`);
  // With search.micro_batch_size "auto" (issue 11) u is only where the search starts.
  if (problem.search?.micro_batch_size === 'auto') parts.push('micro-batch size auto: the search picks u among the divisors of B');
  return parts.join(' · ');
}

export function createModelSection(ctx) {
  const element = section('Model', { path: 'model', intro: 'A GPT-style Transformer: every layer has the same size; the last stage also holds the LM head.' });
  const body = h('div', { class: 'field-grid' });
  const note = h('p', { class: 'derived', 'aria-live': 'polite' });
  element.append(body, note);
  return {
    name: 'model',
    element,
    render(problem) {
      body.replaceChildren(
        presetPicker(ctx),
        field(ctx, { path: 'model.hidden_size', label: 'Hidden size H' }),
        field(ctx, { path: 'model.num_layers', label: 'Layers L' }),
        field(ctx, { path: 'model.seq_length', label: 'Sequence length T', unit: 'tokens' }),
        field(ctx, { path: 'model.vocab_size', label: 'Vocabulary V' }),
        field(ctx, {
          path: 'model.num_attention_heads', label: 'Attention heads', placeholder: 'any',
          hint: 'hybrid plans only use tensor degrees that divide it (and H); empty: any degree, as before',
        }),
        field(ctx, { path: 'model.micro_batch_size', label: 'Micro-batch u', unit: 'sequences' }),
        field(ctx, { path: 'model.global_batch_size', label: 'Global batch B', unit: 'sequences', hint: 'a multiple of u' }),
        selectField(ctx, {
          path: 'model.precision', label: 'Precision',
          options: [{ value: '', label: 'default (fp16)' }, { value: 'fp16', label: 'fp16' }, { value: 'bf16', label: 'bf16' }, { value: 'fp32', label: 'fp32' }],
        }),
      );
      note.textContent = summary(problem);
    },
    update(problem) {
      note.textContent = summary(problem);
      const select = body.querySelector('#model-preset');
      if (select) select.value = String(presetInUse(problem.model)).replace(/^-1$/, '');
    },
  };
}
