// Measured runs back into the problem (geotrain calibrate, in the worker): a plan that was run and
// its iteration time, typed in milliseconds or read from Megatron-LM's log; several runs fit
// together. The fit's figures are previewed (each type's compute_util before and after, each run's
// measured and modelled time) before they are applied.
import { formatMs } from '../format.js';
import { h, uniqueId } from '../dom.js';
import { WorkerError } from '../messenger.js';
import { applyPreview, changeList, errorBox, formatBytes, previewBox } from './measured-preview.js';

const MAX_TEXT = 4 * 1024 * 1024;

const field = (label, input, hint) => h('div', { class: 'field' }, h('label', { for: input.id, text: label }), input,
  hint ? h('small', { class: 'hint', text: hint }) : null);

export function createCalibratePanel(ctx) {
  const runs = [];  // {name, plan (object or text), iteration_ms | log, log_name}
  let lastPlan = null;  // the plan the results show
  let preview = null;

  const planSource = h('select', { id: 'calibrate-plan' });
  const planText = h('textarea', { id: uniqueId('cal-plan-text'), rows: 3, spellcheck: 'false', placeholder: '{"stages": [{"gpu": "node1-g0", "layers": 16}, …]}' });
  const planTextField = field('Plan file (a geotrain solve output or a plan)', planText);
  const ms = h('input', { type: 'text', id: uniqueId('cal-ms'), inputmode: 'decimal', autocomplete: 'off', placeholder: '6150' });
  const log = h('textarea', { id: uniqueId('cal-log'), rows: 3, spellcheck: 'false', placeholder: ' iteration      200/   10000 | … | elapsed time per iteration (ms): 6150.2 | …' });
  const logFile = h('input', { type: 'file', id: uniqueId('cal-log-file'), class: 'visually-hidden' });
  let logName = '';
  const addRun = h('button', { type: 'button', id: 'calibrate-add-run', text: 'Add run' });
  const list = h('ul', { class: 'measured-files', 'aria-label': 'Measured runs' });
  const fit = h('button', { type: 'button', class: 'primary', id: 'calibrate-fit', text: 'Fit compute utilisation', disabled: true });
  const out = h('div', { class: 'measured-out', 'aria-live': 'polite' });
  const element = h('section', { class: 'measured-panel', 'aria-labelledby': 'calibrate-title' },
    h('h3', { id: 'calibrate-title', text: 'Calibrate from a run' }),
    h('p', { class: 'intro', text: 'A plan you ran and its measured time per iteration. The fit sets the compute utilisation of each GPU type in the plan so that the model reproduces the run; several runs fit together by least squares (docs/measured-clusters.md).' }),
    h('div', { class: 'field-grid' }, field('Plan', planSource), planTextField,
      field('Measured iteration time (ms)', ms, 'Or paste (or choose) a Megatron-LM log below: its median interval counts.'),
      h('div', { class: 'field' }, h('label', { for: log.id, text: 'Megatron-LM log' }), log,
        h('label', { class: 'button small', for: logFile.id, text: 'Choose log…' }), logFile)),
    h('div', { class: 'row-actions' }, addRun), list, h('div', { class: 'row-actions' }, fit), out);

  function renderSources() {
    const chosen = planSource.value;
    planSource.replaceChildren(
      lastPlan ? h('option', { value: 'results', text: `The plan in Results (${formatMs(lastPlan.iteration_ms)}, ${lastPlan.stages.length} stages)` }) : null,
      h('option', { value: 'text', text: 'A plan file, pasted below' }));
    planSource.value = chosen && [...planSource.options].some((o) => o.value === chosen) ? chosen : planSource.options[0].value;
    planTextField.hidden = planSource.value !== 'text';
  }
  planSource.addEventListener('change', () => { planTextField.hidden = planSource.value !== 'text'; });
  logFile.addEventListener('change', async () => {
    const file = logFile.files[0];
    logFile.value = '';
    if (!file) return;
    if (file.size > MAX_TEXT) return out.replaceChildren(errorBox([`${file.name} is larger than 4 MB; keep the lines with "elapsed time per iteration".`]));
    log.value = await file.text();
    logName = file.name;
  });
  log.addEventListener('input', () => { logName = ''; });

  function renderList() {
    list.replaceChildren(...runs.map((r, i) => h('li', {},
      h('span', { class: 'file-name', text: r.name }),
      h('span', { class: 'file-size', text: r.iteration_ms !== undefined ? `${r.iteration_ms} ms` : `log, ${formatBytes(r.log.length)}` }),
      h('button', { type: 'button', class: 'small danger', text: 'Remove', 'aria-label': `Remove run ${i + 1}`, onclick: () => { runs.splice(i, 1); changed(); } }))));
    fit.disabled = runs.length === 0;
  }
  function changed() {
    preview = null;
    out.replaceChildren();
    renderList();
  }

  addRun.addEventListener('click', () => {
    const fromResults = planSource.value === 'results' && lastPlan;
    const plan = fromResults ? lastPlan : planText.value.trim();
    const problems = [];
    if (!plan) problems.push('Paste the plan that was run (a geotrain solve output or a plan file).');
    const msText = ms.value.trim();
    const number = Number(msText);
    if (msText && !(Number.isFinite(number) && number > 0)) problems.push(`The measured time must be a positive number of ms, got "${msText}".`);
    if (!msText && !log.value.trim()) problems.push('Give the measured iteration time in ms, or a Megatron-LM log.');
    if (msText && log.value.trim()) problems.push('Give either the time in ms or a log, not both.');
    if (problems.length) return out.replaceChildren(errorBox(problems));
    const name = fromResults ? `plan in Results (run ${runs.length + 1})` : `pasted plan (run ${runs.length + 1})`;
    runs.push(msText ? { name, plan, iteration_ms: number } : { name, plan, log: log.value, log_name: logName || 'pasted log' });
    ms.value = '';
    log.value = '';
    logName = '';
    changed();
  });

  fit.addEventListener('click', async () => {
    const problem = ctx.store.get();
    fit.disabled = true;
    out.replaceChildren(h('p', { class: 'hint', text: 'Fitting…' }));
    try {
      const result = await ctx.tools.call('calibrate', { problem, runs });
      preview = { result, problem };
      const f = result.fit;
      out.replaceChildren(previewBox({
        title: `Fitted to ${runs.length} run${runs.length === 1 ? '' : 's'}: the model is within ${percent(f.rms_error)} of them (root mean square)${f.determined ? '' : ', but they do not tell every type apart'}`,
        lines: [
          ...f.types.map((t) => `${t.type} (${t.gpus} GPU${t.gpus === 1 ? '' : 's'}): compute_util ${fmt(t.compute_util_before[0])}${t.compute_util_before[1] !== t.compute_util_before[0] ? `–${fmt(t.compute_util_before[1])}` : ''} → ${fmt(t.compute_util)}${t.bound === 'upper' ? ' (the most it can be)' : ''}`),
          ...f.runs.map((r) => `${r.name}: measured ${formatMs(r.measured_ms)}; the model said ${formatMs(r.model_ms_before)}, now ${formatMs(r.model_ms)} (${signed(r.error)})`),
        ],
        body: changeList(result.changes),
        warnings: result.warnings,
        onApply: apply,
        onDiscard: changed,
        applyId: 'calibrate-apply',
      }));
    } catch (error) {
      out.replaceChildren(errorBox(error instanceof WorkerError ? error.messages : [String(error.message ?? error)]));
    } finally {
      fit.disabled = runs.length === 0;
    }
  });

  function apply() {
    if (!preview) return;
    const applied = applyPreview(ctx, preview, { out, message: `Calibrated compute utilisation from ${runs.length} run${runs.length === 1 ? '' : 's'}.`, stale: 'The problem changed since this fit; fit again.' });
    preview = null;
    if (!applied) return;
    runs.length = 0;
    changed();
  }

  renderSources();
  return {
    element,
    showResult(result) {
      lastPlan = result && Array.isArray(result.stages) ? result : null;
      renderSources();
    },
  };
}

// 0.0123 -> "1.23%", to 0.01% and never "-0.00%".
function percent(fraction) {
  const v = Math.round(fraction * 10000) / 100;
  return `${(v === 0 ? 0 : v).toFixed(2)}%`;
}
const signed = (fraction) => (Math.round(fraction * 10000) > 0 ? '+' : '') + percent(fraction);

function fmt(x) {
  return Number(x.toPrecision(3)).toString();
}
