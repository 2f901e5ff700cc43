// The result's practical figures in one line above the plan (issue 11): the whole run's wall time,
// energy, carbon and money when the problem gives training.iterations ("12.4 days, 41 MWh,
// 9.8 t CO2e, $118k"), else carbon and money per iteration when the problem has such data. A result
// without them (every problem from before issue 11) gets no line at all.
import { formatCarbonG, formatEnergy, formatKwh, formatMoney, formatMs, formatNumber, formatRunTime } from './views/format.js';

const positive = (x) => Number.isFinite(x) && x > 0;

// Facility energy next to the GPUs' own when a PUE above 1 makes them differ (by more than 0.05 %).
function withFacility(gpuText, gpu, facility, format) {
  if (!Number.isFinite(facility) || !(gpu > 0) || Math.abs(facility - gpu) <= 5e-4 * gpu) return gpuText;
  return `${gpuText} (${format(facility)} with PUE)`;
}

// "12.4 days, 41 MWh (49 MWh with PUE), 9.8 t CO2e, $118k"; '' without a run.
export function runTotalsText(result) {
  const run = result?.run;
  if (!run || typeof run !== 'object') return '';
  const parts = [formatRunTime(run.hours), withFacility(formatKwh(run.energy_kwh), run.energy_kwh, run.facility_energy_kwh, formatKwh)];
  if (positive(run.carbon_kg)) parts.push(formatCarbonG(run.carbon_kg * 1000));
  if (positive(run.cost)) parts.push(formatMoney(run.cost));
  return parts.join(', ');
}

// "per iteration: 2.1 g CO2e, $0.004"; '' when the result has neither (or has a run line).
export function perIterationText(result) {
  if (!result || (result.run && typeof result.run === 'object')) return '';
  const parts = [];
  if (positive(result.carbon_g)) parts.push(formatCarbonG(result.carbon_g));
  if (positive(result.cost)) parts.push(formatMoney(result.cost));
  return parts.length ? `per iteration: ${parts.join(', ')}` : '';
}

// "over 100,000 iterations"
export function runLengthText(result) {
  const n = result?.run?.iterations;
  return Number.isFinite(n) ? `over ${Math.round(n).toLocaleString('en-US')} iteration${n === 1 ? '' : 's'}` : '';
}

// The micro-batch size the search chose, when it chose one ("auto"); '' otherwise.
export function microBatchText(result) {
  if (result?.micro_batch_size_mode !== 'auto' || !Number.isFinite(result.micro_batch_size)) return '';
  const m = Number.isInteger(result.micro_batches) ? `, M = ${result.micro_batches} micro-batches` : '';
  return `u = ${result.micro_batch_size} (chosen by the search${m})`;
}

// The objective's weights when they are not the paper's λ form: "time 0.4, energy 0.2, carbon 0.3, cost 0.1".
export function weightsText(result) {
  const w = result?.weights;
  if (!w || typeof w !== 'object') return '';
  if (!positive(w.carbon) && !positive(w.cost)) return '';
  return ['time', 'energy', 'carbon', 'cost'].map((k) => `${k} ${formatNumber(Number(w[k]) || 0)}`).join(', ');
}

// The references the plan's objective divided by: T_ref and E_ref always, C_ref and M_ref when
// their weight counts (all: whenever the result has them, for the editor's Objective tab).
export function referencesList(result, { all = false } = {}) {
  const parts = [`T_ref ${formatMs(result?.t_ref_ms)}`, `E_ref ${formatEnergy(result?.e_ref_j)}`];
  const w = result?.weights ?? {};
  if (Number.isFinite(result?.c_ref_g) && (all || positive(w.carbon))) parts.push(`C_ref ${formatCarbonG(result.c_ref_g)}`);
  if (Number.isFinite(result?.m_ref) && (all || positive(w.cost))) parts.push(`M_ref ${formatMoney(result.m_ref)}`);
  return parts.join(', ');
}

// The plan T_ref and E_ref come from when the problem leaves them out (core/api/references.hpp): a
// metis-improved run of its own, at the fixed seed 0, one GPU per stage, at the file's micro-batch
// size, whatever the run's seed, parallelism or "auto". Named so that it is never mistaken for the
// comparison's metis-improved row, which searches with the problem's seed (and stage groups, and u).
export const REFERENCE_SEED = 0;
export function referencePlanText(problem) {
  const u = problem?.model?.micro_batch_size;
  return `metis-improved at seed ${REFERENCE_SEED} with one GPU per stage${Number.isFinite(u) ? ` and u = ${u}` : ''}`;
}

// What a metis-improved result searched that the reference plan did not: "seed 1, stage groups,
// u chosen"; '' when it searched the same space with the same seed (then they are one plan).
export function metisRunDifference(result) {
  if (result?.method !== 'metis-improved') return '';
  const parts = [];
  if (Number.isFinite(result.seed) && result.seed !== REFERENCE_SEED) parts.push(`seed ${result.seed}`);
  if (result.parallelism === 'hybrid') parts.push('stage groups');
  if (result.micro_batch_size_mode === 'auto') parts.push('u chosen');
  return parts.join(', ');
}
