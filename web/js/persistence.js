// Keeps the current problem (and the one before the last load, for undo) in localStorage.
// Storage can be full, disabled or shared with older versions: every failure is silent. What an
// older version stored is read only within the page's limits (a stored 4,500-GPU problem must not
// freeze every new tab): anything beyond them is ignored.
import { jsonDepthOver, MAX_GPUS, MAX_PROBLEM_BYTES } from './limits.js';
import { isPlainObject } from './paths.js';

const CURRENT_KEY = 'geotrain.problem.v1';
const PREVIOUS_KEY = 'geotrain.previous-problem.v1';

function read(key) {
  try {
    const text = localStorage.getItem(key);
    if (text === null || text.length > MAX_PROBLEM_BYTES || jsonDepthOver(text)) return null;
    const value = JSON.parse(text);
    if (!isPlainObject(value) || (Array.isArray(value.gpus) && value.gpus.length > MAX_GPUS)) return null;
    return value;
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}

export const loadStoredProblem = () => read(CURRENT_KEY);
export const storeProblem = (problem) => write(CURRENT_KEY, problem);
export const loadPreviousProblem = () => read(PREVIOUS_KEY);
export const storePreviousProblem = (problem) => write(PREVIOUS_KEY, problem);
