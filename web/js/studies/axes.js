// The four figures a trade-off can plot (objectives.md): which field of a summary holds each, its
// unit in words, how its values print and its delta column (Table 7's ΔT and ΔE, and ΔC, ΔM).
import { formatCarbonG, formatEnergy, formatMoney, formatMs } from '../views/format.js';

export const AXES = {
  time: { name: 'time', field: 'iteration_ms', title: 'iteration time T_iter', short: 'T_iter', noun: 'time', format: formatMs, delta: 'delta_t_pct', deltaLabel: 'ΔT' },
  energy: { name: 'energy', field: 'energy_j', title: 'energy per iteration E_iter', short: 'E_iter', noun: 'energy', format: formatEnergy, delta: 'delta_e_pct', deltaLabel: 'ΔE' },
  carbon: { name: 'carbon', field: 'carbon_g', title: 'carbon per iteration, CO2e', short: 'Carbon', noun: 'carbon', format: formatCarbonG, delta: 'delta_c_pct', deltaLabel: 'ΔC' },
  cost: { name: 'cost', field: 'cost', title: 'money per iteration, $', short: 'Money', noun: 'money', format: formatMoney, delta: 'delta_m_pct', deltaLabel: 'ΔM' },
};

export const AXIS_NAMES = Object.keys(AXES);
export const DEFAULT_AXES = ['time', 'energy'];

// The summary's axes: the paper's two when it names none.
export function summaryAxes(summary) {
  const axes = Array.isArray(summary?.axes) && summary.axes.length === 2 ? summary.axes : DEFAULT_AXES;
  return axes.map((name) => AXES[name] ?? AXES.time);
}

export const isDefaultAxes = (axes) => axes[0] === DEFAULT_AXES[0] && axes[1] === DEFAULT_AXES[1];

// "Energy-time trade-off" for the paper's axes, else e.g. "Carbon-money trade-off".
export function tradeoffLabel(axes) {
  if (isDefaultAxes(axes)) return 'Energy-time trade-off';
  const [x, y] = axes.map((a) => AXES[a]?.noun ?? a);
  return `${y[0].toUpperCase()}${y.slice(1)}-${x} trade-off`;
}
