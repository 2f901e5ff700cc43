// A pool of planner workers for a study's independent solve jobs: min(hardware threads, jobs, 8)
// workers (apart from the page's own two), each taking the next job as soon as it is free.
// Cancelling terminates every worker (a plain solve cannot stop early); what finished is kept.
import { Messenger } from '../messenger.js';

const MAX_WORKERS = 8;

export function poolSizeFor(jobCount, threads = navigator.hardwareConcurrency) {
  const available = Number.isInteger(threads) && threads > 0 ? threads : 2;
  return Math.max(1, Math.min(available, jobCount, MAX_WORKERS));
}

// An error as a study result: the shape the module's summary expects for a failed job.
function errorResult(error) {
  return { error: { kind: error?.kind || 'internal', messages: error?.messages || [String(error?.message || error)] } };
}

export class WorkerPool {
  constructor(url = 'worker.js') {
    this.url = url;
    this.messengers = [];
    this.active = 0;
  }

  // Workers the current (or last) run uses.
  get size() {
    return this.active;
  }

  // Runs every job ({id, problem, options}); onJobDone(job, result) after each. Resolves with
  // {results: {id: result}, cancelled} once all finished or the signal aborted.
  async run(jobs, { onJobDone = () => {}, signal, onCrash = () => {} } = {}) {
    const size = poolSizeFor(jobs.length);
    this.active = size;
    while (this.messengers.length < size) this.messengers.push(new Messenger(this.url, { onCrash }));
    const results = {};
    let next = 0;
    const stopAll = () => this.terminate('Cancelled');
    signal?.addEventListener('abort', stopAll, { once: true });

    const lane = async (messenger) => {
      while (next < jobs.length && !signal?.aborted) {
        const job = jobs[next++];
        let result;
        try {
          result = await messenger.call('solve', { problem: job.problem, options: job.options, live: false });
        } catch (error) {
          if (error.aborted || signal?.aborted) return;
          result = errorResult(error);
        }
        if (signal?.aborted) return;
        results[job.id] = result;
        onJobDone(job, result);
      }
    };
    try {
      await Promise.all(this.messengers.slice(0, size).map(lane));
    } finally {
      signal?.removeEventListener('abort', stopAll);
    }
    return { results, cancelled: Boolean(signal?.aborted) };
  }

  // One request of a study that is a single call (robustness) on the pool's first worker, so that
  // the page's own workers stay free; an aborted signal terminates it. Resolves with its result.
  async call(type, payload, { signal, onCrash = () => {} } = {}) {
    this.active = 1;
    if (this.messengers.length === 0) this.messengers.push(new Messenger(this.url, { onCrash }));
    const stop = () => this.terminate('Cancelled');
    signal?.addEventListener('abort', stop, { once: true });
    try {
      return await this.messengers[0].call(type, payload);
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  }

  // Stops every worker now; fresh ones start on the next run.
  terminate(reason = 'Stopped') {
    for (const messenger of this.messengers) messenger.restart(reason);
  }
}
