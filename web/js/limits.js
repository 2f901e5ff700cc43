// What the page accepts before it does any work on a problem from outside (a link, a file, storage):
// checked on the text and the parsed value's top level only, never by recursing into it, so that a
// small hostile link (2,000,000 nested brackets, 4,500 GPUs) is refused at once. The planner's own
// limits stay the reference: MAX_GPUS is the module's kMaxGpus, MAX_JSON_DEPTH its kMaxJsonDepth.
// web/worker.js keeps a copy of jsonDepthOver() (a classic script cannot import this module).
export const MAX_PROBLEM_BYTES = 5 * 1024 * 1024;
export const MAX_JSON_DEPTH = 64;
export const MAX_GPUS = 512;
export const MAX_LISTED_MESSAGES = 100;
// The last line of a capped list, the module's ("... and 900 more") or the page's ("and 900 more").
export const MORE_LINE = /^(?:\.\.\.\s*|…\s*)?and ([\d,]+) more\.?$/;

// True when `text` nests arrays and objects deeper than maxDepth (strings are skipped; one pass).
export function jsonDepthOver(text, maxDepth = MAX_JSON_DEPTH) {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; ++i) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) ++i;             // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) {
      inString = true;
    } else if (c === 91 || c === 123) {
      if (++depth > maxDepth) return true;
    } else if (c === 93 || c === 125) {
      --depth;
    }
  }
  return false;
}

// The first `max` messages and, when there are more, a last line "and N more".
export function capMessages(messages, max = MAX_LISTED_MESSAGES) {
  const list = Array.isArray(messages) ? messages : [];
  if (list.length <= max || (list.length === max + 1 && MORE_LINE.test(list[max]))) return list;
  return [...list.slice(0, max), `and ${(list.length - max).toLocaleString('en-US')} more`];
}

// How many messages a capped list stands for: 100 listed plus the N of its last line "and N more".
export function messageTotal(messages) {
  const list = Array.isArray(messages) ? messages : [];
  const capped = MORE_LINE.exec(list[list.length - 1] ?? '');
  return capped ? list.length - 1 + Number(capped[1].replace(/,/g, '')) : list.length;
}
