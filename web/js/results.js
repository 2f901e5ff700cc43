// The last plan: its headline figures, the plan views, and the comparison with the baselines.
import { h } from './dom.js';
import { helpLink } from './help-link.js';
import { countOf, formatEnergy, formatMs, formatNumber } from './format.js';
import { formatCarbonG, formatMoney } from './views/format.js';
import { gapText } from './gap-text.js';
import { pageWords } from './page-words.js';
import { problemTextKey } from './problem-key.js';
import { drawView } from './views.js';
import { degreesText, isGroup, stageName } from './views/groups.js';
import { isReplicaResult, replicaSummaryText } from './views/replica-plan.js';
import { microBatchText, perIterationText, referencePlanText, referencesList, runLengthText, runTotalsText, weightsText } from './run-totals.js';

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
  return parts.join(' · ');
}

// The method, and next to it whether an exact run proved its plan optimal, or how far above the
// optimum its plan can be at most (gap-text.js: "at most 3.19× the optimum", never "within 68.7 %").
export function methodText(result) {
  const method = String(result.method ?? 'your plan');
  if (result.optimal === true) return `${method} (proven optimal)`;
  const gap = Number.isFinite(result.gap) && result.feasible !== false ? gapText(result.objective, result.gap) : '';
  if (result.optimal === false) {
    const why = { time_limit: 'stopped at the time limit', node_limit: 'stopped at the node limit', cancelled: 'cancelled' }[result.stop_reason];
    return `${method}: not proven optimal (${[why, gap && `its objective is ${gap}`].filter(Boolean).join('; ')})`;
  }
  // Every other method's plan carries a certificate too (docs/planners.md, "The certificate").
  if (gap) return `${method} (proven: its objective is ${gap})`;
  return method;
}

// Why one plan can show two gaps: under hybrid the bound covers every plan with stage groups (and
// every micro-batch size with "auto"), a larger space than one GPU per stage, so it is lower.
export function gapScopeText(result) {
  if (!Number.isFinite(result?.gap) || result.optimal === true || result.feasible === false) return '';
  // A replica plan's bound is the pool's (docs/replicas.md, Certificate): it holds for any number of replicas.
  if (Array.isArray(result.replicas)) {
    return 'The bound holds for every plan of this pool, one pipeline or several replicas (any number, any share of the micro-batches): the widest space, so the same plan shows a larger gap than under one pipeline.';
  }
  const hybrid = result.parallelism === 'hybrid';
  const auto = result.micro_batch_size_mode === 'auto';
  if (!hybrid && !auto) return 'The bound holds for every plan with one GPU per stage at this micro-batch size.';
  const space = [hybrid && 'with stage groups (tensor and data parallel)', auto && 'at any micro-batch size'].filter(Boolean).join(' and ');
  return `The bound holds for every plan ${space}: a larger space than one GPU per stage at one micro-batch size, so the bound is lower and the same plan shows a larger gap than under pipeline.`;
}

// T_ref and E_ref, where they come from (the problem, or the reference plan: never just
// "metis-improved", which the comparison's row of that name may not be), and why an objective may
// exceed 1: the reference plan does not fit.
export function referencesText(result, problem) {
  const from = {
    problem: 'given in the problem',
    'metis-improved': `from the reference plan: ${referencePlanText(problem)}`,
    'problem+metis-improved': `given in the problem, the rest from the reference plan: ${referencePlanText(problem)}`,
  }[result.references] ?? (result.references ? String(result.references) : '');
  const text = `${referencesList(result)}${from ? `, ${from}` : ''}`;
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

// currentKey(): the current problem's problemKey(), to tell at once whether a plan shown now (a
// study's, made earlier) still belongs to it. onClear(): the plan was dropped (another problem
// was opened), for the parts of the page that show it too.
// The plan's GPUs that have no rental price while money is counted: they cost $0/h in its totals,
// which a user who filled some prices would not expect. Named next to the totals.
export function unpricedGpus(problem, result) {
  const gpus = Array.isArray(problem?.gpus) ? problem.gpus : [];
  const priced = (g) => Number(g?.price_per_hour) > 0;
  const moneyWeighted = Number(result?.weights?.cost) > 0;
  if (!gpus.some(priced) && !moneyWeighted) return [];
  // A plan of replicas lists its stages per replica.
  const stages = [...(result?.stages || []), ...(result?.replicas || []).flatMap((r) => r?.stages || [])];
  const used = new Set(stages.flatMap((s) => (Array.isArray(s.gpus) ? s.gpus : [s.gpu])));
  return gpus.filter((g) => used.has(g.id) && !priced(g)).map((g) => g.id);
}

function showUnpriced(element, problem, result) {
  const ids = unpricedGpus(problem, result);
  element.hidden = ids.length === 0;
  if (!ids.length) return;
  const named = ids.length > 6 ? `${ids.slice(0, 5).join(', ')} and ${ids.length - 5} more` : ids.join(', ');
  element.textContent = `No rental price for ${named}: ${ids.length === 1 ? 'it is' : 'they are'} counted as $0/h in the cost. Give ${ids.length === 1 ? 'its price' : 'their prices'} in the GPU table (Price $/h).`;
}

// simulate(problemText, plan, request): a promise of the plan's simulated schedule (the module's
// `simulate`), which the 1F1B timeline draws; without it the timeline says it cannot.
export function createResults({ simulate, currentKey = () => null, onClear = () => {}, onStale = () => {} } = {}) {
  const summary = h('dl', { class: 'result-summary', id: 'result-summary' });
  const stale = h('p', { class: 'stale-note', id: 'result-stale', role: 'status', hidden: true, text: 'This plan is for the problem as it was: the problem has changed since. Plan again to update it.' });
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
  const unpriced = h('p', { class: 'unpriced-note', id: 'result-unpriced', hidden: true });
  const element = h('section', { class: 'results', id: 'results', 'aria-labelledby': 'results-title', hidden: true },
    helpLink('results'), h('h2', { id: 'results-title', text: 'Plan', tabindex: '-1' }), stale, origin, totals, unpriced, summary, warnings, h('div', { class: 'views' }, viewSections));
  let last = null;
  const markStale = (isStale) => {
    stale.hidden = !isStale;
    element.classList.toggle('is-stale', isStale);
    onStale(isStale);
  };

  return {
    element,
    last: () => last,
    // problem: the validated problem; problemText: the JSON the run started from. A plan from a
    // study says where it comes from (context) and is stale against the problem the study started
    // from (baseText), not its own rescaled one.
    async show({ problem, problemText, result, context, baseText, back }) {
      last = { problem, problemText, result, baseKey: problemTextKey(baseText ?? problemText) };
      element.hidden = false;
      const now = currentKey();
      markStale(now !== null && now !== last.baseKey);
      origin.replaceChildren();
      if (context) {
        origin.append(`From a study: ${context}. `);
        if (back) origin.append(h('button', { type: 'button', class: 'small', id: 'result-back-to-study', text: 'Back to the study', onclick: back }));
      }
      origin.hidden = !context;
      const used = result.gpus_used ?? (result.stages || []).length;
      showTotals(totals, result);
      showUnpriced(unpriced, problem, result);
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
        ...optional([['Proven for', gapScopeText(result), 'result-gap-scope']]),
        ...figure('Search', searchText(result), { id: 'result-search' }),
        ...extra,
        ...figure('References', referencesText(result, problem), { id: 'result-references' }));
      warnings.replaceChildren(...(result.warnings || []).map((w) => h('li', { text: pageWords(w) })));
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
    // Called on every problem change: says so when the plan no longer matches the problem; a
    // problem opened in its place (an example, a link, a file: source 'load') drops the plan.
    noteProblem(key, source) {
      if (!last) return;
      if (key === last.baseKey) markStale(false);
      else if (source === 'load') this.clear();
      else markStale(true);
    },
    clear() {
      last = null;
      element.hidden = true;
      markStale(false);
      for (const box of Object.values(boxes)) box.replaceChildren();
      onClear();
    },
    // For a study's "See the plan": the plan's heading in view and focused.
    reveal() {
      element.scrollIntoView({ block: 'start' });
      element.querySelector('#results-title').focus({ preventScroll: true });
      // A short glow says "this is what changed" (a static outline with reduced motion).
      element.classList.remove('just-shown');
      void element.offsetWidth;
      element.classList.add('just-shown');
      setTimeout(() => element.classList.remove('just-shown'), 1600);
    },
  };
}
