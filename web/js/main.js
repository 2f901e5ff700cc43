// Wires the page: the problem store (kept in localStorage), the editor, the run panel, results,
// examples, share links and files. A problem from a link or a file replaces the current one only
// once it has been read completely, and the one it replaced can be brought back (Undo).
import { createEditor } from './editor/editor.js';
import { createExamples } from './examples.js';
import { defaultProblem } from './default-problem.js';
import { downloadJson, fileStem, readProblemFile } from './files.js';
import { Messenger } from './messenger.js';
import { initNotices, notify } from './notices.js';
import { loadPreviousProblem, loadStoredProblem, storePreviousProblem, storeProblem } from './persistence.js';
import { createResults } from './results.js';
import { createRunPanel } from './run.js';
import { decodeProblemFragment, isShareFragment, ShareLinkError } from './share.js';
import { createSharePanel } from './share-ui.js';
import { createStore } from './store.js';

const $ = (id) => document.getElementById(id);

function start() {
  initNotices($('notices'));
  const store = createStore(loadStoredProblem() ?? defaultProblem());
  const reportCrash = (error) => notify(`${error.message}. It has been restarted; try again.`, { kind: 'error' });
  const tools = new Messenger('worker.js', { onCrash: reportCrash });
  const runner = new Messenger('worker.js', { onCrash: reportCrash });

  const editor = createEditor({ store, tools });
  $('editor').append(editor.element);
  const results = createResults();
  $('results-area').append(results.element);

  store.subscribe((problem) => {
    storeProblem(problem);
    results.noteProblem(JSON.stringify(problem));
  });

  // Replaces the problem, keeping the old one for Undo (in memory and in storage).
  function openProblem(problem, label) {
    const previous = store.get();
    storePreviousProblem(previous);
    store.set(problem, 'load');
    notify(`Opened ${label}.`, { kind: 'success', action: { label: 'Undo', run: () => store.set(previous, 'load') }, timeoutMs: 12000 });
  }

  const runPanel = createRunPanel({
    runner,
    checkProblem: () => editor.checkNow(),
    getProblem: () => store.get(),
    onResult: (shown) => results.show(shown),
    onBaselines: (chosen, baselines, failures) => results.showComparison(chosen, baselines, failures),
  });
  $('run-area').append(runPanel.element);

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
      openProblem(await readProblemFile(file), `file “${file.name}”`);
    } catch (error) {
      notify(`Nothing was imported: ${error.message} Your problem is unchanged.`, { kind: 'error' });
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
    try {
      openProblem(await decodeProblemFragment(hash), 'the shared problem');
    } catch (error) {
      const reason = error instanceof ShareLinkError ? error.message : 'It could not be read.';
      notify(`This link could not be opened. ${reason} Your current problem is unchanged.`, { kind: 'error' });
    }
  }
  window.addEventListener('hashchange', openFragment);

  const fragmentDone = openFragment();
  examples.load();
  const moduleDone = tools.ready()
    .then(() => tools.call('catalogue'))
    .then((list) => editor.setCatalogue(list))
    .catch((error) => notify(`The planner module could not be loaded (${error.message}). You can still edit the problem; planning needs the module.`, { kind: 'error' }));
  Promise.all([fragmentDone, moduleDone]).then(() => editor.checkNow()).finally(() => {
    performance.mark('geotrain-interactive');
    document.documentElement.dataset.state = 'ready';
    // Start the search's worker while the user reads, so that the first Plan starts at once.
    setTimeout(() => runner.ready().catch(() => {}), 1000);
  });
}

start();
