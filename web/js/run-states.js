// What the run panel says about a method's budget before a run and about how the run ended: an
// exact run stopped by its time or node budget, or by a cancel, says "not proven optimal" and its
// gap rather than a plain "found a plan".
import { formatCount, formatNumber } from './format.js';
import { gapText as provenGap } from './gap-text.js';

// Exact's node budget when the page sets none (ExactSettings::max_nodes in core/search/exact/exact.hpp).
export const EXACT_MAX_NODES = 2_000_000_000;
const BRUTE_FORCE_MAX_PLANS = 100_000_000;

const seconds = (s) => `${formatNumber(s)} s`;

// effective: the validated problem (defaults filled in), or null before the first check.
export function budgetText(method, effective) {
  const search = effective?.search ?? {};
  const time = Number.isFinite(search.time_limit_s) ? seconds(search.time_limit_s) : 'the time limit';
  switch (method) {
    case 'memetic': {
      const parts = [`at most ${time}`];
      if (Number.isFinite(search.max_generations)) parts.push(`${formatCount(search.max_generations)} generations`);
      if (Number.isFinite(search.patience)) parts.push(`or ${formatCount(search.patience)} generations without improvement`);
      return `Budget: ${parts.join(', ')}.`;
    }
    case 'exact':
      return `Budget: ${time} or ${formatCount(EXACT_MAX_NODES)} nodes (Search settings' time limit); a run that stops there keeps its best plan, not proven optimal.`;
    case 'brute-force':
      return `Budget: every plan, refused above ${formatCount(BRUTE_FORCE_MAX_PLANS)} plans.`;
    default:
      return 'Budget: none needed, a baseline takes well under a second.';
  }
}

const gapText = (result) => (Number.isFinite(result.gap) ? `: its objective is ${provenGap(result.objective, result.gap)}` : '');

// {text, kind} for the status line after a run; kind 'good' only when nothing is left unsaid.
export function stopText(result, { cancelled = false } = {}) {
  const method = result?.method ?? 'the method';
  if (method === 'exact' || result?.optimal !== undefined) {
    if (result.optimal === true) return { text: `Done: ${method} proved this plan optimal.`, kind: 'good' };
    const why = {
      time_limit: 'Stopped at the time limit',
      node_limit: 'Stopped at the node limit',
      cancelled: 'Cancelled',
    }[result.stop_reason] ?? (cancelled ? 'Cancelled' : 'Stopped');
    return { text: `${why}: ${method}'s best plan so far, not proven optimal${gapText(result)}.`, kind: 'warn' };
  }
  if (cancelled || result?.stop_reason === 'cancelled') return { text: 'Cancelled: showing the best plan found so far.', kind: 'warn' };
  return { text: `Done: ${method} found a plan.`, kind: 'good' };
}
