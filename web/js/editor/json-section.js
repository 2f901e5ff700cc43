// The raw JSON, in sync both ways: form edits rewrite the text; text that parses to an object
// replaces the problem; text that does not parse stays as typed, with the reason beside it.
import { debounce, h } from '../dom.js';
import { jsonDepthOver, MAX_GPUS, MAX_PROBLEM_BYTES } from '../limits.js';
import { isPlainObject } from '../paths.js';

const LARGE_TEXT_CHARS = 200_000;

export function createJsonSection(ctx) {
  const area = h('textarea', {
    id: 'problem-json', class: 'json', rows: '28', spellcheck: 'false', autocomplete: 'off',
    'aria-describedby': 'problem-json-status', dataset: { focusKey: 'problem-json' },
  });
  const status = h('p', { id: 'problem-json-status', class: 'json-status', 'aria-live': 'polite' });
  const element = h('div', { class: 'section json-section' },
    h('label', { for: 'problem-json', text: 'Problem JSON' }),
    h('p', { class: 'intro', text: 'Edit freely: the form follows as soon as the text parses. Unknown fields are kept and reported.' }),
    area, status);

  const setStatus = (text, bad) => {
    status.textContent = text;
    status.classList.toggle('bad', bad);
    area.setAttribute('aria-invalid', bad ? 'true' : 'false');
  };

  const apply = debounce(() => {
    // The page's limits before parsing: pasted text must not freeze or overflow the page either.
    if (area.value.length > MAX_PROBLEM_BYTES || jsonDepthOver(area.value)) {
      setStatus('The text is larger than 5 MB or nests too deeply to be a problem; the form keeps the last good problem.', true);
      return;
    }
    let value;
    try {
      value = JSON.parse(area.value);
    } catch (error) {
      setStatus(`Not valid JSON, the form keeps the last good problem: ${error.message}`, true);
      return;
    }
    if (!isPlainObject(value)) {
      setStatus('The problem must be a JSON object ({...}); the form keeps the last good problem.', true);
      return;
    }
    if (Array.isArray(value.gpus) && value.gpus.length > MAX_GPUS) {
      setStatus(`gpus: ${value.gpus.length.toLocaleString('en-US')} GPUs, the planner takes at most ${MAX_GPUS}; the form keeps the last good problem.`, true);
      return;
    }
    setStatus('JSON parsed: the form is up to date.', false);
    ctx.store.set(value, ctx.source);
  }, 250);
  area.addEventListener('input', () => apply());

  return {
    name: 'json',
    element,
    render(problem) {
      apply.cancel();
      area.value = JSON.stringify(problem, null, 2);
      setStatus('', false);
    },
    // Text this long (a pool of hundreds of GPUs, thousands of links) is rewritten, while the JSON
    // tab is hidden, only when the typing pauses (editor.js): at every key it cost tens of ms.
    large: () => area.value.length > LARGE_TEXT_CHARS,
    // Flush a pending edit (e.g. before sharing or planning) so that nothing typed is lost.
    flush: () => apply.flush(),
    hasPendingText: () => status.classList.contains('bad'),
  };
}
