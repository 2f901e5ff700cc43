// Robustness (issue 25; docs/simulation.md, "Robustness"): the planner's best few plans, each
// simulated as planned and under random scenarios of jittered link bandwidth and one straggling GPU.
// One row per plan: every scenario's simulated iteration as a dot, the median to 90th percentile as
// a box, the plan as planned as a diamond and the analytic formula's time as a ring; the plan with the
// lowest 90th percentile is starred. A table holds the figures; choosing a plan shows it in the plan
// views (the panel evaluates it: entry ids "plan-1", "plan-2", ...).
import { el, html, niceTicks, round2, svgRoot, truncate } from '../views/svg.js';
import { formatMs, formatNumber } from '../views/format.js';
import { asButton, diamondPath, starPath } from './chart.js';

const WIDTH = 720;
const LEFT = 150;
const RIGHT = 24;
const ROW_H = 34;
const TOP = 10;
const AXIS_H = 40;

export const planId = (index) => `plan-${index + 1}`;

function chain(plan) {
  return (plan.stages || []).map((s) => `${s.gpu ?? (s.gpus || [])[0]}${s.gpus && s.gpus.length > 1 ? ` +${s.gpus.length - 1}` : ''} (${s.layers})`).join(' → ');
}

const pct = (x) => `${x >= 0 ? '+' : '−'}${formatNumber(Math.abs(x) * 100, 1)}%`;

function planLabel(summary, plan, index) {
  const tags = [];
  if (index === summary.most_robust) tags.push('most robust');
  if (index === summary.fastest_as_planned) tags.push('fastest as planned');
  return `Plan ${index + 1}${tags.length ? ` (${tags.join(', ')})` : ''}: ${chain(plan)}`;
}

export function renderRobustness(container, summary, { onSelect }) {
  const plans = Array.isArray(summary.plans) ? summary.plans : [];
  const body = [];
  if (plans.length === 0) body.push(html('p', { class: 'gt-empty-note' }, 'No plan to compare.'));
  else if (summary.scenarios > 0) body.push(html('div', { class: 'st-chart-box' }, chart(summary, plans, onSelect)));
  body.push(table(summary, plans, onSelect));
  body.push(html('figcaption', { class: 'gt-caption' }, captionText(summary, plans)));
  container.replaceChildren(html('figure', { class: 'st-view st-robustness' }, body));
}

function chart(summary, plans, onSelect) {
  const height = TOP + plans.length * ROW_H + AXIS_H;
  const svg = svgRoot(WIDTH, height, `Simulated iteration of ${plans.length} plans under ${summary.scenarios} scenarios each`, 'st-chart st-robustness-chart');
  const values = plans.flatMap((p) => [p.worst_ms, p.analytic_iteration_ms, p.simulated_iteration_ms]);
  const max = Math.max(...values) * 1.04;
  const min = Math.min(...plans.flatMap((p) => [p.analytic_iteration_ms, p.simulated_iteration_ms, ...(p.scenario_ms || [])])) * 0.96;
  const x = (t) => LEFT + ((t - min) / Math.max(1e-12, max - min)) * (WIDTH - LEFT - RIGHT);
  const axisY = TOP + plans.length * ROW_H + 4;
  const axis = el('g', { class: 'gt-axis' }, [el('line', { x1: LEFT, x2: WIDTH - RIGHT, y1: axisY, y2: axisY })]);
  for (const t of niceTicks(min, max, 6)) {
    if (t < min || t > max) continue;
    axis.appendChild(el('line', { x1: round2(x(t)), x2: round2(x(t)), y1: TOP, y2: axisY + 4, class: 'st-grid' }));
    axis.appendChild(el('text', { x: round2(x(t)), y: axisY + 17, 'text-anchor': 'middle' }, formatMs(t)));
  }
  axis.appendChild(el('text', { x: WIDTH - RIGHT, y: axisY + 33, 'text-anchor': 'end', class: 'gt-axis-title' }, 'simulated iteration'));
  svg.appendChild(axis);
  plans.forEach((plan, i) => {
    const y = TOP + i * ROW_H + ROW_H / 2;
    const row = el('g', { class: `st-rob-row${i === summary.most_robust ? ' is-most-robust' : ''}`, 'data-job': planId(i), 'data-p90-ms': plan.p90_ms });
    row.appendChild(el('rect', { x: 0, y: y - ROW_H / 2, width: WIDTH, height: ROW_H, class: 'st-rob-hit' }));
    row.appendChild(el('text', { x: 0, y: y + 4, class: 'st-label' }, `Plan ${i + 1} · ${truncate(chain(plan), 18)}`));
    for (const t of plan.scenario_ms || []) row.appendChild(el('circle', { cx: round2(x(t)), cy: y, r: 2.2, class: 'st-rob-dot' }));
    row.appendChild(el('rect', { x: round2(x(plan.median_ms)), y: y - 7, width: round2(Math.max(1, x(plan.p90_ms) - x(plan.median_ms))), height: 14, class: 'st-rob-box' }));
    row.appendChild(el('circle', { cx: round2(x(plan.analytic_iteration_ms)), cy: y, r: 5, class: 'st-rob-formula' }));
    row.appendChild(el('path', { d: diamondPath(x(plan.simulated_iteration_ms), y, 6), class: 'st-rob-planned' }));
    if (i === summary.most_robust) row.appendChild(el('path', { d: starPath(x(plan.p90_ms) + 14, y, 8, 3.6), class: 'st-knee' }));
    svg.appendChild(asButton(row, `Show the plan: ${planLabel(summary, plan, i)}`, () => onSelect(planId(i), planLabel(summary, plan, i))));
  });
  return svg;
}

function table(summary, plans, onSelect) {
  const scenarios = summary.scenarios > 0;
  const head = ['Plan', 'Stages (layers)', 'Formula', 'Simulated', ...(scenarios ? ['Median', '90th pct', 'Worst', 'Slower (90th)'] : [])];
  const rows = plans.map((plan, i) => {
    const label = planLabel(summary, plan, i);
    const button = html('button', { type: 'button', class: 'st-show', 'data-job': planId(i), 'aria-label': `Show the plan: ${label}` },
      `${i + 1}${i === summary.most_robust ? ' ★' : ''}`);
    button.addEventListener('click', () => onSelect(planId(i), label));
    const cells = [formatMs(plan.analytic_iteration_ms), formatMs(plan.simulated_iteration_ms)];
    if (scenarios) cells.push(formatMs(plan.median_ms), formatMs(plan.p90_ms), `${formatMs(plan.worst_ms)} (${plan.worst_straggler} slow)`, pct(plan.p90_degradation));
    return html('tr', { 'data-job': planId(i), class: i === summary.most_robust ? 'is-most-robust' : undefined }, [
      html('th', { scope: 'row' }, button),
      html('td', { class: 'st-rob-chain' }, chain(plan)),
      ...cells.map((c) => html('td', { class: 'num' }, c)),
    ]);
  });
  return html('div', { class: 'gt-st-scroll' }, html('table', { class: 'gt-st-table st-table st-robustness-table' }, [
    html('caption', null, 'Each plan as planned and under the scenarios. Choose a plan to see it in the plan views.'),
    html('thead', null, html('tr', null, head.map((t, i) => html('th', { scope: 'col', class: i > 1 ? 'num' : undefined }, t)))),
    html('tbody', null, rows)]));
}

function captionText(summary, plans) {
  const parts = [];
  const robust = plans[summary.most_robust];
  const first = plans[0];
  if (summary.scenarios > 0 && robust) {
    parts.push(`${formatNumber(summary.scenarios)} scenarios, seed ${summary.seed}: every link's bandwidth times a factor between ` +
      `${formatNumber(1 - summary.jitter)} and ${formatNumber(1 + summary.jitter)}, and one of the plan's GPUs ${formatNumber(summary.straggler_slowdown)} times slower. `);
    parts.push(summary.most_robust === 0
      ? `The planner's best plan also holds up best: ${formatMs(robust.p90_ms)} at the 90th percentile, ${pct(robust.p90_degradation)} on its simulated time as planned. `
      : `Plan ${summary.most_robust + 1} holds up best: ${formatMs(robust.p90_ms)} at the 90th percentile against ${formatMs(first.p90_ms)} for the planner's best plan (plan 1), though the formula ranks it ${summary.most_robust + 1}. `);
  }
  parts.push(`Dots are scenarios, the box the median to the 90th percentile, the diamond the plan as planned (${summary.sends} sends) and the ring the analytic formula's time.`);
  return parts.join('');
}
