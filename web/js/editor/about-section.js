// The problem's own words: name, one-line description and the story behind it.
import { h, uniqueId } from '../dom.js';
import { fieldText } from '../format.js';
import { getPath } from '../paths.js';
import { field, section, writeField } from './fields.js';

function textArea(ctx, path, label, rows) {
  const id = uniqueId('f');
  const area = h('textarea', { rows: String(rows), id, dataset: { path, focusKey: path } });
  area.value = fieldText(getPath(ctx.store.get(), path));
  area.addEventListener('input', () => {
    ctx.store.edit((copy) => writeField(copy, path, area.value === '' ? undefined : area.value), ctx.source);
  });
  return h('div', { class: 'field wide', dataset: { errorHost: '' } }, h('label', { for: id, text: label }), area);
}

export function createAboutSection(ctx) {
  const element = section('Problem', { intro: 'What this pool is and why it matters; shared links and exported files carry it along.' });
  const body = h('div', { class: 'field-grid' });
  element.append(body);
  return {
    name: 'about',
    element,
    render() {
      body.replaceChildren(
        field(ctx, { path: 'name', label: 'Name', kind: 'text', wide: true }),
        textArea(ctx, 'description', 'Description', 2),
        textArea(ctx, 'story', 'Story', 6));
    },
  };
}
