// Talks to one worker with request ids: call() resolves with the worker's `done` result, forwards
// `progress`, rejects with a WorkerError on `error`. A crash rejects everything pending, is
// reported through onCrash, and a fresh worker takes over; restart() aborts by terminating.

export class WorkerError extends Error {
  constructor(detail, { aborted = false } = {}) {
    const messages = Array.isArray(detail?.messages) ? detail.messages.map(String) : [String(detail)];
    super(messages.join('\n'));
    this.name = 'WorkerError';
    this.kind = detail?.kind || 'internal';
    this.messages = messages;
    this.aborted = aborted;
  }
}

export class Messenger {
  constructor(url, { onCrash = () => {} } = {}) {
    this.url = url;
    this.onCrash = onCrash;
    this.worker = null;
    this.pending = new Map();
    this.nextId = 1;
    this.readyPromise = null;
    this.workerReady = false;
  }

  // Starts the worker if needed; resolves with its features ({planner: bool}).
  ready() {
    if (!this.worker) this.start();
    return this.readyPromise;
  }

  start() {
    const worker = new Worker(this.url);
    worker.onmessage = (event) => this.receive(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.crash(event.message || 'the worker stopped with an uncaught error');
    };
    worker.onmessageerror = () => this.crash('a message from the worker could not be read');
    this.worker = worker;
    this.workerReady = false;
    this.readyPromise = this.call('initialize').then((reply) => {
      this.workerReady = true;
      return reply.features || {};
    });
    this.readyPromise.catch(() => {});  // callers see the failure through ready()
  }

  // Sends {id, type, ...payload}; onProgress gets each progress object; an aborted signal asks the
  // worker to stop early (it then answers with its best result so far).
  call(type, payload = {}, { onProgress, signal } = {}) {
    if (!this.worker) this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
      if (signal) {
        const cancel = () => this.worker?.postMessage({ id, type: 'cancel' });
        if (signal.aborted) queueMicrotask(cancel);
        else signal.addEventListener('abort', cancel, { once: true });
      }
      this.worker.postMessage({ id, type, ...payload });
    });
  }

  receive(message) {
    const entry = this.pending.get(message?.id);
    if (!entry) return;
    if (message.type === 'progress') return entry.onProgress?.(message.progress);
    this.pending.delete(message.id);
    if (message.type === 'error') {
      entry.reject(new WorkerError(message.error));
      if (message.fatal) this.restart('the planner module failed and was restarted');
    } else {
      entry.resolve(message.type === 'ready' ? message : message.result);
    }
  }

  // Terminates the worker: every pending call rejects (aborted); a fresh worker starts on demand.
  restart(reason = 'cancelled') {
    this.worker?.terminate();
    this.worker = null;
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const entry of pending) entry.reject(new WorkerError({ kind: 'aborted', messages: [reason] }, { aborted: true }));
  }

  crash(reason) {
    const wasReady = this.workerReady;
    const pending = [...this.pending.values()];
    this.pending.clear();
    this.worker?.terminate();
    this.worker = null;
    const error = new WorkerError({ kind: 'internal', messages: [`The planner worker crashed: ${reason}`] });
    for (const entry of pending) entry.reject(error);
    this.onCrash(error);
    if (wasReady) this.start();  // a worker that never started would only crash again
  }
}
