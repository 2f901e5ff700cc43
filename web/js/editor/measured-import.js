// Tool outputs into the problem (geotrain import, in the worker): files dropped, chosen or pasted,
// a preview of every change, and nothing applied until the user says so. A file's name matters (it
// names the host, or the pair FROM-TO), so pasted text gets one too.
import { h, uniqueId } from '../dom.js';
import { WorkerError } from '../messenger.js';
import { applyPreview, changeList, errorBox, formatBytes, previewBox } from './measured-preview.js';

const MAX_FILE_BYTES = 4 * 1024 * 1024;
const MAX_FILES = 64;

export function createImportPanel(ctx) {
  const files = [];  // {name, text}
  let preview = null;  // {result, problem (the one it was made from)}

  const fileInput = h('input', { type: 'file', multiple: true, class: 'visually-hidden', id: uniqueId('measured-files') });
  const chooseLabel = h('label', { class: 'button', for: fileInput.id, text: 'Choose files…' });
  const drop = h('div', { class: 'drop-zone', id: 'measured-drop' },
    h('p', { text: 'Drop tool outputs here, or' }), chooseLabel, fileInput);
  const nameId = uniqueId('paste-name');
  const textId = uniqueId('paste-text');
  const pasteName = h('input', { type: 'text', id: nameId, autocomplete: 'off', spellcheck: 'false', placeholder: 'node1.smi.csv', 'aria-describedby': `${nameId}-hint` });
  const pasteText = h('textarea', { id: textId, rows: 5, spellcheck: 'false', autocomplete: 'off', placeholder: 'index, name, memory.total [MiB], power.limit [W]\n0, NVIDIA A100-SXM4-80GB, 81920 MiB, 400.00 W' });
  const addPasted = h('button', { type: 'button', id: 'measured-add-pasted', text: 'Add pasted text' });
  const paste = h('div', { class: 'paste-box' },
    h('div', { class: 'field' }, h('label', { for: nameId, text: 'File name' }), pasteName,
      h('small', { class: 'hint', id: `${nameId}-hint`, text: 'It names the host (node1.smi.csv) or the pair (lab-cloud.ping.txt).' })),
    h('div', { class: 'field' }, h('label', { for: textId, text: 'What the tool printed' }), pasteText),
    h('div', { class: 'row-actions' }, addPasted));
  const list = h('ul', { class: 'measured-files', 'aria-label': 'Files to import' });
  const hostId = uniqueId('import-host');
  const siteId = uniqueId('import-site');
  const host = h('input', { type: 'text', id: hostId, autocomplete: 'off', spellcheck: 'false', placeholder: 'each file\'s name' });
  const site = h('input', { type: 'text', id: siteId, autocomplete: 'off', spellcheck: 'false', placeholder: 'as they are', list: 'site-names' });
  const options = h('div', { class: 'field-grid compact' },
    h('div', { class: 'field' }, h('label', { for: hostId, text: 'Host of every file' }), host),
    h('div', { class: 'field' }, h('label', { for: siteId, text: 'Site of the GPUs' }), site));
  const previewButton = h('button', { type: 'button', class: 'primary', id: 'measured-preview', text: 'Preview changes', disabled: true });
  const out = h('div', { class: 'measured-out', 'aria-live': 'polite' });
  const element = h('section', { class: 'measured-panel', 'aria-labelledby': 'measured-import-title' },
    h('h3', { id: 'measured-import-title', text: 'Import what your tools printed' }),
    h('p', { class: 'intro', text: 'nvidia-smi --query-gpu=index,name,memory.total,power.limit --format=csv (one file per host), nvidia-smi topo -m, iperf3 --json, ping and nccl-tests all_reduce_perf. Each figure keeps where it came from. Nothing changes until you apply the preview.' }),
    drop, paste, list, options, h('div', { class: 'row-actions' }, previewButton), out);

  function renderList() {
    list.replaceChildren(...files.map((f, i) => h('li', {},
      h('span', { class: 'file-name', text: f.name }), h('span', { class: 'file-size', text: formatBytes(f.text.length) }),
      h('button', { type: 'button', class: 'small danger', text: 'Remove', 'aria-label': `Remove ${f.name}`, onclick: () => { files.splice(i, 1); changed(); } }))));
    previewButton.disabled = files.length === 0;
  }
  // Any change to the inputs makes an earlier preview stale.
  function changed() {
    preview = null;
    out.replaceChildren();
    renderList();
  }
  function add(name, text) {
    if (files.length >= MAX_FILES) return out.replaceChildren(errorBox([`At most ${MAX_FILES} files at once.`]));
    if (text.length > MAX_FILE_BYTES) return out.replaceChildren(errorBox([`${name} is larger than 4 MB; no tool output here is that long.`]));
    const same = files.findIndex((f) => f.name === name);
    if (same >= 0) files.splice(same, 1);  // a file dropped again replaces itself
    files.push({ name, text });
    changed();
  }
  async function addFiles(list) {
    for (const file of list) {
      if (file.size > MAX_FILE_BYTES) out.replaceChildren(errorBox([`${file.name} is larger than 4 MB; no tool output here is that long.`]));
      else add(file.name, await file.text());
    }
  }

  fileInput.addEventListener('change', async () => { await addFiles([...fileInput.files]); fileInput.value = ''; });
  drop.addEventListener('dragover', (event) => { event.preventDefault(); drop.classList.add('dragging'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('dragging'));
  drop.addEventListener('drop', async (event) => {
    event.preventDefault();
    drop.classList.remove('dragging');
    await addFiles([...(event.dataTransfer?.files ?? [])]);
  });
  addPasted.addEventListener('click', () => {
    const name = pasteName.value.trim();
    if (!pasteText.value.trim()) return out.replaceChildren(errorBox(['Paste what the tool printed first.']));
    if (!name) {
      pasteName.focus();
      return out.replaceChildren(errorBox(['Give the pasted text a file name: it names the host or the pair.']));
    }
    add(name, pasteText.value);
    pasteText.value = '';
    pasteName.value = '';
  });
  host.addEventListener('input', changed);
  site.addEventListener('input', changed);

  previewButton.addEventListener('click', async () => {
    const problem = ctx.store.get();
    previewButton.disabled = true;
    out.replaceChildren(h('p', { class: 'hint', text: 'Reading the files…' }));
    try {
      const result = await ctx.tools.call('import-measured', {
        problem, files, options: { host: host.value.trim(), site: site.value.trim() },
      });
      preview = { result, problem };
      out.replaceChildren(previewBox({
        title: `${result.changes.length} change${result.changes.length === 1 ? '' : 's'} from ${files.length} file${files.length === 1 ? '' : 's'}`,
        lines: result.files.map((f) => `${f.name} (${f.format}): ${f.summary}`),
        body: changeList(result.changes),
        warnings: result.warnings,
        onApply: apply,
        onDiscard: changed,
        applyId: 'measured-apply',
      }));
    } catch (error) {
      out.replaceChildren(errorBox(error instanceof WorkerError ? error.messages : [String(error.message ?? error)]));
    } finally {
      previewButton.disabled = files.length === 0;
    }
  });

  function apply() {
    if (!preview) return;
    const applied = applyPreview(ctx, preview, { out, message: `Imported ${files.length} file${files.length === 1 ? '' : 's'}: ${preview.result.changes.length} changes.`, stale: 'The problem changed since this preview; preview again.' });
    preview = null;
    if (!applied) return;
    files.length = 0;
    changed();
  }

  return { element };
}
