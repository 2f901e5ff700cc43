// What a proven gap says, in words that cannot be read as closeness (issue 24 point 4). A gap g is
// (objective - bound) / objective: the optimum is at least bound = objective x (1 - g), so the plan
// is at most objective / bound = 1 / (1 - g) times the optimum. "Within 68.7 % of optimal" read as
// "68.7 % as good"; "at most 3.19x the optimum" cannot be.
import { formatNumber } from './format.js';

// `digits` significant digits, rounded up (an "at most" stays true) or down (an "at least" does).
export function roundUp(x, digits) {
  const step = 10 ** (Math.floor(Math.log10(Math.abs(x))) - digits + 1);
  return Number((Math.ceil(x / step - 1e-9) * step).toPrecision(digits));
}
export function roundDown(x, digits) {
  if (x === 0) return 0;
  const step = 10 ** (Math.floor(Math.log10(Math.abs(x))) - digits + 1);
  return Number((Math.floor(x / step + 1e-9) * step).toPrecision(digits));
}

// How far above the optimum the plan can be at most: "at most 3.19× the optimum" for a factor of
// 1.1 or more, "at most 2.04 % above the optimum" below, "less than 0.01 % above the optimum" for
// what only rounding separates; '' without a gap, 'proven optimal' at 0.
export function gapFactorText(gap) {
  if (!Number.isFinite(gap)) return '';
  if (gap <= 0) return 'proven optimal';
  if (gap >= 1) return 'no bound above 0 is proven for the optimum';
  const ratio = 1 / (1 - gap);
  if (ratio >= 1.1) return `at most ${formatNumber(roundUp(ratio, 3), 3)}× the optimum`;
  const percent = (ratio - 1) * 100;
  return percent < 0.01 ? 'less than 0.01 % above the optimum' : `at most ${formatNumber(roundUp(percent, 3), 3)} % above the optimum`;
}

// The same with the bound itself: "at most 3.19× the optimum; the optimum is at least 0.2773".
export function gapText(objective, gap) {
  const factor = gapFactorText(gap);
  if (!factor || gap <= 0 || gap >= 1 || !Number.isFinite(objective)) return factor;
  return `${factor}; the optimum is at least ${formatNumber(roundDown(objective * (1 - gap), 4), 4)}`;
}
