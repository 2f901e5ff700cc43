// The run panel: method, Plan / Cancel, live progress (generation, evaluations, best objective,
// convergence chart) and elapsed time. The search runs in its own worker so that the editor's
// checks never wait behind it; cancelling asks the worker for its best plan so far and, when the
// module cannot stop early, terminates the worker.
import { h } from './dom.js';
import { formatElapsed, formatMs, formatNumber } from './format.js';
import { drawView, loadView } from './views.js';

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

export function createRunPanel({ runner, checkProblem, getProblem, onResult, onBaselines }) {
  const methodSelect = h('select', { id: 'method' }, METHODS.map(([value, label]) => h('option', { value, text: label })));
  const methodHint = h('small', { class: 'hint', id: 'method-hint' });
  methodSelect.setAttribute('aria-describedby', 'method-hint');
  const planButton = h('button', { type: 'button', id: 'plan-button', class: 'primary', text: 'Plan' });
  const cancelButton = h('button', { type: 'button', id: 'cancel-button', text: 'Cancel', disabled: true });
  const status = h('p', { id: 'run-status', class: 'run-status', role: 'status', text: 'Ready.' });
  const figures = {};
  const figureList = h('dl', { class: 'run-figures' },
    [['elapsed', 'Elapsed'], ['generation', 'Generation'], ['evaluations', 'Evaluations'], ['objective', 'Best objective'], ['iteration', 'Best iteration time']]
      .map(([key, label]) => {
        figures[key] = h('dd', { id: `run-${key}`, text: '–' });
        return [h('dt', { text: label }), figures[key]];
      }));
  const chart = h('div', { class: 'convergence', id: 'convergence', 'aria-label': 'Convergence of the best objective' });
  const element = h('section', { class: 'run-panel', 'aria-labelledby': 'run-title' },
    h('h2', { id: 'run-title', text: 'Plan it' }),
    h('div', { class: 'field' }, h('label', { for: 'method', text: 'Method' }), methodSelect, methodHint),
    h('div', { class: 'buttons' }, planButton, cancelButton),
    status, figureList, chart);

  const showHint = () => { methodHint.textContent = METHODS.find(([v]) => v === methodSelect.value)?.[2] || ''; };
  methodSelect.addEventListener('change', showHint);
  showHint();

  let current = null;  // {controller, started, timer, points, cancelTimer}
  let runCounter = 0;

  const setStatus = (text, kind = '') => {
    status.textContent = text;
    status.className = `run-status ${kind}`;
  };

  function resetFigures() {
    for (const key of Object.keys(figures)) figures[key].textContent = '–';
    chart.replaceChildren();
  }

  let chartQueued = false;
  function onProgress(progress) {
    if (!current) return;
    figures.generation.textContent = formatNumber(progress.generation ?? 0);
    figures.evaluations.textContent = formatNumber(progress.evaluations ?? 0);
    if (Number.isFinite(progress.objective)) {
      figures.objective.textContent = formatNumber(progress.objective, 5);
      figures.iteration.textContent = formatMs(progress.iteration_ms);
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
    planButton.disabled = false;
    cancelButton.disabled = true;
    element.classList.remove('running');
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
        failures.push(`${method}: ${error.message}`);
      }
    }
    if (runId === runCounter) onBaselines(chosen, baselines, failures);
  }

  async function plan() {
    if (current) return;
    const method = methodSelect.value;
    planButton.disabled = true;
    setStatus('Checking the problem…');
    const checked = await checkProblem();
    if (!checked.ok) {
      planButton.disabled = false;
      setStatus(checked.unavailable || checked.jsonInvalid
        ? (checked.jsonInvalid ? checked.errors[0] : `The planner is not available: ${checked.errors.join(' ')}`)
        : `Fix the problem first: ${checked.errors.length} error${checked.errors.length === 1 ? '' : 's'} (see the editor).`, 'bad');
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
    current = { controller: new AbortController(), started: performance.now(), points: [], graceful: Boolean(features.planner) };
    resetFigures();
    element.classList.add('running');
    cancelButton.disabled = false;
    current.timer = setInterval(() => { figures.elapsed.textContent = formatElapsed(performance.now() - current.started); }, 100);
    setStatus(features.planner || method !== 'memetic' ? `Planning with ${method}…` : `Planning with ${method} (this build reports no live progress)…`);
    loadView('convergence').catch(() => {});
    try {
      const result = await runner.call('solve', { problem: problemText, options: { method } }, { onProgress, signal: current.controller.signal });
      const cancelled = current.controller.signal.aborted;
      finish();
      setStatus(cancelled ? 'Cancelled: showing the best plan found so far.' : `Done: ${result.method} found a plan.`, 'good');
      status.append(h('a', { href: '#results', text: 'See the plan' }));
      figures.evaluations.textContent = formatNumber(result.evaluations);
      figures.objective.textContent = formatNumber(result.objective, 5);
      figures.iteration.textContent = formatMs(result.iteration_ms);
      if (result.generations !== undefined) figures.generation.textContent = formatNumber(result.generations);
      await onResult({ problem: checked.problem, problemText, result });
      runBaselines(runId, problemText, result);
    } catch (error) {
      const wasRunning = Boolean(current);
      if (wasRunning) finish();
      if (error.aborted) {
        setStatus('Cancelled: no plan was kept.', '');
      } else {
        setStatus(`The run failed: ${error.message}`, 'bad');
      }
    }
  }

  function cancel() {
    if (!current || current.controller.signal.aborted) return;
    setStatus('Cancelling…');
    cancelButton.disabled = true;
    current.controller.abort();
    // Without a stepping planner the worker is busy until the search ends: terminate it.
    const grace = current.graceful ? CANCEL_GRACE_MS : 0;
    current.cancelTimer = setTimeout(() => runner.restart('Cancelled'), grace);
  }

  planButton.addEventListener('click', plan);
  cancelButton.addEventListener('click', cancel);
  return { element, plan, cancel, isRunning: () => Boolean(current) };
}
