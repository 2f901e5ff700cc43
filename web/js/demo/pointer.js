// "Pointing" at a view: scroll it into view, outline it and put a short caption next to it. Every
// mark is undone by the clear() that pointAt() returns.
import { h } from '../dom.js';

const reducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;

// targets: [{element, caption, spot?}] (spot: an element inside to mark more strongly, e.g. a star).
export function pointAt(targets) {
  const undo = [];
  for (const { element, caption, spot } of targets) {
    element.classList.add('tour-highlight');
    undo.push(() => element.classList.remove('tour-highlight'));
    if (spot) {
      spot.classList.add('tour-spot');
      undo.push(() => spot.classList.remove('tour-spot'));
    }
    if (caption) {
      const note = h('p', { class: 'tour-caption', role: 'note', text: caption });
      const heading = element.querySelector(':scope > h2, :scope > h3');
      if (heading) heading.after(note);
      else element.prepend(note);
      undo.push(() => note.remove());
    }
  }
  const first = targets[0];
  // The view's top at the top of the window: the tour panel sits beside it (wide) or below it (narrow).
  first?.element?.scrollIntoView({ block: 'start', behavior: reducedMotion() ? 'auto' : 'smooth' });
  const scroller = first?.spot?.closest('.gt-scroll, .st-chart-box, .gt-st-scroll');
  if (scroller && scroller.scrollWidth > scroller.clientWidth) scroller.scrollLeft = sidewaysTo(scroller, first.spot);
  return () => undo.forEach((fn) => fn());
}

// Where a box wider than its view scrolls to show `spot`. A drawing: the spot in the middle. A table
// row: the scroll stops at a column's left edge, right after the columns kept in view (sticky), so
// that no cell shows cut in the middle of a word; the row's first cells are then in view.
function sidewaysTo(scroller, spot) {
  const box = scroller.getBoundingClientRect();
  const row = spot.closest('tr');
  if (!row) {
    const rect = spot.getBoundingClientRect();
    return scroller.scrollLeft + rect.left + rect.width / 2 - (box.left + box.width / 2);
  }
  const cells = [...row.cells];
  const kept = cells.filter((c) => getComputedStyle(c).position === 'sticky').reduce((w, c) => w + c.getBoundingClientRect().width, 0);
  const target = spot.matches('td, th') && getComputedStyle(spot).position !== 'sticky' ? spot
    : cells.find((c) => getComputedStyle(c).position !== 'sticky');
  if (!target) return scroller.scrollLeft;
  return Math.max(0, scroller.scrollLeft + target.getBoundingClientRect().left - (box.left + kept));
}

// Resolves with the first element matching selector (polling, since views draw asynchronously);
// rejects after timeoutMs, or as soon as isStale() says the step is no longer wanted.
export function waitFor(selector, { timeoutMs = 20000, isStale = () => false } = {}) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const look = () => {
      if (isStale()) return reject(new StaleStep());
      const found = document.querySelector(selector);
      if (found) return resolve(found);
      if (performance.now() - started > timeoutMs) return reject(new Error(`the view ${selector} did not appear`));
      setTimeout(look, 80);
    };
    look();
  });
}

export class StaleStep extends Error {
  constructor() {
    super('the tour moved on');
    this.stale = true;
  }
}
