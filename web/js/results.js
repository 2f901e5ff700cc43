// The last plan: its headline figures, the plan views, and the comparison with the baselines.
import { h } from './dom.js';
import { helpLink } from './help-link.js';
import { countOf, formatEnergy, formatMs, formatNumber } from './format.js';
import { formatCarbonG, formatMoney } from './views/format.js';
import { drawView } from './views.js';
import { degreesText, isGroup, stageName } from './views/groups.js';
import { isReplicaResult, replicaSummaryText } from './views/replica-plan.js';
import { microBatchText, perIterationText, referencesList, runLengthText, runTotalsText, weightsText } from './run-totals.js';

const VIEW_BOXES = [
  ['pipeline', 'Pipeline', 'Which GPU runs which layers, in pipeline order; block widths follow the number of layers.'],
  ['stages', 'Stages', 'Per-stage compute, sends, memory and energy; the bottleneck sets the pace.'],
  ['timeline', '1F1B timeline', 'The schedule simulated event by event: each micro-batch\'s forward and backward on each stage, and the transfers between stages.'],
  ['topology', 'Topology', 'Sites, GPUs and the links the plan uses.'],
  ['sites', 'Per site', 'Energy, carbon and money by site: the sites\' grid carbon, PUE and electricity price, and the GPUs\' rental.'],
  ['comparison', 'Comparison', 'The plan against the uniform and METIS-style baselines on the same problem.'],
];

function figure(label, value, { id, raw } = {}) {
  const dd = h('dd', { id, text: value });
  if (raw !== undefined) dd.dataset.value = String(raw);
  return [h('dt', { text: label }), dd];
}

// A group shows as its node (or first GPU) and degrees: "us-west-n1 [TP 8 × DP 1] (11)".
function stageChain(problem, result) {
  if (isReplicaResult(result)) return replicaSummaryText(result);
  return (result.stages || []).map((s) => (isGroup(s) ? `${stageName(problem, s)} [${degreesText(s)}] (${s.layers})`
    : `${s.gpu} (${s.layers})`)).join(' → ');
}

function searchText(result) {
  const parts = [countOf(result.evaluations, 'evaluation'), `${formatMs(result.elapsed_ms)}`];
  if (result.generations !== undefined) parts.push(countOf(result.generations, 'generation'));
  if (Number.isFinite(result.nodes)) parts.push(countOf(result.nodes, 'node'));
  if (result.stop_reason) parts.push(`stopped: ${result.stop_reason}`);
  if (result.optimal !== undefined) parts.push(result.optimal ? 'proven optimal' : 'not proven optimal');
  if (result.gap !== undefined && result.gap !== null) parts.push(`gap ${formatNumber(result.gap * 100, 3)} %`);
  return parts.join(' · ');
}

// The method, and next to it whether an exact run proved its plan optimal,
// or how far from optimal any other plan can be at most.
export function methodText(result) {
  const method = String(result.method ?? 'your plan');
  if (result.optimal === true) return `${method} (proven optimal)`;
  if (result.optimal === false) {
    const why = { time_limit: 'stopped at the time limit', node_limit: 'stopped at the node limit', cancelled: 'cancelled' }[result.stop_reason];
    const gap = Number.isFinite(result.gap) ? `gap ${formatNumber(result.gap * 100, 3)} %` : '';
    return `${method}: not proven optimal (${[why, gap].filter(Boolean).join(', ')})`;
  }
  // Every other method's plan carries a certificate too (docs/planners.md, "The certificate").
  if (Number.isFinite(result.gap)) return `${method} (within ${formatNumber(result.gap * 100, 3)} % of optimal (proven))`;
  return method;
}

// T_ref and E_ref, and why an objective may exceed 1: the baseline they came from does not fit.
export function referencesText(result) {
  const text = `${referencesList(result)}${result.references ? ` (${result.references})` : ''}`;
  if (result.references_from_infeasible_plan) {
    return `${text}. These come from the metis-improved baseline, whose plan does not fit in memory: an infeasible plan can be faster than any that fits, so a good plan's objective may be above 1. Give T_ref and E_ref in the Objective tab to compare against figures of your own.`;
  }
  return text;
}

// "Run: 12.4 days, 41 MWh, 9.8 t CO2e, $118k over 100,000 iterations", or the per-iteration line.
function showTotals(element, result) {
  const run = runTotalsText(result);
  const perIteration = perIterationText(result);
  element.replaceChildren();
  element.hidden = !run && !perIteration;
  if (run) element.append(h('strong', { class: 'run-totals-figures', text: run }), ` ${runLengthText(result)}`);
  else if (perIteration) element.append(h('span', { class: 'run-totals-figures', text: perIteration }));
}

// simulate(problemText, plan, request): a promise of the plan's simulated schedule (the module's
// `simulate`), which the 1F1B timeline draws; without it the timeline says it cannot.
export function createResults({ simulate } = {}) {
  const summary = h('dl', { class: 'result-summary', id: 'result-summary' });
  const stale = h('p', { class: 'stale-note', hidden: true, text: 'The problem has changed since this plan was made: plan again to update it.' });
  const warnings = h('ul', { class: 'result-warnings' });
  const origin = h('p', { class: 'result-origin', id: 'result-origin', hidden: true });
  // The run's totals (or carbon and money per iteration) above the plan.
  const totals = h('p', { class: 'run-totals', id: 'result-run', hidden: true });
  const boxes = {};
  const boxSections = {};
  const viewSections = VIEW_BOXES.map(([name, title, blurb]) => {
    boxes[name] = h('div', { class: 'view-body', id: `view-${name}` });
    return boxSections[name] = h('section', { class: `view view-${name}`, 'aria-labelledby': `view-${name}-title` },
      helpLink(`view-${name}`), h('h3', { id: `view-${name}-title`, text: title }), h('p', { class: 'intro', text: blurb }), boxes[name]);
  });
  const element = h('section', { class: 'results', id: 'results', 'aria-labelledby': 'results-title', hidden: true },
    helpLink('results'), h('h2', { id: 'results-title', text: 'Plan' }), origin, stale, totals, summary, warnings, h('div', { class: 'views' }, viewSections));
  let last = null;

  return {
    element,
    last: () => last,
    // problem: the validated problem; problemText: the JSON the run started from. A plan from a
    // study says where it comes from (context) and is stale against the problem the study started
    // from (baseText), not its own rescaled one.
    async show({ problem, problemText, result, context, baseText }) {
      last = { problem, problemText, result, baseText: baseText ?? problemText };
      element.hidden = false;
      stale.hidden = true;
      origin.textContent = context ? `From a study: ${context}` : '';
      origin.hidden = !context;
      const used = result.gpus_used ?? (result.stages || []).length;
      showTotals(totals, result);
      // Carbon and money per iteration next to time and energy when the run totals stand above.
      const perIteration = (value, format) => (result.run && Number.isFinite(value) && value > 0 ? format(value) : '');
      const optional = (rows) => rows.filter(([, text]) => text).flatMap(([label, text, id]) => figure(label, text, { id }));
      const practical = optional([
        ['Carbon per iteration', perIteration(result.carbon_g, formatCarbonG), 'result-carbon-g'],
        ['Cost per iteration', perIteration(result.cost, formatMoney), 'result-cost'],
      ]);
      const extra = optional([
        ['Micro-batch', microBatchText(result), 'result-micro-batch'],
        ['Weights', weightsText(result), 'result-weights'],
      ]);
      summary.replaceChildren(
        ...figure('Iteration time', formatMs(result.iteration_ms), { id: 'result-iteration-ms', raw: result.iteration_ms }),
        ...figure('Energy per iteration', formatEnergy(result.energy_j), { id: 'result-energy-j', raw: result.energy_j }),
        ...practical,
        ...figure('Objective', formatNumber(result.objective, 5), { id: 'result-objective', raw: result.objective }),
        ...figure('Memory', result.feasible ? 'every stage fits' : 'some stage does not fit', { id: 'result-feasible', raw: result.feasible }),
        ...figure('GPUs used', `${used} of ${Array.isArray(problem.gpus) ? problem.gpus.length : '?'}`),
        ...figure(isReplicaResult(result) ? 'Replicas' : 'Stages (layers)', stageChain(problem, result), { id: 'result-stages' }),
        ...figure('Method', methodText(result), { id: 'result-method' }),
        ...figure('Search', searchText(result), { id: 'result-search' }),
        ...extra,
        ...figure('References', referencesText(result), { id: 'result-references' }));
      warnings.replaceChildren(...(result.warnings || []).map((w) => h('li', { text: w })));
      boxes.comparison.replaceChildren(h('p', { class: 'hint', text: 'Planning the baselines…' }));
      // The per-site view only for results that have per-site figures (none before issue 11).
      const perSite = Array.isArray(result.sites) && result.sites.length > 0;
      boxSections.sites.hidden = !perSite;
      if (!perSite) boxes.sites.replaceChildren();
      const drawn = ['pipeline', 'stages', 'timeline', 'topology', ...(perSite ? ['sites'] : [])];
      // A plan of replicas draws each view per replica (web/js/views/replica-*.js).
      const viewName = (name) => (isReplicaResult(result) && name !== 'sites' ? `replica-${name}` : name);
      const options = { timeline: simulate ? { simulate: (request) => simulate(problemText, result, request) } : {} };
      await Promise.all(drawn.map((name) => drawView(viewName(name), boxes[name], problem, result, options[name])));
    },
    async showComparison(chosen, baselines, failures = []) {
      if (!last || last.result !== chosen) return;
      await drawView('comparison', boxes.comparison, last.problem, { chosen, baselines });
      if (failures.length) boxes.comparison.append(h('ul', { class: 'result-warnings' }, failures.map((f) => h('li', { text: f }))));
    },
    // Called on every problem change: says so when the plan no longer matches the problem.
    noteProblem(problemText) {
      if (last) stale.hidden = problemText === last.baseText;
    },
  };
}
