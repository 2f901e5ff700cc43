// The example problems (web/examples/index.json, made by tools/copy-examples.mjs): one card each,
// with its description, its story on demand and an Open button.
import { h } from './dom.js';
import { helpLink } from './help-link.js';
import { isPlainObject } from './paths.js';

const SAFE_FILE = /^[A-Za-z0-9][A-Za-z0-9._-]*\.json$/;

async function fetchJson(url) {
  const response = await fetch(url, { cache: 'no-cache' });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

export function createExamples({ onOpen, notify }) {
  const list = h('ul', { class: 'example-list', id: 'example-list' });
  const element = h('details', { class: 'examples', id: 'examples', open: true },
    h('summary', {}, h('h2', { text: 'Examples' })), helpLink('examples'), list);
  const cache = new Map();

  const fetchExample = (file) => {
    if (!cache.has(file)) {
      cache.set(file, fetchJson(`examples/${file}`));
      cache.get(file).catch(() => cache.delete(file));
    }
    return cache.get(file);
  };

  function card(entry) {
    const name = typeof entry.name === 'string' ? entry.name : entry.file;
    const story = h('p', { class: 'story', text: 'Loading…' });
    const details = h('details', { class: 'example-story' }, h('summary', { text: 'Story' }), story);
    details.addEventListener('toggle', () => {
      if (!details.open) return;
      fetchExample(entry.file).then(
        (problem) => { story.textContent = typeof problem.story === 'string' ? problem.story : 'No story for this example.'; },
        (error) => { story.textContent = `Could not load it: ${error.message}`; });
    }, { once: false });
    const open = h('button', { type: 'button', class: 'open-example', text: 'Open', 'aria-label': `Open example ${name}`, dataset: { file: entry.file } });
    open.addEventListener('click', async () => {
      try {
        const problem = await fetchExample(entry.file);
        if (!isPlainObject(problem)) throw new Error('it does not hold a problem');
        onOpen(structuredClone(problem), `example “${name}”`);
      } catch (error) {
        notify(`The example ${name} could not be opened: ${error.message}`, { kind: 'error' });
      }
    });
    return h('li', { class: 'example-card' },
      h('div', { class: 'example-head' }, h('strong', { text: name }), open),
      h('p', { class: 'description', text: typeof entry.description === 'string' ? entry.description : '' }), details);
  }

  return {
    element,
    async load() {
      try {
        const index = await fetchJson('examples/index.json');
        const entries = Array.isArray(index) ? index.filter((e) => isPlainObject(e) && typeof e.file === 'string' && SAFE_FILE.test(e.file)) : [];
        list.replaceChildren(...entries.map(card));
        if (entries.length === 0) list.replaceChildren(h('li', { text: 'No examples are installed.' }));
      } catch (error) {
        list.replaceChildren(h('li', { text: `The examples could not be listed (${error.message}).` }));
      }
    },
  };
}
