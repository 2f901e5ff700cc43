// The current problem: one JSON object, replaced (never mutated in place) on every change.
// Listeners get (problem, source) where source names who changed it ('json', 'gpus', 'load', ...)
// so that the part of the page that made the edit need not redraw under the user's cursor.

export function createStore(initial) {
  let problem = initial;
  const listeners = new Set();
  return {
    get: () => problem,
    set(next, source = 'unknown') {
      problem = next;
      for (const listener of listeners) listener(problem, source);
    },
    // edit(copy => { copy.model.hidden_size = 1024; }, 'model')
    edit(change, source) {
      const copy = structuredClone(problem);
      change(copy);
      this.set(copy, source);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
