// The Studies panel (studies.md points 1-4, 6): choose a study and its options, Run. The module
// lists the study's solve jobs (study-jobs, on the page's tools worker), a pool of workers solves
// them in parallel with progress, then the module summarises the results (study-summary) and the
// study's view draws them. Cancel terminates the pool and summarises what finished. Choosing a point
// shows that job's full plan in the page's plan views.
import { h } from '../dom.js';
import { helpLink } from '../help-link.js';
import { formatElapsed } from '../format.js';
import { pageWords } from '../page-words.js';
import { problemKey, problemTextKey } from '../problem-key.js';
import { createStudyForm } from './form.js';
import { OptionError, studyByKind, studyLabel, studyOptions } from './options.js';
import { WorkerPool } from './pool.js';
import { markSelected, renderStudy } from './render.js';

const isPlan = (result) => result && typeof result === 'object' && !result.error;

export function createStudiesPanel({ tools, checkProblem, getProblem, showPlan, poolUrl = 'worker.js' }) {
  const form = createStudyForm();
  const runButton = h('button', { type: 'button', id: 'study-run', class: 'primary', text: 'Run study' });
  const cancelButton = h('button', { type: 'button', id: 'study-cancel', text: 'Cancel', disabled: true });
  const progress = h('progress', { id: 'study-progress', max: '1', value: '0', 'aria-label': 'Jobs finished' });
  const progressText = h('span', { id: 'study-progress-text', class: 'study-progress-text', text: '' });
  const status = h('p', { id: 'study-status', class: 'run-status', role: 'status', text: 'Choose a study and run it.' });
  const output = h('div', { id: 'study-output', class: 'study-output', 'aria-live': 'off' });
  const shown = h('p', { id: 'study-shown', class: 'study-shown', hidden: true });
  const stale = h('p', { id: 'study-stale', class: 'stale-note', role: 'status', hidden: true,
    text: 'These results are for the problem as it was when the study ran: it has changed since. Run the study again to update them.' });
  const element = h('section', { class: 'studies', id: 'studies', 'aria-labelledby': 'studies-title' },
    helpLink('studies'), h('h2', { id: 'studies-title', text: 'Studies', tabindex: '-1' }),
    h('p', { class: 'intro', text: 'Trade-offs and sweeps over the current problem, each run as many independent plans in parallel. Choose a point or a table row to see its plan in the plan views.' }),
    form.element,
    h('div', { class: 'buttons study-buttons' }, runButton, cancelButton),
    h('div', { class: 'study-progress', hidden: true }, progress, progressText),
    status, stale, shown, output);
  const progressBox = progress.parentElement;
  const pool = new WorkerPool(poolUrl);

  let running = null;   // {controller, started, timer, total, done}
  let study = null;     // the last study: {kind, label, problemText, entries: Map id -> {problem, result}, summary}

  const setStatus = (text, kind = '') => {
    status.textContent = text;
    status.className = `run-status ${kind}`;
  };

  function showProgress() {
    progress.max = Math.max(1, running.total);
    progress.value = running.done;
    const workers = pool.size ? ` · ${pool.size} worker${pool.size === 1 ? '' : 's'}` : '';
    progressText.textContent = `${running.done} of ${running.total} jobs · ${formatElapsed(performance.now() - running.started)}${workers}`;
  }

  function begin() {
    running = { controller: new AbortController(), started: performance.now(), total: 0, done: 0 };
    runButton.disabled = true;
    cancelButton.disabled = false;
    form.setDisabled(true);
    element.classList.add('running');
    progressBox.hidden = false;
    running.timer = setInterval(showProgress, 200);
    showProgress();
  }

  function end() {
    clearInterval(running.timer);
    showProgress();
    running = null;
    runButton.disabled = false;
    cancelButton.disabled = true;
    form.setDisabled(false);
    element.classList.remove('running');
  }

  // Runs the study chosen in the form; resolves with its summary (null when it could not run).
  async function run() {
    if (running) return null;
    setStatus('Checking the problem…');
    const kind = form.kind();
    const label = studyLabel(kind, form.values());
    let options;
    try {
      options = studyOptions(kind, form.values());
    } catch (error) {
      if (!(error instanceof OptionError)) throw error;
      setStatus(`Check the study's options: ${form.showErrors([error.message]).join(' ') || 'see the marked field.'}`, 'bad');
      return null;
    }
    form.clearErrors();
    const checked = await checkProblem();
    if (!checked.ok) {
      setStatus(checked.jsonInvalid ? checked.errors[0] : `Fix the problem first: ${checked.errors.join(' ')}`, 'bad');
      return null;
    }
    const problemText = JSON.stringify(getProblem());
    begin();
    if (studyByKind(kind)?.direct) return runDirect(kind, label, options, problemText);
    setStatus('Listing the study\'s jobs…');
    try {
      const { jobs } = await tools.call('study-jobs', { problem: problemText, options });
      running.total = jobs.length;
      setStatus(`Running ${jobs.length} plans…`);
      showProgress();
      const { results, cancelled } = await pool.run(jobs, {
        signal: running.controller.signal,
        onJobDone: () => {
          running.done += 1;
          showProgress();
        },
      });
      const finished = Object.keys(results).length;
      setStatus(cancelled ? `Cancelled: summarising the ${finished} of ${jobs.length} jobs that finished…` : 'Summarising…');
      const summary = await tools.call('study-summary', { problem: problemText, options, results });
      const entries = new Map(jobs.filter((job) => job.id in results).map((job) => [job.id, { problem: job.problem, result: results[job.id] }]));
      study = { kind, label, problemText, key: problemTextKey(problemText), entries, summary };
      markStale(problemKey(getProblem()) !== study.key);
      const failed = Object.values(results).filter((r) => !isPlan(r));
      await draw();
      const elapsed = formatElapsed(performance.now() - running.started);
      end();
      const failures = failed.length ? ` ${failed.length} job${failed.length === 1 ? '' : 's'} failed: ${pageWords(failed[0].error?.messages?.[0] ?? 'error')}` : '';
      setStatus(cancelled ? `Cancelled: summarised the ${finished} of ${jobs.length} jobs that finished.${failures}` : `Done: ${jobs.length} plan${jobs.length === 1 ? '' : 's'} in ${elapsed}.${failures}`, failed.length ? 'bad' : cancelled ? '' : 'good');
      return summary;
    } catch (error) {
      end();
      const rest = form.showErrors(error.messages || [error.message]);
      setStatus(rest.length ? `The study could not run: ${pageWords(rest.join(' '))}` : 'The study could not run: check the marked options.', 'bad');
      return null;
    }
  }

  function markStale(isStale) {
    stale.hidden = !isStale;
    output.classList.toggle('is-stale', isStale);
  }

  // A study's results belong to the problem it ran on: another problem opened in its place (source
  // 'load': an example, a link, a file) clears them; edits mark them out of date.
  function noteProblem(key, source) {
    if (!study) return;
    if (key === study.key) {
      markStale(false);
    } else if (source === 'load' && !running) {
      study = null;
      markStale(false);
      output.replaceChildren();
      delete output.dataset.study;
      shown.hidden = true;
      progressBox.hidden = true;  // its "4 of 4 jobs" counted the other problem's jobs
      setStatus('The last study\'s results were cleared: another problem was opened. Run a study for this one.');
    } else {
      markStale(true);
    }
  }

  // A study that is one call of the module (robustness): planned and simulated on a pool worker, so
  // that the page's own stay free; its plans are then evaluated, so that each can be shown.
  async function runDirect(kind, label, options, problemText) {
    const { signal } = running.controller;
    running.total = 1;
    setStatus('Planning, then simulating the best plans under every scenario…');
    try {
      const { study: _kind, ...request } = options;
      const summary = await pool.call(kind, { problem: problemText, options: request }, { signal });
      const entries = new Map();
      for (const [i, plan] of (summary.plans || []).entries()) {
        const planFile = { stages: plan.stages, ...(plan.micro_batch_size ? { micro_batch_size: plan.micro_batch_size } : {}) };
        const report = await tools.call('evaluate', { problem: problemText, plan: planFile });
        entries.set(`plan-${i + 1}`, { problem: JSON.parse(problemText),
          result: { ...report, method: `${summary.method}, plan ${i + 1} of ${summary.plans.length}`, stages: plan.stages, stage_metrics: report.stages } });
      }
      running.done = 1;
      study = { kind, label, problemText, key: problemTextKey(problemText), entries, summary };
      await draw();
      const elapsed = formatElapsed(performance.now() - running.started);
      end();
      setStatus(`Done: ${summary.plans.length} plan${summary.plans.length === 1 ? '' : 's'}, ${summary.scenarios} scenarios each, in ${elapsed}.`, 'good');
      return summary;
    } catch (error) {
      end();
      if (signal.aborted) {
        setStatus('Cancelled.');
        return null;
      }
      // The module names its options options.*; the form shows study.* at the field.
      const rest = form.showErrors((error.messages || [error.message]).map((m) => String(m).replace(/^options\./, 'study.')));
      setStatus(rest.length ? `The study could not run: ${pageWords(rest.join(' '))}` : 'The study could not run: check the marked options.', 'bad');
      return null;
    }
  }

  async function draw() {
    // Chosen by a person (a click, a key): the plan views come into view, with a way back.
    const context = { onSelect: (id, label) => select(id, label, { reveal: true }), problem: JSON.parse(study.problemText) };
    shown.hidden = true;
    await addSummaryPlans(context);
    renderStudy(output, study.summary, context);
    const notes = [...(study.summary.warnings || [])];
    if (study.summary.failed > 0) notes.push(`${study.summary.failed} job${study.summary.failed === 1 ? '' : 's'} failed.`);
    if (notes.length) output.append(h('ul', { class: 'result-warnings study-warnings' }, notes.map((text) => h('li', { text }))));
  }

  // Plans the summary made itself (the trade-off's reference, the uniform split) have no job: they
  // are evaluated here so that they can be drawn stage by stage and shown like any job's plan.
  async function addSummaryPlans(context) {
    const summary = study.summary;
    const sides = { pareto: [['reference', 'metis-improved']], split: [['uniform', 'uniform split'], ['non_uniform', 'planner\'s split']] }[summary.study] || [];
    context.breakdown = {};
    for (const [key, method] of sides) {
      const side = summary[key];
      if (!side || !Array.isArray(side.stages)) continue;
      let result = side.job ? study.entries.get(side.job)?.result : null;
      if (!isPlan(result)) {
        try {
          const report = await tools.call('evaluate', { problem: study.problemText, plan: { stages: side.stages } });
          result = { ...report, method, stages: side.stages, stage_metrics: report.stages };
        } catch {
          continue;
        }
        side.job = `summary:${key}`;
        study.entries.set(side.job, { problem: JSON.parse(study.problemText), result });
      }
      context.breakdown[key] = result.stage_metrics;
    }
  }

  // Shows one job's plan (on the job's own problem) in the page's plan views; with reveal, scrolls
  // to them and offers the way back to the point that was chosen.
  async function select(id, label, { reveal = false } = {}) {
    const trigger = document.activeElement;
    const entry = study?.entries.get(id);
    if (!entry || !isPlan(entry.result)) {
      setStatus(`That plan is not available${entry?.result?.error ? `: ${pageWords(entry.result.error.messages?.[0])}` : ''}.`, 'bad');
      return;
    }
    markSelected(output, id);
    const problemText = JSON.stringify(entry.problem);
    try {
      const { problem } = await tools.call('validate', { problem: problemText });
      const back = () => backTo(id, trigger);
      await showPlan({ problem, problemText, result: entry.result, context: `${study.label}: ${label}`, baseText: study.problemText, back }, { reveal });
      const see = h('a', { href: '#results', text: 'See the plan' });
      see.addEventListener('click', (event) => {
        event.preventDefault();
        document.getElementById('results')?.scrollIntoView({ block: 'start' });
        document.getElementById('results-title')?.focus({ preventScroll: true });
      });
      shown.replaceChildren(`Showing ${label} in the plan views. `, see);
      shown.hidden = false;
      element.dispatchEvent(new CustomEvent('study-plan-shown', { detail: { id } }));
    } catch (error) {
      setStatus(`That plan could not be shown: ${pageWords(error.message)}`, 'bad');
    }
  }

  // Back from the plan views to the point that was chosen (or the one marked, if it was redrawn).
  function backTo(id, trigger) {
    const target = trigger?.isConnected && output.contains(trigger) ? trigger
      : output.querySelector(`button[data-job="${CSS.escape(id)}"], [data-job="${CSS.escape(id)}"][tabindex]`) ?? element;
    target.scrollIntoView({ block: 'center' });
    if (target === element) element.querySelector('#studies-title')?.focus?.({ preventScroll: true });
    else target.focus({ preventScroll: true });
  }

  function cancel() {
    if (!running || running.controller.signal.aborted) return;
    cancelButton.disabled = true;
    setStatus('Cancelling…');
    running.controller.abort();
  }

  runButton.addEventListener('click', run);
  cancelButton.addEventListener('click', cancel);
  return {
    element,
    run,
    cancel,
    select,
    isRunning: () => Boolean(running),
    noteProblem,
    // For the guided tour: choose a study and its options (as text), then run it.
    runWith(choice) {
      form.set(choice);
      return run();
    },
    summary: () => study?.summary ?? null,
  };
}
