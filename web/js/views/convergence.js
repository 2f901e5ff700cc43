// Best objective so far against generation, as a small step chart. Built from a handful of elements
// (one path for the line, a few ticks), so redrawing it on every progress message costs well under
// a few milliseconds even with thousands of points.

import {el, html, svgRoot, figure, emptyView, linearScale, niceTicks, round2} from './svg.js';
import {formatNumber, formatMs, plural} from './format.js';

// The chart reflows to its container's width (the run panel is about 290 px wide) rather than
// scaling a 900 px drawing down, so its text keeps its size.
const MAX_WIDTH = 900;
const MIN_WIDTH = 260;
const HEIGHT = 200;
const M = {left: 64, right: 18, top: 14, bottom: 36};
let WIDTH = MAX_WIDTH;

export function renderConvergence(container, points) {
  const room = container?.clientWidth || 0;
  WIDTH = room > 0 ? Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, Math.floor(room))) : MAX_WIDTH;
  const usable = (Array.isArray(points) ? points : [])
    .filter((p) => p && Number.isFinite(p.objective) && Number.isFinite(xOf(p)));
  if (usable.length === 0) {
    return emptyView(container, 'gt-convergence', 'Waiting for the first generation…');
  }
  const steps = changes(usable);
  const last = usable[usable.length - 1];
  const best = Math.min(...steps.map((p) => p.objective));
  const x0 = xOf(usable[0]);
  const x1 = Math.max(xOf(last), x0 + 1);
  let y0 = best;
  let y1 = Math.max(...steps.map((p) => p.objective));
  if (y1 - y0 < 1e-9) { y0 -= 0.05 * Math.abs(y0 || 1); y1 += 0.05 * Math.abs(y1 || 1); }
  const pad = (y1 - y0) * 0.08;
  const x = linearScale(x0, x1, M.left, WIDTH - M.right);
  const y = linearScale(y0 - pad, y1 + pad, HEIGHT - M.bottom, M.top);

  const label = `Best objective ${formatNumber(best, 4)} after ${plural(xOf(last), 'generation')}`;
  const svg = svgRoot(WIDTH, HEIGHT, label, 'gt-conv-svg');
  svg.appendChild(axes(x, y, x0, x1, y0 - pad, y1 + pad));
  svg.appendChild(el('path', {d: stepPath(steps, last, x, y), class: 'gt-conv-line', fill: 'none'}));
  const lx = x(xOf(last));
  const ly = y(last.objective);
  svg.appendChild(el('circle', {cx: round2(lx), cy: round2(ly), r: 3.5, class: 'gt-conv-dot'}));
  svg.appendChild(el('text', {x: round2(Math.min(lx, WIDTH - M.right) - 6), y: round2(Math.max(M.top + 10, ly - 8)),
                              'text-anchor': 'end', class: 'gt-conv-best'}, formatNumber(last.objective, 4)));

  const caption = [html('strong', null, `Best ${formatNumber(best, 4)}`), ` · generation ${formatNumber(xOf(last))}`];
  if (Number.isFinite(last.evaluations)) caption.push(` · ${plural(last.evaluations, 'evaluation')}`);
  if (Number.isFinite(last.elapsed_ms)) caption.push(` · ${formatMs(last.elapsed_ms)}`);
  return figure(container, 'gt-convergence', svg, caption);
}

function xOf(p) {
  return Number.isFinite(p.generation) ? p.generation : p.evaluations;
}

// A step chart only needs the points where the best objective changes (and the last one).
function changes(points) {
  const out = [points[0]];
  for (let k = 1; k < points.length; k++) {
    if (points[k].objective !== out[out.length - 1].objective) out.push(points[k]);
  }
  return out;
}

function stepPath(steps, last, x, y) {
  let d = `M${round2(x(xOf(steps[0])))},${round2(y(steps[0].objective))}`;
  for (let k = 1; k < steps.length; k++) {
    d += `H${round2(x(xOf(steps[k])))}V${round2(y(steps[k].objective))}`;
  }
  return `${d}H${round2(x(xOf(last)))}`;
}

function axes(x, y, x0, x1, yLow, yHigh) {
  const group = el('g', {class: 'gt-axis gt-conv-axes'});
  const bottom = HEIGHT - M.bottom;
  group.appendChild(el('line', {x1: M.left, x2: WIDTH - M.right, y1: bottom + 0.5, y2: bottom + 0.5}));
  group.appendChild(el('line', {x1: M.left - 0.5, x2: M.left - 0.5, y1: M.top, y2: bottom}));
  for (const t of niceTicks(x0, x1, Math.max(3, Math.floor(WIDTH / 110))).filter(Number.isInteger)) {
    group.appendChild(el('line', {x1: round2(x(t)), x2: round2(x(t)), y1: bottom, y2: bottom + 5}));
    group.appendChild(el('text', {x: round2(x(t)), y: bottom + 17, 'text-anchor': 'middle'}, formatNumber(t)));
  }
  for (const t of niceTicks(yLow, yHigh, 4)) {
    group.appendChild(el('line', {x1: M.left, x2: WIDTH - M.right, y1: round2(y(t)), y2: round2(y(t)),
                                  class: 'gt-grid'}));
    group.appendChild(el('text', {x: M.left - 6, y: round2(y(t) + 4), 'text-anchor': 'end'}, formatNumber(t, 4)));
  }
  group.appendChild(el('text', {x: WIDTH - M.right, y: HEIGHT - 4, 'text-anchor': 'end', class: 'gt-axis-title'},
                       'generation'));
  group.appendChild(el('text', {x: 12, y: M.top + 4, class: 'gt-axis-title',
                                transform: `rotate(-90 12 ${M.top + 4})`, 'text-anchor': 'end'}, 'objective'));
  return group;
}
