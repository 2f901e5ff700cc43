// The run panel: method, Plan / Cancel, live progress (generation, evaluations, best objective,
// convergence chart) and elapsed time; for exact, its budget before the run and its nodes, bound
// and gap during it. The search runs in its own worker so that the editor's checks never wait
// behind it; cancelling asks the worker for its best plan so far and, when the worker cannot stop
// early (exact runs in one go), terminates it and keeps the best plan it last reported.
import { h } from './dom.js';
import { helpLink } from './help-link.js';
import { countOf, formatCount, formatElapsed, formatMs, formatNumber } from './format.js';
import { messageTotal } from './limits.js';
import { drawView, loadView } from './views.js';
import { budgetText, stopText } from './run-states.js';
import { gapFactorText } from './gap-text.js';
import { pageWords } from './page-words.js';

export const METHODS = [
  ['memetic', 'Memetic search (GeoTrain)', 'The paper\'s planner: a genetic search with local improvement. Uses the Search settings.'],
  ['exact', 'Exact (branch and bound)', 'Proves the optimum; fine for small pools, slow for large ones.'],
  ['brute-force', 'Brute force', 'Tries every plan: only for a handful of GPUs.'],
  ['metis', 'METIS-style', 'Baseline: all GPUs, layers in proportion to compute.'],
  ['metis-improved', 'METIS-style, improved', 'Baseline: the best METIS-style plan over GPU subsets and orders.'],
  ['uniform', 'Uniform', 'Baseline: all GPUs, equal layers.'],
];
export const BASELINES = ['uniform', 'metis', 'metis-improved'];
const CANCEL_GRACE_MS = 1500;
const EXACT_CANCEL_GRACE_MS = 300;

// evaluate(problemText, plan) -> the planner's report of a plan (used to keep exact's best plan
// when a cancel has to stop its worker); getEffective() -> the last validated problem (for budgets).
// A stage as a plan file holds it: a GPU, or a stage group (its GPUs and tensor degree).
const planStage = ({ gpu, gpus, tensor_parallel: tensor, layers }) => (Array.isArray(gpus) && gpus.length > 1
  ? { gpus, tensor_parallel: tensor ?? 1, layers } : { gpu: gpu ?? gpus?.[0], layers });

export function createRunPanel({ runner, checkProblem, getProblem, onResult, onBaselines, evaluate, getEffective = () => null }) {
  const methodSelect = h('select', { id: 'method' }, METHODS.map(([value, label]) => h('option', { value, text: label })));
  const methodHint = h('small', { class: 'hint', id: 'method-hint' });
  const budget = h('small', { class: 'hint run-budget', id: 'run-budget' });
  methodSelect.setAttribute('aria-describedby', 'method-hint run-budget');
  const planButton = h('button', { type: 'button', id: 'plan-button', class: 'primary', text: 'Plan' });
  const cancelButton = h('button', { type: 'button', id: 'cancel-button', text: 'Cancel', disabled: true });
  const status = h('p', { id: 'run-status', class: 'run-status', role: 'status', text: 'Ready.' });
  const figures = {};
  const figureTerms = {};
  const figureList = h('dl', { class: 'run-figures' },
    [['elapsed', 'Elapsed'], ['generation', 'Generation'], ['nodes', 'Nodes'], ['evaluations', 'Evaluations'],
      ['objective', 'Best objective'], ['bound', 'Optimum at least'], ['gap', 'Best plan is'], ['iteration', 'Best iteration time']]
      .map(([key, label]) => {
        figures[key] = h('dd', { id: `run-${key}`, text: '–' });
        figureTerms[key] = h('dt', { text: label });
        return [figureTerms[key], figures[key]];
      }));
  // Generation is the memetic's; nodes, bound and gap are exact's.
  const showFigures = (method) => {
    const only = { generation: method === 'memetic', nodes: method === 'exact', bound: method === 'exact', gap: method === 'exact' };
    for (const [key, shown] of Object.entries(only)) {
      figureTerms[key].hidden = !shown;
      figures[key].hidden = !shown;
    }
    chart.hidden = method !== 'memetic';  // only the memetic has generations to chart
  };
  const chart = h('div', { class: 'convergence', id: 'convergence', 'aria-label': 'Convergence of the best objective' });
  // On a narrow screen the panel comes after the editor: a docked bar keeps Plan in reach.
  const dockPlan = h('button', { type: 'button', id: 'dock-plan-button', class: 'primary', text: 'Plan' });
  const dockStatus = h('a', { href: '#run-area', class: 'dock-status', id: 'dock-status', text: 'Ready.' });
  const dock = h('div', { class: 'run-dock', id: 'run-dock' }, dockPlan, dockStatus);
  const element = h('section', { class: 'run-panel', 'aria-labelledby': 'run-title' },
    helpLink('run'), h('h2', { id: 'run-title', text: 'Plan it' }),
    h('div', { class: 'field' }, h('label', { for: 'method', text: 'Method' }), methodSelect, methodHint, budget),
    h('div', { class: 'buttons' }, planButton, cancelButton),
    status, figureList, chart, dock);

  const refreshBudget = () => { budget.textContent = budgetText(methodSelect.value, getEffective()); };
  const showHint = () => {
    methodHint.textContent = METHODS.find(([v]) => v === methodSelect.value)?.[2] || '';
    methodSelect.title = methodSelect.selectedOptions[0]?.textContent ?? '';
    refreshBudget();
    if (!current) showFigures(methodSelect.value);
  };
  methodSelect.addEventListener('change', showHint);

  let current = null;  // {controller, started, timer, points, cancelTimer}
  let checking = false;
  let runCounter = 0;
  // Plan is marked unavailable (aria-disabled) rather than disabled while a run is on: a disabled
  // button drops the keyboard focus to the page's body after Enter; this one keeps it.
  const setPlanEnabled = (on) => {
    for (const button of [planButton, dockPlan]) {
      if (on) button.removeAttribute('aria-disabled');
      else button.setAttribute('aria-disabled', 'true');
    }
  };
  // Cancel is disabled once used or when the run ends: the focus it had goes back to Plan.
  const disableCancel = () => {
    const focused = document.activeElement === cancelButton;
    cancelButton.disabled = true;
    if (focused) planButton.focus();
  };

  const setStatus = (text, kind = '') => {
    status.textContent = text;
    status.className = `run-status ${kind}`;
    dockStatus.textContent = text;
    dockStatus.className = `dock-status ${kind}`;
  };
  showHint();

  function resetFigures() {
    for (const key of Object.keys(figures)) figures[key].textContent = '–';
    chart.replaceChildren();
  }

  let chartQueued = false;
  function showBoundAndGap(objective, bound) {
    if (!Number.isFinite(bound)) return;
    figures.bound.textContent = formatNumber(bound, 5);
    if (Number.isFinite(objective) && objective > 0) figures.gap.textContent = gapFactorText(Math.max(0, (objective - bound) / objective));
  }

  function onProgress(progress) {
    if (!current) return;
    figures.generation.textContent = formatCount(progress.generation ?? 0);
    figures.evaluations.textContent = formatCount(progress.evaluations ?? 0);
    if (Number.isFinite(progress.nodes)) figures.nodes.textContent = formatCount(progress.nodes);
    if (Array.isArray(progress.stages)) current.lastProgress = progress;
    if (Number.isFinite(progress.objective)) {
      figures.objective.textContent = formatNumber(progress.objective, 5);
      figures.iteration.textContent = formatMs(progress.iteration_ms);
      showBoundAndGap(progress.objective, progress.lower_bound);
    }
    if (Number.isFinite(progress.objective) && current.method === 'memetic') {
      current.points.push({
        generation: progress.generation, evaluations: progress.evaluations,
        elapsed_ms: progress.elapsed_ms, objective: progress.objective,
      });
    }
    if (!chartQueued) {
      chartQueued = true;
      requestAnimationFrame(() => {
        chartQueued = false;
        if (current) drawView('convergence', chart, current.points.slice());
      });
    }
  }

  function finish() {
    clearInterval(current.timer);
    clearTimeout(current.cancelTimer);
    figures.elapsed.textContent = formatElapsed(performance.now() - current.started);
    current = null;
    setPlanEnabled(true);
    disableCancel();
    element.classList.remove('running');
  }

  // The worker had to be stopped (exact runs in one go): the best plan it last reported, costed
  // again by the planner, stands for the run, marked as cancelled and not proven optimal.
  async function keptPlan(method, problemText, progress) {
    if (!progress || !Array.isArray(progress.stages) || !evaluate) return null;
    const report = await evaluate(problemText, { stages: progress.stages.map(planStage) });
    const stages = Array.isArray(report.stages) ? report.stages : [];
    const bound = progress.lower_bound;
    const result = {
      ...report, method, stages: stages.map(planStage), stage_metrics: stages,
      evaluations: progress.evaluations, elapsed_ms: progress.elapsed_ms, stop_reason: 'cancelled', optimal: false,
    };
    if (Number.isFinite(progress.nodes)) result.nodes = progress.nodes;
    if (Number.isFinite(bound) && report.objective > 0) result.gap = Math.max(0, (report.objective - bound) / report.objective);
    return result;
  }

  async function showResult(runId, checked, problemText, result, cancelled) {
    const stop = stopText(result, { cancelled });
    setStatus(stop.text, stop.kind);
    status.append(h('a', { href: '#results', text: 'See the plan' }));
    figures.evaluations.textContent = formatCount(result.evaluations);
    figures.objective.textContent = formatNumber(result.objective, 5);
    figures.iteration.textContent = formatMs(result.iteration_ms);
    if (Number.isFinite(result.nodes)) figures.nodes.textContent = formatCount(result.nodes);
    if (result.optimal === true) {
      figures.bound.textContent = formatNumber(result.objective, 5);
      figures.gap.textContent = 'proven optimal';
    } else if (Number.isFinite(result.gap)) {
      figures.gap.textContent = gapFactorText(result.gap);
      figures.bound.textContent = formatNumber(result.objective * (1 - result.gap), 5);
    }
    if (result.generations !== undefined) figures.generation.textContent = formatCount(result.generations);
    await onResult({ problem: checked.problem, problemText, result });
    runBaselines(runId, problemText, result);
  }

  async function runBaselines(runId, problemText, chosen) {
    const baselines = [];
    const failures = [];
    for (const method of BASELINES) {
      if (runId !== runCounter) return;
      if (chosen.method === method) {
        baselines.push(chosen);
        continue;
      }
      try {
        baselines.push(await runner.call('solve', { problem: problemText, options: { method } }));
      } catch (error) {
        failures.push(`${method}: ${pageWords(error.message)}`);
      }
    }
    if (runId === runCounter) onBaselines(chosen, baselines, failures);
  }

  async function plan() {
    if (current || checking) return;
    const method = methodSelect.value;
    setPlanEnabled(false);
    setStatus('Checking the problem…');
    checking = true;
    const checked = await checkProblem().finally(() => { checking = false; });
    if (!checked.ok) {
      setPlanEnabled(true);
      setStatus(checked.unavailable || checked.jsonInvalid
        ? (checked.jsonInvalid ? checked.errors[0] : `The planner is not available: ${checked.errors.join(' ')}`)
        : `Fix the problem first: ${countOf(messageTotal(checked.errors), 'error')} (see the editor).`, 'bad');
      return;
    }
    const problemText = JSON.stringify(getProblem());
    const runId = ++runCounter;
    let features = {};
    try {
      features = await runner.ready();
    } catch {
      // the solve call below reports the failure
    }
    current = { controller: new AbortController(), started: performance.now(), points: [], method, graceful: Boolean(features.planner) && (method === 'memetic' || method === 'exact'), lastProgress: null };
    resetFigures();
    showFigures(method);
    element.classList.add('running');
    cancelButton.disabled = false;
    current.timer = setInterval(() => { figures.elapsed.textContent = formatElapsed(performance.now() - current.started); }, 100);
    setStatus(features.planner || method !== 'memetic' ? `Planning with ${method}… ${budgetText(method, checked.problem)}` : `Planning with ${method} (this build reports no live progress)…`);
    loadView('convergence').catch(() => {});
    try {
      const result = await runner.call('solve', { problem: problemText, options: { method } }, { onProgress, signal: current.controller.signal });
      const cancelled = current.controller.signal.aborted;
      const points = current.points;
      finish();
      // The chart ends where the run ended, so that its caption agrees with the figures above it.
      if (result.method === 'memetic' && Number.isFinite(result.objective) && points.length) {
        points.push({ generation: result.generations, evaluations: result.evaluations, elapsed_ms: result.elapsed_ms, objective: result.objective });
        drawView('convergence', chart, points.slice());
      }
      await showResult(runId, checked, problemText, result, cancelled);
    } catch (error) {
      const wasRunning = Boolean(current);
      const progress = current?.lastProgress;
      if (wasRunning) finish();
      if (error.aborted) {
        let kept = null;
        try {
          kept = await keptPlan(method, problemText, progress);
        } catch {
          kept = null;
        }
        if (kept) await showResult(runId, checked, problemText, kept, true);
        else setStatus('Cancelled before the first plan: no plan was kept.', '');
      } else {
        setStatus(`The run failed: ${pageWords(error.message)}`, 'bad');
      }
    }
  }

  function cancel() {
    if (!current || current.controller.signal.aborted) return;
    setStatus('Cancelling…');
    disableCancel();
    current.controller.abort();
    // Without a stepping planner the worker is busy until the search ends: terminate it.
    // Exact cannot read the cancel until it ends: a short wait, then its last reported plan is kept.
    const grace = current.graceful ? (current.method === 'exact' ? EXACT_CANCEL_GRACE_MS : CANCEL_GRACE_MS) : 0;
    current.cancelTimer = setTimeout(() => runner.restart('Cancelled'), grace);
  }

  planButton.addEventListener('click', plan);
  dockPlan.addEventListener('click', plan);
  cancelButton.addEventListener('click', cancel);
  // The plan was dropped (another problem was opened): the panel no longer reports on it.
  function clear() {
    if (current) return;
    resetFigures();
    setStatus('Ready.');
  }

  return { element, plan, cancel, clear, refreshBudget, isRunning: () => Boolean(current) };
}
