// Numbers for people: times in ms or s, energy in J or kJ, plain figures with a sensible precision.

export function formatNumber(value, digits = 4) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return String(value ?? '');
  if (value === 0) return '0';
  const magnitude = Math.abs(value);
  if (magnitude >= 1e6 || magnitude < 1e-3) return value.toExponential(2);
  return Number(value.toPrecision(digits)).toLocaleString('en-US', { maximumFractionDigits: 6 });
}

export function formatMs(ms) {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '–';
  if (Math.abs(ms) >= 1000) return `${formatNumber(ms / 1000)} s`;
  return `${ms.toFixed(ms >= 100 ? 1 : 2)} ms`;
}

export function formatEnergy(joules) {
  if (typeof joules !== 'number' || !Number.isFinite(joules)) return '–';
  if (Math.abs(joules) >= 10000) return `${formatNumber(joules / 1000)} kJ`;
  return `${joules.toFixed(1)} J`;
}

export function formatElapsed(ms) {
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
