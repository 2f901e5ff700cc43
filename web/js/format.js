// Numbers for people. Times and energies have one format on the whole page, the plan views' own
// (web/js/views/format.js: J, kJ or MJ chosen the same way everywhere); counts are integers with
// separators (164,608, never 1.65e+5); other figures keep `digits` significant digits.
import { formatEnergy, formatMs } from './views/format.js';

export { formatEnergy, formatMs };

export function formatNumber(value, digits = 4) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return String(value ?? '');
  if (value === 0) return '0';
  const magnitude = Math.abs(value);
  if (magnitude >= 1e6) return Math.round(value).toLocaleString('en-US');
  if (magnitude < 1e-3) return value.toExponential(2);
  return Number(value.toPrecision(digits)).toLocaleString('en-US', { maximumFractionDigits: 6 });
}

// A count: an integer with separators; '–' when there is none.
export function formatCount(value) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '–';
  return Math.round(value).toLocaleString('en-US');
}

// "1 evaluation", "164,608 evaluations".
export function countOf(value, word, many = `${word}s`) {
  return `${formatCount(value)} ${value === 1 ? word : many}`;
}

// A run's wall time: "26 ms" under a second (0.0 s would say nothing), then "2.4 s".
export function formatElapsed(ms) {
  if (!Number.isFinite(ms)) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

// How an input shows a problem value: numbers and strings as they are, anything else as JSON.
export function fieldText(value) {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

// The value a text field stands for: empty -> undefined (field removed), a number when it reads as
// one, otherwise the text itself (the planner then names the field and says what is wrong).
export function parseFieldText(text, { kind = 'number' } = {}) {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (kind === 'text') return text;
  const number = Number(trimmed);
  return Number.isFinite(number) ? number : trimmed;
}
