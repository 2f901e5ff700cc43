// Wires the page: the problem store (kept in localStorage), the editor, the run panel, results,
// examples, share links and files. A problem from a link or a file replaces the current one only
// once it has been read completely, parsed and validated (in the tools worker, so that a hostile
// link never freezes the page), and the one it replaced can be brought back (Undo).
import { createEditor } from './editor/editor.js';
import { createExamples } from './examples.js';
import { messageTotal } from './limits.js';
import { defaultProblem } from './default-problem.js';
import { downloadJson, fileStem, readProblemFileText } from './files.js';
import { Messenger } from './messenger.js';
import { initNotices, notify } from './notices.js';
import { loadPreviousProblem, loadStoredProblem, storePreviousProblem, storeProblem } from './persistence.js';
import { createResults } from './results.js';
import { createLaunchView } from './views/launch.js';
import { BASELINES, createRunPanel } from './run.js';
import { decodeProblemFragmentText, isShareFragment, ShareLinkError } from './share.js';
import { createSharePanel } from './share-ui.js';
import { createStore } from './store.js';
import { createStudiesPanel } from './studies/panel.js';
import { createTour } from './demo/tour.js';
import { pageWords } from './page-words.js';
import { problemKey } from './problem-key.js';

const $ = (id) => document.getElementById(id);

function start() {
  initNotices($('notices'));
  const store = createStore(loadStoredProblem() ?? defaultProblem());
  const reportCrash = (error) => notify(`${error.message}. It has been restarted; try again.`, { kind: 'error' });
  const tools = new Messenger('worker.js', { onCrash: reportCrash });
  const runner = new Messenger('worker.js', { onCrash: reportCrash });

  let runPanel = null;
  let studies = null;
  const editor = createEditor({ store, tools, onChecked: () => runPanel?.refreshBudget() });
  $('editor').append(editor.element);
  // Launch view (issue 12): every plan the results show also gets its launch bundle; an engine
  // that cannot run the plan can plan again for itself (search.engine, issue 22).
  const launch = createLaunchView({
    request: (problem, plan) => tools.call('launch', { problem, plan: JSON.stringify(plan), target: 'all' }),
    planFor: (engine) => {
      store.edit((copy) => { copy.search = { ...(copy.search ?? {}), engine }; }, 'launch');
      notify(`Engine set to ${engine}: planning the best plan it can launch.`, { kind: 'info', topic: 'engine' });
      return runPanel.plan();
    },
  });
  const results = createResults({
    // The 1F1B timeline draws the plan's simulated schedule (core/sim/), from the tools worker.
    simulate: (problem, plan, options) => tools.call('simulate', { problem, plan, options }),
    currentKey: () => problemKey(store.get()),
    onClear: () => { launch.clear(); editor.showResult(null); runPanel?.clear(); },
    onStale: (isStale) => launch.markStale(isStale),
  });
  $('results-area').append(results.element);
  $('results-area').append(launch.element);
  const showResults = results.show;
  results.show = (shown) => { launch.show(shown); editor.showResult(shown.result); return showResults(shown); };

  // Plans and study results made for another problem are dropped when a problem is opened in its
  // place, and marked as out of date after edits (issue 24 point 1).
  store.subscribe((problem, source) => {
    storeProblem(problem);
    const key = problemKey(problem);
    results.noteProblem(key, source);
    studies?.noteProblem(key, source);
  });

  // Replaces the problem, keeping the old one for Undo (in memory and in storage). `source` is text
  // from outside or a problem object; the worker checks it first, and a problem that fails is
  // refused with its first messages while the current one stays, in the store and in storage.
  async function openProblem(source, label, { refusal = 'Nothing was opened' } = {}) {
    let problem;
    try {
      ({ problem } = await tools.call('open-problem', { text: typeof source === 'string' ? source : JSON.stringify(source) }));
    } catch (error) {
      const messages = error.messages ?? [error.message];
      const total = messageTotal(messages);
      const more = total > 1 ? ` (${(total - 1).toLocaleString('en-US')} more message${total === 2 ? '' : 's'})` : '';
      notify(`${refusal}: ${label} is not a valid problem. ${String(messages[0]).replace(/\.$/, '')}${more}. Your current problem is unchanged.`, { kind: 'error', topic: 'open' });
      return false;
    }
    const previous = store.get();
    storePreviousProblem(previous);
    store.set(problem, 'load');
    notify(`Opened ${label}.`, { kind: 'success', topic: 'open', action: { label: 'Undo', run: () => store.set(previous, 'load') }, timeoutMs: 12000 });
    return true;
  }

  runPanel = createRunPanel({
    runner,
    checkProblem: () => editor.checkNow(),
    getProblem: () => store.get(),
    onResult: (shown) => results.show(shown),
    onBaselines: (chosen, baselines, failures) => results.showComparison(chosen, baselines, failures),
    evaluate: (problemText, plan) => tools.call('evaluate', { problem: problemText, plan: JSON.stringify(plan) }),
    getEffective: () => editor.effective(),
  });
  $('run-area').append(runPanel.element);

  // A study's point: its plan in the plan views, then the baselines on the same (maybe rescaled)
  // problem and lambda for the comparison.
  async function showStudyPlan(shown, { reveal = false } = {}) {
    await results.show(shown);
    if (reveal) results.reveal();
    const baselines = [];
    const failures = [];
    const lambda = Number.isFinite(shown.result.lambda) ? { lambda: shown.result.lambda } : {};
    for (const method of BASELINES) {
      if (results.last()?.result !== shown.result) return;
      if (shown.result.method === method) {
        baselines.push(shown.result);
        continue;
      }
      try {
        baselines.push(await tools.call('solve', { problem: shown.problemText, options: { method, ...lambda }, live: false }));
      } catch (error) {
        failures.push(`${method}: ${pageWords(error.message)}`);
      }
    }
    await results.showComparison(shown.result, baselines, failures);
  }

  studies = createStudiesPanel({
    tools,
    checkProblem: () => editor.checkNow(),
    getProblem: () => store.get(),
    showPlan: showStudyPlan,
  });
  $('studies-area').append(studies.element);

  // The guided tour plans with the run panel's chosen method set for the step, then puts it back.
  async function planWith(method) {
    while (runPanel.isRunning()) {
      runPanel.cancel();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const select = $('method');
    const chosen = select.value;
    const before = results.last();
    select.value = method;
    select.dispatchEvent(new Event('change'));
    try {
      await runPanel.plan();
    } finally {
      select.value = chosen;
      select.dispatchEvent(new Event('change'));
    }
    const shown = results.last();
    return shown && shown !== before ? shown : null;
  }
  const tour = createTour({
    getProblem: () => store.get(),
    loadProblem: (problem) => store.set(problem, 'load'),
    keepUserProblem: storePreviousProblem,
    offerRestore: (problem) => notify(`The tour left its last example open. Your own problem “${problem.name ?? 'unnamed'}” is kept.`, {
      kind: 'info', topic: 'tour-restore', action: { label: 'Bring back my problem', run: () => store.set(problem, 'load') }, timeoutMs: 0,
    }),
    planWith,
    studies,
    opener: $('tour-button'),
  });
  document.body.append(tour.element);
  $('tour-button').addEventListener('click', () => tour.open());

  const examples = createExamples({ onOpen: openProblem, notify });
  $('examples-area').append(examples.element);

  const sharePanel = createSharePanel({ getProblem: () => store.get(), beforeShare: () => editor.checkNow() });
  $('share-area').append(sharePanel.element);
  $('share-button').addEventListener('click', () => sharePanel.share().catch((error) => notify(`Sharing failed: ${error.message}`, { kind: 'error' })));

  $('import-file').addEventListener('change', async (event) => {
    const input = event.target;
    const [file] = input.files;
    input.value = '';
    if (!file) return;
    try {
      await openProblem(await readProblemFileText(file), `file “${file.name}”`, { refusal: 'Nothing was imported' });
    } catch (error) {
      notify(`Nothing was imported: ${error.message} Your problem is unchanged.`, { kind: 'error', topic: 'open' });
    }
  });
  $('export-button').addEventListener('click', () => {
    const problem = store.get();
    downloadJson(problem, `${fileStem(problem.name)}.json`);
  });
  $('download-plan-button').addEventListener('click', () => {
    const last = results.last();
    if (last) downloadJson(last.result, `${fileStem(JSON.parse(last.problemText).name)}-plan.json`);
    else notify('Plan first: there is no plan to download yet.', { kind: 'warning' });
  });
  $('restore-button').addEventListener('click', () => {
    const previous = loadPreviousProblem();
    if (previous) openProblem(previous, 'the problem you had before the last load');
    else notify('There is no earlier problem to restore.', { kind: 'info' });
  });

  // A shared link: read it completely before touching the current problem; then drop it from the
  // address bar so that reloading keeps later edits (storage holds them).
  async function openFragment() {
    const hash = location.hash;
    if (!isShareFragment(hash)) return;
    history.replaceState(null, '', location.href.split('#')[0]);
    let text;
    try {
      text = await decodeProblemFragmentText(hash);
    } catch (error) {
      const reason = error instanceof ShareLinkError ? error.message : 'It could not be read.';
      notify(`This link could not be opened. ${reason} Your current problem is unchanged.`, { kind: 'error', topic: 'open' });
      return;
    }
    await openProblem(text, 'the shared problem', { refusal: 'This link could not be opened' });
  }
  window.addEventListener('hashchange', openFragment);

  const fragmentDone = openFragment();
  examples.load();
  const moduleDone = tools.ready()
    .then(() => tools.call('catalogue'))
    .then((list) => editor.setCatalogue(list))
    // The region catalogue (issue 11) is only a source of suggestions: a module without it is fine.
    .then(() => tools.call('regions').then((list) => editor.setRegions(list), () => editor.setRegions([])))
    .catch((error) => notify(`The planner module could not be loaded (${error.message}). You can still edit the problem; planning needs the module.`, { kind: 'error' }));
  Promise.all([fragmentDone, moduleDone]).then(() => editor.checkNow()).finally(() => {
    performance.mark('geotrain-interactive');
    document.documentElement.dataset.state = 'ready';
    // Start the planning worker while the user reads and let it warm up the planner's hot code
    // (web/worker.js), so that the first plan starts at once and runs at full speed; any request
    // stops the warm-up.
    setTimeout(() => runner.ready().then(() => runner.call('warm-up')).catch(() => {}), 300);
  });
}

start();
