// The chosen plan next to the baselines (uniform, metis, metis-improved) on the same problem: iteration
// time, energy, objective and GPUs used as a table with inline bars, and the chosen plan's change
// against each baseline ("-38.2% time"). Baselines may be infeasible or errors; both are shown as such.

import {html, figure, emptyView} from './svg.js';
import {metisRunDifference, referencePlanText} from '../run-totals.js';
import {formatMs, formatEnergy, formatCarbonG, formatMoney, formatNumber, formatPercent, relativeChange, isError, errorText,
        methodLabel} from './format.js';

const METRICS = [
  {key: 'iteration_ms', label: 'Iteration time', format: formatMs, word: 'time'},
  {key: 'energy_j', label: 'Energy', format: formatEnergy, word: 'energy'},
];
// Carbon and money per iteration (issue 11), as columns only when the chosen plan has them.
const PRACTICAL = [
  {key: 'carbon_g', label: 'Carbon', format: formatCarbonG, word: 'carbon'},
  {key: 'cost', label: 'Cost', format: formatMoney, word: 'cost'},
];
const metricsFor = (chosen) => [...METRICS, ...PRACTICAL.filter((m) => Number.isFinite(chosen?.[m.key]) && chosen[m.key] > 0)];

export function renderComparison(container, problem, {chosen, baselines = []} = {}) {
  if (isError(chosen)) {
    return emptyView(container, 'gt-comparison', `No plan to compare: ${errorText(chosen)}`);
  }
  // The chosen plan may itself be one of the baselines (planning with uniform): it is listed once,
  // as the chosen row, which names its method.
  const others = baselines.filter((b) => b !== chosen && !(b?.method === chosen.method && sameStages(b, chosen)));
  const rows = [{result: chosen, isChosen: true}, ...others.map((result, k) => ({result, index: k}))];
  for (const row of rows) row.notReference = notTheReference(chosen, row.result);
  const plans = rows.filter((r) => !isError(r.result));
  const scale = {};
  const metrics = metricsFor(chosen);
  for (const metric of metrics) {
    scale[metric.key] = Math.max(0, ...plans.map((r) => r.result[metric.key]).filter(Number.isFinite));
  }

  const head = html('thead', null, html('tr', null, [
    html('th', {scope: 'col'}, 'Plan'),
    ...metrics.map((m) => html('th', {scope: 'col', class: 'gt-cmp-metric'}, m.label)),
    html('th', {scope: 'col', class: 'num', title: 'lambda·T/T_ref + (1 - lambda)·E/E_ref; lower is better'},
         'Objective'),
    html('th', {scope: 'col', class: 'num'}, 'GPUs'),
    html('th', {scope: 'col', title: 'the chosen plan against this baseline; negative is better'}, 'Chosen vs this'),
  ]));
  const body = html('tbody', null, rows.map((row) => (isError(row.result)
    ? errorRow(row, metrics)
    : planRow(row, chosen, scale, metrics))));
  const table = html('table', {class: 'gt-cmp-table'}, [
    html('caption', {class: 'gt-visually-hidden'}, 'The chosen plan against the baseline plans'), head, body]);
  return figure(container, 'gt-comparison', html('div', {class: 'gt-st-scroll'}, table), caption(chosen, others, problem));
}

// Same stages, and for plans of replicas the same replicas with the same shares: two replica plans
// have no top-level stages, and must not pass for one plan.
function sameStages(a, b) {
  const stagesKey = (stages) => (stages || []).map((s) => [s.gpu, s.gpus, s.tensor_parallel, s.layers]);
  const key = (r) => JSON.stringify([stagesKey(r?.stages),
    (r?.replicas || []).map((replica) => [replica?.micro_batches, stagesKey(replica?.stages)])]);
  return key(a) === key(b);
}

// A metis-improved row says what it searched beyond the reference plan of the same method
// ("metis-improved, seed 1, stage groups"): two plans, two names.
function planLabel(row) {
  const base = row.result?.method ?? (row.isChosen ? methodLabel(row.result) : `baseline ${row.index + 1}`);
  const difference = row.notReference ? metisRunDifference(row.result) : '';
  const method = difference ? `${base}, ${difference}` : base;
  return row.isChosen ? ['chosen ', html('span', {class: 'gt-muted'}, `(${method})`)] : method;
}

function planRow(row, chosen, scale, metrics) {
  const result = row.result;
  const infeasible = result.feasible === false;
  const classes = [row.isChosen && 'is-chosen', infeasible && 'is-infeasible'].filter(Boolean).join(' ');
  const name = html('th', {scope: 'row'}, [planLabel(row),
    infeasible ? html('span', {class: 'gt-badge gt-badge-bad', title: 'some stage needs more memory than its GPU'},
                      'infeasible') : null]);
  return html('tr', {class: classes || undefined, 'data-method': result.method ?? undefined}, [
    name,
    ...metrics.map((m) => metricCell(result[m.key], scale[m.key], m.format, row.isChosen)),
    html('td', {class: 'num'}, Number.isFinite(result.objective) ? formatNumber(result.objective, 4) : '–'),
    html('td', {class: 'num'}, Number.isFinite(result.gpus_used) ? String(result.gpus_used) : '–'),
    row.isChosen ? html('td', {class: 'gt-muted'}, '—') : gainCell(chosen, result, infeasible, metrics),
  ]);
}

function metricCell(value, max, format, isChosen) {
  const bar = html('span', {class: 'gt-cmp-bar', 'aria-hidden': 'true'});
  const fill = bar.appendChild(html('span', {class: `gt-cmp-bar-fill${isChosen ? ' is-chosen' : ''}`}));
  fill.style.width = `${max > 0 && Number.isFinite(value) ? Math.max(1, (value / max) * 100) : 0}%`;
  return html('td', {class: 'gt-cmp-metric'}, [bar, html('span', {class: 'gt-cmp-value'}, format(value))]);
}

function gainCell(chosen, baseline, infeasible, metrics) {
  const gains = metrics.map((m) => {
    const change = relativeChange(chosen[m.key], baseline[m.key]);
    const tone = !Number.isFinite(change) || Math.abs(change) < 5e-4 ? 'gt-same' : change < 0 ? 'gt-good' : 'gt-bad';
    return html('span', {class: `gt-gain ${tone}`, 'data-metric': m.key}, `${formatPercent(change)} ${m.word}`);
  });
  const cell = html('td', {class: `gt-cmp-gain${infeasible ? ' gt-muted' : ''}`}, gains);
  if (infeasible) cell.title = 'this baseline does not fit in memory, so it is not a real alternative';
  return cell;
}

function errorRow(row, metrics) {
  return html('tr', {class: 'is-error'}, [
    html('th', {scope: 'row'}, planLabel(row)),
    html('td', {colspan: metrics.length + 3, class: 'gt-bad'}, errorText(row.result)),
  ]);
}

// Is this metis-improved result another plan than the one T_ref came from? Only then do the two
// need two names: with seven GPUs or fewer, one GPU per stage and a fixed u, metis-improved tries
// every subset and the seed changes nothing.
function notTheReference(chosen, result) {
  if (isError(result) || result?.method !== 'metis-improved' || chosen?.references !== 'metis-improved') return false;
  if (!metisRunDifference(result) || !Number.isFinite(chosen.t_ref_ms) || !Number.isFinite(result.iteration_ms)) return false;
  return Math.abs(result.iteration_ms - chosen.t_ref_ms) > 1e-9 * chosen.t_ref_ms;
}

// The caption says where T_ref and E_ref come from when the metis-improved row is another plan.
function referenceNote(chosen, rows, problem) {
  const row = rows.find((r) => notTheReference(chosen, r));
  if (!row) return null;
  return ` T_ref (${formatMs(chosen.t_ref_ms)}) and E_ref come from the reference plan, ${referencePlanText(problem)}; ` +
    `the metis-improved row is another plan (${metisRunDifference(row)}), hence ${formatMs(row.iteration_ms)}.`;
}

function caption(chosen, baselines, problem) {
  const best = baselines.filter((b) => !isError(b) && b.feasible !== false && Number.isFinite(b.iteration_ms))
    .sort((a, b) => a.iteration_ms - b.iteration_ms)[0];
  const parts = ['Same problem, same cost model. Percentages are the chosen plan against each baseline: ' +
    'negative means lower (better).'];
  if (best) {
    parts.push(' Against the fastest feasible baseline (', html('strong', null, String(best.method ?? 'baseline')),
               `): ${formatPercent(relativeChange(chosen.iteration_ms, best.iteration_ms))} time.`);
  }
  const note = referenceNote(chosen, [chosen, ...baselines], problem);
  if (note) parts.push(note);
  return parts;
}
