// The frame every study chart shares: an accessible SVG with a plot area, linear or log scales,
// ticked axes with titles, and points that act as buttons (click, Enter or Space).
import { el, linearScale, niceTicks, round2, svgRoot, tip } from '../views/svg.js';

export const WIDTH = 720;
export const HEIGHT = 380;
export const MARGIN = { top: 22, right: 28, bottom: 52, left: 76 };

// Pads [min, max] by a share of its span (or of the value when the span is zero).
export function paddedExtent(values, share = 0.06) {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return [0, 1];
  let min = Math.min(...finite);
  let max = Math.max(...finite);
  const span = max - min || Math.abs(max) || 1;
  min -= span * share;
  max += span * share;
  return [min, max];
}

export function logScale(d0, d1, r0, r1) {
  const l0 = Math.log10(d0);
  const l1 = Math.log10(d1);
  const scale = (x) => (l1 === l0 ? r0 : r0 + ((Math.log10(x) - l0) / (l1 - l0)) * (r1 - r0));
  scale.domain = [d0, d1];
  scale.log = true;
  return scale;
}

// Powers of ten and their 2x, 5x inside [min, max] (only the powers when there are many).
export function logTicks(min, max) {
  const ticks = [];
  for (let p = Math.floor(Math.log10(min)); p <= Math.ceil(Math.log10(max)); p++) {
    for (const m of [1, 2, 5]) {
      const t = m * 10 ** p;
      if (t >= min * (1 - 1e-9) && t <= max * (1 + 1e-9)) ticks.push(Number(t.toPrecision(6)));
    }
  }
  return ticks.length > 9 ? ticks.filter((t) => Number.isInteger(Math.log10(t))) : ticks;
}

// {svg, plot (a <g>), x, y, left, right, top, bottom, legendY} for the given domains; legend: true
// leaves a row under the x axis for legendRow() at legendY; left: the plot's left edge.
export function chartFrame({ label, className, xDomain, yDomain, xLog = false, xTitle, yTitle, xFormat, yFormat,
  height = HEIGHT, xTicks, legend = false, left: leftMargin }) {
  const svg = svgRoot(WIDTH, height, label, `st-chart ${className}`);
  const left = leftMargin ?? MARGIN.left;  // wider for long tick labels (g CO2e, $)
  const right = WIDTH - MARGIN.right;
  const top = MARGIN.top;
  const bottom = height - MARGIN.bottom - (legend ? 26 : 0);
  const x = xLog ? logScale(...xDomain, left, right) : linearScale(...xDomain, left, right);
  const y = linearScale(...yDomain, bottom, top);
  const axes = el('g', { class: 'gt-axis st-axes' });
  axes.appendChild(el('line', { x1: left, x2: right, y1: bottom, y2: bottom }));
  axes.appendChild(el('line', { x1: left, x2: left, y1: top, y2: bottom }));
  const xs = xTicks ?? (xLog ? logTicks(...xDomain) : niceTicks(...xDomain, 6));
  for (const t of xs) {
    const px = round2(x(t));
    axes.appendChild(el('line', { x1: px, x2: px, y1: bottom, y2: bottom + 5 }));
    axes.appendChild(el('text', { x: px, y: bottom + 18, 'text-anchor': 'middle' }, xFormat(t)));
  }
  for (const t of niceTicks(...yDomain, 5)) {
    const py = round2(y(t));
    axes.appendChild(el('line', { class: 'st-grid', x1: left, x2: right, y1: py, y2: py }));
    axes.appendChild(el('text', { x: left - 8, y: py + 4, 'text-anchor': 'end' }, yFormat(t)));
  }
  axes.appendChild(el('text', { x: (left + right) / 2, y: bottom + 40, 'text-anchor': 'middle', class: 'gt-axis-title' }, xTitle));
  axes.appendChild(el('text', {
    x: 16, y: (top + bottom) / 2, 'text-anchor': 'middle', class: 'gt-axis-title',
    transform: `rotate(-90 16 ${round2((top + bottom) / 2)})`,
  }, yTitle));
  svg.appendChild(axes);
  const plot = svg.appendChild(el('g', { class: 'st-plot' }));
  return { svg, plot, x, y, left, right, top, bottom, legendY: bottom + 64 };
}

// Makes an SVG element behave as a button that selects a job's plan.
export function asButton(node, label, onActivate) {
  node.setAttribute('role', 'button');
  node.setAttribute('tabindex', '0');
  node.setAttribute('aria-label', label);
  node.appendChild(tip(label));
  node.addEventListener('click', onActivate);
  node.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onActivate();
    }
  });
  return node;
}

// A five-pointed star centred at (cx, cy).
export function starPath(cx, cy, outer = 9, inner = 4) {
  const points = [];
  for (let k = 0; k < 10; k++) {
    const r = k % 2 === 0 ? outer : inner;
    const angle = -Math.PI / 2 + (k * Math.PI) / 5;
    points.push(`${round2(cx + r * Math.cos(angle))},${round2(cy + r * Math.sin(angle))}`);
  }
  return `M${points.join('L')}Z`;
}

export function diamondPath(cx, cy, r = 7) {
  return `M${round2(cx)},${round2(cy - r)}L${round2(cx + r)},${round2(cy)}L${round2(cx)},${round2(cy + r)}L${round2(cx - r)},${round2(cy)}Z`;
}

// A legend row of [symbol node, text] pairs starting at (x, y).
export function legendRow(x, y, items) {
  const group = el('g', { class: 'gt-legend st-legend' });
  let at = x;
  for (const [symbol, text] of items) {
    const g = el('g', { transform: `translate(${round2(at)} ${round2(y)})` }, [symbol, el('text', { x: 14, y: 4 }, text)]);
    group.appendChild(g);
    at += 28 + text.length * 6.6;
  }
  return group;
}
