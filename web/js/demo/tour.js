// The guided tour: a small non-modal step panel (Back / Next / Close, "Step k of 5"). Each step
// loads its example, plans it or runs its study, then points at the view that shows the finding.
// The user's own problem is kept when the tour starts (also as the page's "Undo last load" problem)
// and offered back when the tour closes.
import { h } from '../dom.js';
import { pointAt, waitFor } from './pointer.js';
import { STEPS } from './steps.js';

const SAFE_FILE = /^[A-Za-z0-9][A-Za-z0-9._-]*\.json$/;

async function fetchExample(file) {
  if (!SAFE_FILE.test(file)) throw new Error(`bad example name ${file}`);
  const response = await fetch(`examples/${file}`, { cache: 'no-cache' });
  if (!response.ok) throw new Error(`examples/${file}: HTTP ${response.status}`);
  return response.json();
}

const until = (ready) => new Promise((resolve) => {
  const look = () => (ready() ? resolve() : setTimeout(look, 50));
  look();
});

// deps: {getProblem, loadProblem(problem), keepUserProblem(problem), offerRestore(problem),
//        planWith(method) -> {problem, result} | null, studies (the studies panel), opener (button)}
export function createTour(deps) {
  const count = h('p', { class: 'tour-count', id: 'tour-count' });
  const title = h('h2', { id: 'tour-title', tabindex: '-1' });
  const text = h('div', { class: 'tour-text', id: 'tour-text' });
  const status = h('p', { class: 'tour-status', id: 'tour-status', role: 'status' });
  const back = h('button', { type: 'button', id: 'tour-back', text: 'Back' });
  const next = h('button', { type: 'button', id: 'tour-next', class: 'primary', text: 'Next' });
  const close = h('button', { type: 'button', id: 'tour-close', class: 'tour-close', text: 'Close', 'aria-label': 'Close the guided tour' });
  const element = h('section', { class: 'tour', id: 'tour', role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'tour-title', hidden: true },
    h('div', { class: 'tour-head' }, count, close), title, text, status, h('div', { class: 'tour-buttons' }, back, next));

  let index = -1;
  let token = 0;          // bumps on every step change: a step's late work sees it is stale
  let queue = Promise.resolve();
  let clearMarks = () => {};
  let saved = null;       // the user's problem when the tour started
  let offered = null;     // the problem offered back when the tour last closed
  let lastLoaded = null;  // the example the tour loaded last

  const setStatus = (message, state) => {
    status.textContent = message;
    element.dataset.stepState = state;
  };

  function show(k) {
    const step = STEPS[k];
    index = k;
    count.textContent = `Step ${k + 1} of ${STEPS.length}`;
    title.textContent = step.title;
    text.replaceChildren(...step.text.map((paragraph) => h('p', { text: paragraph })));
    back.disabled = k === 0;
    next.textContent = k === STEPS.length - 1 ? 'Finish' : 'Next';
    element.dataset.step = String(k + 1);
  }

  // Loads, plans and points for step k; a step the user has already left stops at its next stage.
  async function runStep(k, mine) {
    const stale = () => mine !== token;
    const step = STEPS[k];
    setStatus(`Loading the example ${step.example.replace(/\.json$/, '')}…`, 'loading');
    const problem = await fetchExample(step.example);
    if (stale()) return;
    lastLoaded = problem;
    deps.loadProblem(problem);
    let context;
    if (step.study) {
      if (deps.studies.isRunning()) {
        deps.studies.cancel();
        await until(() => !deps.studies.isRunning());
      }
      setStatus('Running the trade-off study (a few plans in parallel)…', 'loading');
      const summary = await deps.studies.runWith(step.study);
      if (!summary) throw new Error('the study did not run (see the Studies panel)');
      context = { summary };
      // The plan views show the knee's plan meanwhile, not the previous step's.
      if (summary.knee && !stale()) await deps.studies.select(summary.knee.job, `the knee (λ = ${summary.knee.lambda})`);
    } else {
      setStatus(`Planning it (${step.method})…`, 'loading');
      context = await deps.planWith(step.method);
      if (!context) throw new Error('planning failed (see the run panel)');
    }
    if (stale()) return;
    const targets = [];
    for (const target of step.targets) {
      await waitFor(target.wait, { isStale: stale });
      const element = document.querySelector(target.selector);
      if (!element) continue;
      targets.push({ element, caption: target.caption(context), spot: target.spot ? document.querySelector(target.spot) : null });
    }
    if (stale()) return;
    clearMarks = pointAt(targets);
    setStatus('Look at the highlighted view.', 'ready');
  }

  function go(k) {
    if (k < 0 || k >= STEPS.length) return;
    const mine = ++token;
    clearMarks();
    clearMarks = () => {};
    show(k);
    setStatus('Waiting for the previous step to finish…', 'loading');
    // Steps run one after another (the run panel plans one problem at a time).
    queue = queue.then(() => (mine === token ? runStep(k, mine) : null)).catch((error) => {
      if (mine === token && !error.stale) setStatus(`This step could not be shown: ${error.message}`, 'failed');
    });
  }

  function open() {
    if (element.hidden) {
      // Reopened on the tour's own example while the offer to bring the user's problem back still
      // stands: the user's problem is still the one to keep, not the example.
      const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
      saved = offered && lastLoaded && same(deps.getProblem(), lastLoaded) ? offered : structuredClone(deps.getProblem());
      deps.keepUserProblem(saved);
      element.hidden = false;
      document.body.classList.add('touring');
      go(0);
    }
    title.focus();
  }

  function finish() {
    if (element.hidden) return;
    token += 1;
    clearMarks();
    clearMarks = () => {};
    element.hidden = true;
    document.body.classList.remove('touring');
    if (deps.studies.isRunning()) deps.studies.cancel();
    offered = null;
    if (saved && JSON.stringify(saved) !== JSON.stringify(deps.getProblem())) {
      offered = saved;
      deps.offerRestore(saved);
    }
    saved = null;
    deps.opener?.focus();
  }

  back.addEventListener('click', () => go(index - 1));
  next.addEventListener('click', () => (index === STEPS.length - 1 ? finish() : go(index + 1)));
  close.addEventListener('click', finish);
  element.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') finish();
  });
  return { element, open, close: finish, go, step: () => index + 1 };
}
