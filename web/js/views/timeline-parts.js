// Pieces of the timeline view: the (possibly broken) time scale, the time axis with the simulated
// and the analytic iteration marked, the phase bands and the legend. Kept apart from timeline.js so
// each file stays small.

import {el, niceTicks, round2, textWidth} from './svg.js';
import {formatMs} from './format.js';

const GAP_PX = 26;

/**
 * Time (ms) to x (px) over [left, right] for times 0..total. `cut` ({t0, t1}, from steadyCut) is
 * drawn as a GAP_PX-wide break: the steady middle of merged micro-batches, where nothing is drawn.
 */
export function breakScale(total, cut, left, right) {
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

/**
 * Ticks over the drawn time, the simulated iteration's end as a solid mark and, when it differs,
 * the analytic formula's as a dashed one, each labelled with its time (`endLabel` in place of the first).
 */
export function timeAxis(x, top, simulatedMs, analyticMs, endLabel = null) {
  const group = el('g', {class: 'gt-axis gt-tl-axis'});
  let lastX = -Infinity;
  const marks = [x(simulatedMs), ...(analyticMs > 0 ? [x(analyticMs)] : [])];
  for (const [t0, t1] of x.segments) {
    const x0 = x(t0);
    const x1 = x(t1);
    group.appendChild(el('line', {x1: round2(x0), x2: round2(x1), y1: top + 0.5, y2: top + 0.5}));
    const ticks = niceTicks(t0, t1, Math.max(1, Math.floor((x1 - x0) / 90)));
    for (const t of ticks) {
      const px = x(t);
      const text = formatMs(t);
      if (px - lastX < textWidth(text, 11) + 10 || marks.some((m) => Math.abs(px - m) < 30)) continue;
      lastX = px;
      group.appendChild(el('line', {x1: round2(px), x2: round2(px), y1: top, y2: top + 5}));
      group.appendChild(el('text', {x: round2(px), y: top + 17, 'text-anchor': 'middle'}, text));
    }
  }
  const end = x(simulatedMs);
  group.appendChild(el('line', {x1: round2(end), x2: round2(end), y1: top - 2, y2: top + 7, class: 'gt-tl-end'}));
  const label = endLabel ?? `${formatMs(simulatedMs)} simulated`;
  if (!(analyticMs > 0) || Math.abs(analyticMs - simulatedMs) <= 1e-9 * simulatedMs) {
    group.appendChild(el('text', {x: round2(end), y: top + 30, 'text-anchor': 'end', class: 'gt-tl-total'},
                         analyticMs > 0 ? `${formatMs(simulatedMs)} = simulated = formula` : label));
    return group;
  }
  const formula = x(analyticMs);
  group.appendChild(el('line', {x1: round2(formula), x2: round2(formula), y1: top - 2, y2: top + 7,
                                class: 'gt-tl-formula-end'}));
  // Both labels end at their mark; the earlier one moves left if the later one's text would cover it.
  const formulaText = `formula ${formatMs(analyticMs)}`;
  const [early, late] = end < formula ? [[end, label, 'gt-tl-total'], [formula, formulaText, 'gt-tl-formula']]
    : [[formula, formulaText, 'gt-tl-formula'], [end, label, 'gt-tl-total']];
  group.appendChild(el('text', {x: round2(late[0]), y: top + 30, 'text-anchor': 'end', class: late[2]}, late[1]));
  const earlyX = Math.min(early[0], late[0] - textWidth(late[1], 11.5) - 12);
  group.appendChild(el('text', {x: round2(earlyX), y: top + 30, 'text-anchor': 'end', class: early[2]}, early[1]));
  return group;
}

/** A dashed line down the plot where the analytic formula says the iteration ends. */
export function formulaLine(x, analyticMs, top, height) {
  const px = round2(x(analyticMs));
  return el('line', {x1: px, x2: px, y1: top - 6, y2: top + height, class: 'gt-tl-formula-line'},
            el('title', null, `The analytic formula's iteration: ${formatMs(analyticMs)}`));
}

/**
 * Warm-up (until the last stage starts its first backward: the pipeline is full), steady state, and
 * cool-down (from the end of the first stage's last forward: no micro-batch is left to enter), where
 * the simulated schedule has them. With fewer micro-batches than stages there is no steady state.
 */
export function phaseBands(schedule, x, top, height) {
  const group = el('g', {class: 'gt-tl-phases'});
  const end = schedule.makespan;
  const warm = Math.min(schedule.warmupEnd, end);
  const cool = Math.min(Math.max(schedule.cooldownStart, warm), end);
  const phases = [
    {name: 'warm-up', t0: 0, t1: warm, cls: 'is-warmup',
     why: 'only forwards on the last stage until the first micro-batch reaches it'},
    {name: 'steady state', t0: warm, t1: cool, cls: 'is-steady', why: 'stages alternate one forward and one backward'},
    {name: 'cool-down', t0: cool, t1: end, cls: 'is-cooldown', why: 'no micro-batch left to enter: the backwards drain'},
  ];
  for (const phase of phases) {
    if (phase.t1 - phase.t0 <= 0) continue;
    const x0 = x(phase.t0);
    const x1 = x(phase.t1);
    const band = el('g', {class: `gt-tl-phase ${phase.cls}`, 'data-phase': phase.name,
                          'data-start-ms': phase.t0, 'data-end-ms': phase.t1});
    band.appendChild(el('rect', {x: round2(x0), y: top - 22, width: round2(Math.max(0.5, x1 - x0)), height: 16, rx: 2}));
    const short = phase.name.split(/[- ]/)[0];
    const label = x1 - x0 >= textWidth(phase.name, 11) + 8 ? phase.name : x1 - x0 >= textWidth(short, 11) + 6 ? short : '';
    if (label) band.appendChild(el('text', {x: round2((x0 + x1) / 2), y: top - 10, 'text-anchor': 'middle'}, label));
    band.appendChild(el('title', null, `${phase.name}: ${formatMs(phase.t0)} to ${formatMs(phase.t1)} (${phase.why})`));
    group.appendChild(band);
  }
  for (const t of [warm, cool]) {
    if (t <= 0 || t >= end) continue;
    group.appendChild(el('line', {x1: round2(x(t)), x2: round2(x(t)), y1: top - 6, y2: top + height,
                                  class: 'gt-tl-phase-line'}));
  }
  return group;
}

// extra: items after the transfers (stage groups: tensor all-reduce, gradient sync).
export function legend(left, y, bubbleFill, {blocking, transfers, extra = []}) {
  const items = [
    {label: 'forward', attrs: {class: 'gt-tl-fwd-key'}},
    {label: 'backward', attrs: {class: 'gt-tl-bwd-key'}},
    ...(blocking ? [{label: 'sending (GPU waits)', attrs: {class: 'gt-tl-sending'}}] : []),
    ...(transfers ? [{label: 'activation ↓', attrs: {class: 'gt-tl-transfer is-forward'}, thin: true},
                     {label: 'gradient ↑', attrs: {class: 'gt-tl-transfer is-backward'}, thin: true}] : []),
    ...extra,
    {label: 'idle (bubble)', attrs: {fill: bubbleFill, stroke: 'hsl(220 10% 70%)'}},
  ];
  const group = el('g', {class: 'gt-legend'});
  let cursor = left;
  for (const item of items) {
    group.appendChild(el('rect', {x: cursor, y: item.thin ? y - 6 : y - 10, width: 14, height: item.thin ? 3 : 11,
                                  rx: 1, ...item.attrs}));
    group.appendChild(el('text', {x: cursor + 19, y}, item.label));
    cursor += 19 + textWidth(item.label, 12) + 16;
  }
  return group;
}
