// A page of a long table's rows at a time, with a filter: every row of a 512-GPU pool in the DOM
// made each keystroke anywhere in the editor relayout and repaint some 5,000 inputs (0.3-0.6 s a
// key, measured in Chromium), and its 12,650 link overrides froze the page on opening.
// The owner keeps the rows' real indices (their data-path), so validation messages still land.
import { h, preservingFocus } from '../dom.js';
import { formatCount } from '../format.js';

// rerender() redraws the owner's table, not the pager (which the owner keeps in place and hides
// when not needed), so the filter never loses the focus; noun names the rows ('GPUs', 'links').
export function createRowPager({ noun, pageRows, filterLabel, placeholder, rerender, focusKey }) {
  let first = 0;  // the first shown row, among the matching ones
  const filter = h('input', {
    type: 'search', class: 'pager-filter', placeholder, autocomplete: 'off', spellcheck: 'false',
    'aria-label': filterLabel, dataset: { focusKey },
  });
  const text = h('span', { class: 'pager-text', 'aria-live': 'polite' });
  const previous = h('button', { type: 'button', class: 'small', text: 'Previous', 'aria-label': `Previous ${pageRows} ${noun}` });
  const next = h('button', { type: 'button', class: 'small', text: 'Next', 'aria-label': `Next ${pageRows} ${noun}` });
  const element = h('div', { class: 'row-pager' }, h('label', { class: 'pager-filter-label' }, 'Filter ', filter), text, previous, next);
  const redraw = () => preservingFocus(element.parentElement ?? element, rerender);  // keeps a row's focus too
  filter.addEventListener('input', () => { first = 0; redraw(); });
  previous.addEventListener('click', () => { first = Math.max(0, first - pageRows); redraw(); });
  next.addEventListener('click', () => { first += pageRows; redraw(); });

  return {
    element,
    // The indices of the `total` rows one of whose texts (textsOf(index): strings, or anything
    // else to skip) contains the filter, in any case; every row without a filter.
    matching(total, textsOf) {
      const wanted = filter.value.trim().toLowerCase();
      const indices = [];
      for (let i = 0; i < total; ++i) {
        if (!wanted || textsOf(i).some((t) => typeof t === 'string' && t.toLowerCase().includes(wanted))) indices.push(i);
      }
      return indices;
    },
    // Whether the pager belongs above a table of `total` rows.
    needed: (total) => total > pageRows || filter.value !== '',
    // The indices to show among `matching` (from matching()) of `total`;
    // updates the text and the buttons.
    page(matching, total) {
      if (first >= matching.length) first = Math.max(0, Math.floor((matching.length - 1) / pageRows) * pageRows);
      const shown = matching.slice(first, first + pageRows);
      const Noun = `${noun[0].toUpperCase()}${noun.slice(1)}`;
      const range = `${formatCount(first + 1)}–${formatCount(first + shown.length)}`;
      if (!shown.length) text.textContent = `None of the ${formatCount(total)} ${noun} matches`;
      else if (filter.value) text.textContent = `${Noun} ${range} of the ${formatCount(matching.length)} matching (${formatCount(total)} in all)`;
      else text.textContent = `${Noun} ${range} of ${formatCount(total)}`;
      previous.disabled = first === 0;
      next.disabled = first + pageRows >= matching.length;
      return shown;
    },
    // Clears the filter and turns to the page holding row `index` (a row just added).
    showRow(index) {
      filter.value = '';
      first = Math.floor(index / pageRows) * pageRows;
    },
  };
}
