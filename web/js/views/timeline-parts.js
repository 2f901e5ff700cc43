// Pieces of the timeline view: the (possibly broken) time scale, the time axis, the phase bands and
// the legend. Kept apart from timeline.js so each file stays small.

import {el, niceTicks, round2, textWidth} from './svg.js';
import {formatMs} from './format.js';

const GAP_PX = 26;

/**
 * Time (ms) to x (px) over [left, right]. With merged micro-batches the steady middle that every
 * stage spends on merged work is cut out: t0..t1 is drawn as a GAP_PX-wide break, so the drawn
 * first and last micro-batches stay readable. Drawn blocks never fall in the cut (they end before
 * the latest start of the first merged micro-batch and start after the earliest end of the last).
 */
export function breakScale(shop, merged, left, right) {
  const total = shop.makespan;
  let cut = null;
  if (merged) {
    let latestStart = -Infinity;
    let earliestEnd = Infinity;
    let slowest = 0;
    for (let q = 0; q < shop.stages; q++) {
      latestStart = Math.max(latestStart, shop.start(merged.from, q));
      earliestEnd = Math.min(earliestEnd, shop.end(merged.to, q));
      slowest = Math.max(slowest, shop.tau[q]);
    }
    const span = earliestEnd - latestStart;
    if (span > 0.15 * total) {
      const pad = Math.min(0.1 * span, 2 * slowest);
      cut = {t0: latestStart + pad, t1: earliestEnd - pad};
    }
  }
  const gapPx = cut ? GAP_PX : 0;
  const shown = total - (cut ? cut.t1 - cut.t0 : 0);
  const k = shown > 0 ? (right - left - gapPx) / shown : 0;
  const x = (t) => {
    if (!cut || t <= cut.t0) return left + t * k;
    if (t >= cut.t1) return left + (t - (cut.t1 - cut.t0)) * k + gapPx;
    return left + cut.t0 * k + (gapPx * (t - cut.t0)) / (cut.t1 - cut.t0);
  };
  x.gap = cut ? {t0: cut.t0, t1: cut.t1, x0: x(cut.t0), x1: x(cut.t1)} : null;
  x.segments = cut ? [[0, cut.t0], [cut.t1, total]] : [[0, total]];
  return x;
}

export function timeAxis(shop, x, top) {
  const group = el('g', {class: 'gt-axis gt-tl-axis'});
  let lastX = -Infinity;
  for (const [t0, t1] of x.segments) {
    const x0 = x(t0);
    const x1 = x(t1);
    group.appendChild(el('line', {x1: round2(x0), x2: round2(x1), y1: top + 0.5, y2: top + 0.5}));
    const ticks = niceTicks(t0, t1, Math.max(1, Math.floor((x1 - x0) / 90)));
    for (const t of ticks) {
      const px = x(t);
      const text = formatMs(t);
      if (px - lastX < textWidth(text, 11) + 10 || px > x(shop.makespan) - 30) continue;
      lastX = px;
      group.appendChild(el('line', {x1: round2(px), x2: round2(px), y1: top, y2: top + 5}));
      group.appendChild(el('text', {x: round2(px), y: top + 17, 'text-anchor': 'middle'}, text));
    }
  }
  const end = x(shop.makespan);
  group.appendChild(el('line', {x1: round2(end), x2: round2(end), y1: top - 2, y2: top + 7, class: 'gt-tl-end'}));
  group.appendChild(el('text', {x: round2(end), y: top + 30, 'text-anchor': 'end', class: 'gt-tl-total'},
                       `${formatMs(shop.makespan)} = iteration`));
  return group;
}

export function phaseBands(shop, x, top, height) {
  const group = el('g', {class: 'gt-tl-phases'});
  const warm = Math.min(shop.warmupEnd, shop.makespan);
  const drain = Math.min(Math.max(shop.drainStart, warm), shop.makespan);
  const phases = [
    {name: 'warm-up', t0: 0, t1: warm, cls: 'is-warmup'},
    {name: 'steady state', t0: warm, t1: drain, cls: 'is-steady'},
    {name: 'drain', t0: drain, t1: shop.makespan, cls: 'is-drain'},
  ];
  for (const phase of phases) {
    if (phase.t1 - phase.t0 <= 0) continue;
    const x0 = x(phase.t0);
    const x1 = x(phase.t1);
    const band = el('g', {class: `gt-tl-phase ${phase.cls}`, 'data-phase': phase.name});
    band.appendChild(el('rect', {x: round2(x0), y: top - 22, width: round2(Math.max(0.5, x1 - x0)), height: 16, rx: 2}));
    const label = x1 - x0 >= textWidth(phase.name, 11) + 8 ? phase.name
      : x1 - x0 >= textWidth(phase.name.split(/[- ]/)[0], 11) + 6 ? phase.name.split(/[- ]/)[0] : '';
    if (label) {
      band.appendChild(el('text', {x: round2((x0 + x1) / 2), y: top - 10, 'text-anchor': 'middle'}, label));
    }
    band.appendChild(el('title', null, `${phase.name}: ${formatMs(phase.t0)} to ${formatMs(phase.t1)}`));
    group.appendChild(band);
  }
  for (const t of [warm, drain]) {
    if (t <= 0 || t >= shop.makespan) continue;
    group.appendChild(el('line', {x1: round2(x(t)), x2: round2(x(t)), y1: top - 6, y2: top + height,
                                  class: 'gt-tl-phase-line'}));
  }
  return group;
}

// extra: items after the sends (stage groups: tensor all-reduce, gradient sync).
export function legend(left, y, bubbleFill, extra = []) {
  const items = [
    {label: 'forward', attrs: {fill: 'hsl(212 58% 70%)'}},
    {label: 'backward', attrs: {fill: 'hsl(212 58% 54%)'}},
    {label: 'send', attrs: {class: 'gt-tl-send'}},
    ...extra,
    {label: 'idle (bubble)', attrs: {fill: bubbleFill, stroke: 'hsl(220 10% 70%)'}},
    {label: 'bottleneck stage', attrs: {fill: 'none', class: 'gt-tl-bottleneck-frame'}},
  ];
  const group = el('g', {class: 'gt-legend'});
  let cursor = left;
  for (const item of items) {
    group.appendChild(el('rect', {x: cursor, y: y - 10, width: 14, height: 11, rx: 1, ...item.attrs}));
    group.appendChild(el('text', {x: cursor + 19, y}, item.label));
    cursor += 19 + textWidth(item.label, 12) + 18;
  }
  return group;
}
