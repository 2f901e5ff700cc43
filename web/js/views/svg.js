// Tiny DOM helpers shared by the views. Everything that comes from a problem or a result goes in
// through textContent or setAttribute, never through HTML parsing: ids, sites and types are untrusted.

export const SVG_NS = 'http://www.w3.org/2000/svg';

function fill(node, attrs, children) {
  if (attrs) {
    for (const [name, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      node.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(node, children);
  return node;
}

// Appends strings as text nodes and nodes as they are; arrays nest, null/undefined/false are skipped.
export function append(node, children) {
  if (children === undefined || children === null || children === false) return node;
  if (Array.isArray(children)) {
    for (const child of children) append(node, child);
  } else if (typeof children === 'string' || typeof children === 'number') {
    node.appendChild(document.createTextNode(String(children)));
  } else {
    node.appendChild(children);
  }
  return node;
}

/** An SVG element: el('rect', {x: 0, width: 10}, [children]). */
export function el(name, attrs, children) {
  return fill(document.createElementNS(SVG_NS, name), attrs, children);
}

/** An HTML element: html('td', {class: 'num'}, '12 ms'). */
export function html(name, attrs, children) {
  return fill(document.createElement(name), attrs, children);
}

/** Empties the container the caller owns. */
export function clear(container) {
  container.replaceChildren();
  return container;
}

/**
 * An accessible root <svg>: width follows the container, the viewBox keeps the drawing's
 * proportions, but it never shrinks below its drawn width (its text would fall under 9 px on a
 * phone): a narrower container scrolls it instead (.gt-view and .view scroll sideways).
 */
export function svgRoot(width, height, label, className) {
  return el('svg', {
    class: className,
    viewBox: `0 0 ${round2(width)} ${round2(height)}`,
    width: '100%',
    style: `min-width: ${Math.ceil(width)}px`,
    preserveAspectRatio: 'xMinYMin meet',
    role: 'img',
    'aria-label': label,
  }, el('title', null, label));
}

/**
 * The width to draw a view at: its box's, between `min` and `max` (900 px, the width the views were
 * designed at). A phone's 299 px box then gets a 299 px drawing, not a 900 px one to scroll through.
 */
export function viewWidth(container, {min = 280, max = 900} = {}) {
  const available = Math.floor(container?.clientWidth || 0);
  return available > 0 ? Math.max(min, Math.min(max, available)) : max;
}

/** A <title> child: the browser shows it as a native tooltip on hover. */
export function tip(text) {
  return el('title', null, text);
}

export function round2(x) {
  return Math.round(x * 100) / 100;
}

/** A linear map from [d0, d1] to [r0, r1]; a zero-width domain maps everything to r0. */
export function linearScale(d0, d1, r0, r1) {
  const span = d1 - d0;
  const scale = (x) => (span === 0 ? r0 : r0 + ((x - d0) / span) * (r1 - r0));
  scale.domain = [d0, d1];
  scale.range = [r0, r1];
  return scale;
}

/** About `count` round tick values covering [min, max] (steps of 1, 2 or 5 times a power of ten). */
export function niceTicks(min, max, count = 5) {
  if (!(Number.isFinite(min) && Number.isFinite(max))) return [];
  if (max < min) [min, max] = [max, min];
  if (max === min) return [min];
  const raw = (max - min) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) || raw;
  const ticks = [];
  const first = Math.ceil(min / step - 1e-9) * step;
  for (let t = first; t <= max + step * 1e-9; t += step) ticks.push(Math.abs(t) < step * 1e-9 ? 0 : t);
  return ticks;
}

/** Cuts text to about maxChars characters with an ellipsis (for labels inside narrow blocks). */
export function truncate(text, maxChars) {
  const s = String(text ?? '');
  if (maxChars <= 0) return '';
  if (s.length <= maxChars) return s;
  return maxChars <= 1 ? '…' : s.slice(0, maxChars - 1) + '…';
}

/** Rough width of a label in px for the views' sans-serif font (no layout needed, so cheap). */
export function textWidth(text, fontPx = 12) {
  return String(text ?? '').length * fontPx * 0.58;
}

let idCounter = 0;
/** A document-unique id for <defs> (markers, patterns, clip paths) so several views can share a page. */
export function uniqueId(prefix) {
  idCounter += 1;
  return `${prefix}-${idCounter}`;
}

/**
 * Fills the container with <figure class="gt-view ..."> holding `body` and an optional caption. A
 * drawing sits in its own sideways-scrolling box, so that on a narrow screen it scrolls while the
 * caption and the lists around it stay in the column.
 */
export function figure(container, className, body, caption) {
  const wrap = (part) => (part instanceof SVGSVGElement ? html('div', {class: 'gt-scroll'}, part) : part);
  const node = html('figure', {class: `gt-view ${className}`}, Array.isArray(body) ? body.map(wrap) : wrap(body));
  if (caption) append(node, html('figcaption', {class: 'gt-caption'}, caption));
  clear(container).appendChild(node);
  return node;
}

/** What a view shows when there is no plan to draw (an error result, or nothing yet). */
export function emptyView(container, className, message) {
  return figure(container, `${className} gt-empty`, html('p', {class: 'gt-empty-note'}, message));
}

/** Diagonal hatching in <defs>, for infeasible stages and pipeline bubbles; returns the fill url. */
export function hatchPattern(defs, prefix, colour, background = 'none', spacing = 6) {
  const id = uniqueId(prefix);
  defs.appendChild(el('pattern', {id, width: spacing, height: spacing, patternUnits: 'userSpaceOnUse',
                                  patternTransform: 'rotate(45)'}, [
    el('rect', {width: spacing, height: spacing, fill: background}),
    el('line', {x1: 0, y1: 0, x2: 0, y2: spacing, stroke: colour, 'stroke-width': spacing / 3}),
  ]));
  return `url(#${id})`;
}
