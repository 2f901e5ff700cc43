// Number formatting with units, and the small readers the views share for results and problems.

const groupFormat = new Intl.NumberFormat('en-US', {maximumFractionDigits: 0});

/** Three significant digits, at most `maxDecimals` after the point: 0.0123, 1.23, 12.3, 123, 1,234. */
export function formatNumber(x, maxDecimals = 3) {
  if (x === null || x === undefined || Number.isNaN(x)) return '–';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '-∞';
  const abs = Math.abs(x);
  if (abs >= 1000) return groupFormat.format(x);
  if (abs === 0) return '0';
  const decimals = Math.min(maxDecimals, Math.max(0, 2 - Math.floor(Math.log10(abs))));
  const text = x.toFixed(decimals);
  if (Number(text) === 0) return x.toPrecision(2);
  return decimals > 0 ? text.replace(/\.?0+$/, '') : text;
}

/** Milliseconds: "0.42 ms", "227 ms", "2.04 s", "87.1 s", "4 min 12 s". */
export function formatMs(ms) {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return formatNumber(ms);
  const abs = Math.abs(ms);
  if (abs < 1000) return `${formatNumber(ms)} ms`;
  if (abs < 600000) return `${formatNumber(ms / 1000)} s`;
  const minutes = Math.floor(abs / 60000);
  const seconds = Math.round((abs - minutes * 60000) / 1000);
  return `${ms < 0 ? '-' : ''}${minutes} min ${seconds} s`;
}

/** Joules: "726 J", "1.01 kJ", "2.3 MJ". */
export function formatEnergy(j) {
  if (j === null || j === undefined || !Number.isFinite(j)) return formatNumber(j);
  const abs = Math.abs(j);
  if (abs < 1000) return `${formatNumber(j)} J`;
  if (abs < 1e6) return `${formatNumber(j / 1e3)} kJ`;
  return `${formatNumber(j / 1e6)} MJ`;
}

// Units picked by magnitude, as formatEnergy picks J, kJ or MJ: the first unit whose next one up
// would read below 1. steps: [[divisor, suffix], ...] smallest first.
function scaled(value, steps, prefix = '') {
  if (value === null || value === undefined || !Number.isFinite(value)) return formatNumber(value);
  const abs = Math.abs(value);
  let [divisor, suffix] = steps[0];
  for (const step of steps) if (abs >= step[0]) [divisor, suffix] = step;
  return `${value < 0 ? '-' : ''}${prefix}${formatNumber(abs / divisor)}${suffix}`;
}

/** Kilowatt-hours (run totals): "850 Wh", "41 MWh", "1.2 GWh". */
export function formatKwh(kwh) {
  return scaled(kwh, [[1e-3, ' Wh'], [1, ' kWh'], [1e3, ' MWh'], [1e6, ' GWh']]);
}

/** Grams of CO2-equivalent: "2.1 g CO2e", "340 kg CO2e", "9.8 t CO2e". */
export function formatCarbonG(grams) {
  return `${scaled(grams, [[1, ' g'], [1e3, ' kg'], [1e6, ' t']])} CO2e`;
}

/**
 * US dollars: always the cents up to $999.99 ("$1.70", "$70.60", "$740.00"), two significant
 * digits below a dollar ("$0.42", "$0.012", "$0.004"), k, M and B above ("$118k", "$2.4M").
 */
export function formatMoney(dollars) {
  if (dollars === null || dollars === undefined || !Number.isFinite(dollars)) return formatNumber(dollars);
  const abs = Math.abs(dollars);
  const sign = dollars < 0 ? '-' : '';
  if (abs === 0) return '$0';
  if (abs < 0.995) {
    // Two significant digits, at least the cents: "$0.42", "$0.50", "$0.012", "$0.004".
    const decimals = Math.min(12, Math.max(2, 1 - Math.floor(Math.log10(abs))));
    return `${sign}$${abs.toFixed(decimals).replace(/(\.\d\d\d*?)0+$/, '$1')}`;
  }
  if (Math.round(abs * 100) < 100000) return `${sign}$${abs.toFixed(2)}`;
  return scaled(dollars, [[1e3, 'k'], [1e6, 'M'], [1e9, 'B']], '$');
}

/** A run's wall time from its hours: "42 min", "9.5 hours", "12.4 days". */
export function formatRunTime(hours) {
  if (hours === null || hours === undefined || !Number.isFinite(hours)) return formatNumber(hours);
  if (Math.abs(hours) < 1) return `${formatNumber(hours * 60)} min`;
  if (Math.abs(hours) < 48) return `${formatNumber(hours)} hours`;
  return `${formatNumber(hours / 24)} days`;
}

export function formatGiB(gib) {
  return `${formatNumber(gib, 2)} GiB`;
}

export function formatGbps(gbps) {
  if (Number.isFinite(gbps) && Math.abs(gbps) < 1) return `${formatNumber(gbps * 1000)} Mbps`;
  return `${formatNumber(gbps)} Gbps`;
}

/** A signed percentage with one decimal: "-38.2%", "+4.0%", "0.0%". */
export function formatPercent(fraction) {
  if (!Number.isFinite(fraction)) return '–';
  const pct = Math.round(fraction * 1000) / 10;
  const sign = pct > 0 ? '+' : pct < 0 ? '-' : '';
  return `${sign}${Math.abs(pct).toFixed(1)}%`;
}

/** Relative change of `value` against `reference` as a fraction: -0.382 is 38.2% less. */
export function relativeChange(value, reference) {
  if (!Number.isFinite(value) || !Number.isFinite(reference) || reference === 0) return NaN;
  return (value - reference) / reference;
}

export function plural(n, word, many = `${word}s`) {
  return `${groupFormat.format(n)} ${n === 1 ? word : many}`;
}

// ---- readers for results and problems ----

/**
 * The per-stage metrics of a result: solve results keep them in stage_metrics, evaluate reports in
 * stages (then with compute_ms); both are accepted so the views can show a hand-edited plan too.
 */
export function stageMetrics(result) {
  if (!result) return [];
  if (Array.isArray(result.stage_metrics)) return result.stage_metrics;
  if (Array.isArray(result.stages) && result.stages.every((s) => 'stage_ms' in s)) return result.stages;
  return [];
}

/** The bottleneck stage (0-based): the result's own figure, else the slowest stage. */
export function bottleneckOf(result) {
  const stages = stageMetrics(result);
  if (Number.isInteger(result?.bottleneck_stage) && result.bottleneck_stage >= 0 &&
      result.bottleneck_stage < stages.length) {
    return result.bottleneck_stage;
  }
  let best = -1;
  stages.forEach((s, q) => { if (best < 0 || s.stage_ms > stages[best].stage_ms) best = q; });
  return best;
}

/** Micro-batches M = B / u: the result's figure, else from the problem's model. */
export function microBatchesOf(problem, result) {
  if (Number.isInteger(result?.micro_batches) && result.micro_batches > 0) return result.micro_batches;
  const model = problem?.model;
  if (model && model.micro_batch_size > 0) return Math.max(1, Math.round(model.global_batch_size / model.micro_batch_size));
  return 1;
}

export function totalLayersOf(problem, stages) {
  const fromModel = problem?.model?.num_layers;
  const fromStages = stages.reduce((sum, s) => sum + (s.layers || 0), 0);
  return Number.isFinite(fromModel) && fromModel >= fromStages ? fromModel : fromStages;
}

/** Site name for display: GPUs without a site share one unnamed site. */
export function siteLabel(site) {
  return site === undefined || site === null || site === '' ? '(no site)' : String(site);
}

/** A result that is an error object ({error: {kind, messages}}) rather than a plan. */
export function isError(result) {
  return !result || typeof result !== 'object' || 'error' in result;
}

/** What a view says instead of a drawing: nothing solved yet, an error, or an empty plan. */
export function noPlanMessage(result) {
  if (result === null || result === undefined) return 'No plan yet.';
  if (isError(result)) return `No plan: ${errorText(result)}`;
  return 'The plan has no stages.';
}

export function errorText(result) {
  const error = result?.error;
  if (!error) return 'no result';
  if (typeof error === 'string') return error;
  const messages = Array.isArray(error.messages) ? error.messages.join('; ') : '';
  return `${error.kind ? `${error.kind} error` : 'error'}${messages ? `: ${messages}` : ''}`;
}

/** What to call a result in a legend: its method, or "your plan" for an evaluate report. */
export function methodLabel(result) {
  return result?.method ? String(result.method) : 'your plan';
}

const LINK_SOURCES = {
  links: 'GPU link', intra_node: 'within the node', site_links: 'site link', intra_site: 'intra-site default',
  inter_site: 'inter-site default',
  default: 'network default',
};

/** A link's figures in words: "10 Gbps, 8 ms latency (site link)". */
export function linkText(link) {
  const util = Number.isFinite(link.util) && link.util !== 1 ? ` at ${formatNumber(link.util * 100)}% utilisation` : '';
  const source = link.source ? ` (${LINK_SOURCES[link.source] ?? String(link.source)})` : '';
  return `${formatGbps(link.bandwidth_gbps)}, ${formatMs(link.latency_ms)} latency${util}${source}`;
}
