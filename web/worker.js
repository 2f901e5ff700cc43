// The planner's worker (classic script): loads the WebAssembly module and answers the page's
// requests. page -> worker: {id, type: 'initialize'|'warm-up'|'validate'|'evaluate'|'solve'|'catalogue'|'cancel'|
// 'study-jobs'|'study-summary', ...};
// worker -> page: {id, type: 'ready'|'progress'|'done'|'error', ...}. Every call into the module
// takes and returns JSON text; an {"error": ...} answer becomes a {type: 'error'} message.
/* global importScripts, createGeoTrain */
'use strict';

const STEP_BUDGET_MS = 50;

// A small pool planned once when the page asks ('warm-up'): the engine compiles
// wasm lazily and optimises hot code only after it has run a while, so without
// this the user's first plan runs at about half speed.
const WARM_UP_PROBLEM = JSON.stringify({
  name: 'warm-up',
  model: { hidden_size: 1024, num_layers: 12, seq_length: 1024, vocab_size: 50000, micro_batch_size: 4,
    global_batch_size: 32 },
  gpus: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13].map((i) => ({ id: `g${i}`, peak_tflops: 100 + 40 * i, memory_gib: 24 + 8 * i,
    idle_w: 50, active_w: 300, site: i % 2 ? 'A' : 'B' })),
  network: { intra_site: { bandwidth_gbps: 100, latency_ms: 0.1 }, inter_site: { bandwidth_gbps: 10, latency_ms: 10 } },
  objective: { lambda: 0.5 },
  search: { max_generations: 60, patience: 60 },
});
let modulePromise = null;
const cancelled = new Set();

let moduleLoaded = false;

function loadModule() {
  if (!modulePromise) {
    modulePromise = Promise.resolve().then(() => {
      importScripts('wasm/geotrain.js');
      return createGeoTrain({ locateFile: (file) => 'wasm/' + file });
    }).then((Module) => {
      moduleLoaded = true;
      return Module;
    });
  }
  return modulePromise;
}

function features(Module) {
  return { planner: typeof Module.Planner === 'function', studies: typeof Module.studyJobs === 'function' };
}

// Studies: the module lists a study's solve jobs and summarises their results (the jobs themselves
// are ordinary 'solve' requests, spread by the page over several workers).
function studyCall(Module, name, ...texts) {
  if (typeof Module[name] !== 'function') {
    const failure = new Error('This build of the planner module has no studies yet.');
    failure.detail = { kind: 'unavailable', messages: [failure.message] };
    throw failure;
  }
  return parseAnswer(Module[name](...texts));
}

function asText(value) {
  return typeof value === 'string' ? value : JSON.stringify(value === undefined ? {} : value);
}

// Module answers are JSON text; errors are {"error": {kind, messages}}.
function parseAnswer(text) {
  const value = JSON.parse(text);
  if (value && typeof value === 'object' && !Array.isArray(value) && value.error) {
    const failure = new Error((value.error.messages || []).join('\n') || 'error');
    failure.detail = value.error;
    throw failure;
  }
  return value;
}

function errorDetail(error) {
  if (error && error.detail) return error.detail;
  const text = error && error.message ? error.message : String(error);
  return { kind: 'internal', messages: [text] };
}

// A trap or abort inside the module may leave its memory inconsistent: the page must start a fresh worker.
// (A module that never loaded is not restarted: it would only fail again.)
function isFatal(error) {
  return moduleLoaded && (error instanceof WebAssembly.RuntimeError || /^Aborted\(/.test(String(error && error.message)));
}

const yieldToMessages = () => new Promise((resolve) => setTimeout(resolve, 0));

// Steps a Module.Planner, posting progress after each step and yielding so that a cancel can arrive.
async function runPlanner(Module, id, problem, options) {
  const planner = new Module.Planner(problem, options);
  try {
    const failure = planner.error();
    if (failure) return parseAnswer(failure);
    for (;;) {
      if (cancelled.has(id)) {
        planner.cancel();
        break;
      }
      const progress = JSON.parse(planner.step(STEP_BUDGET_MS));
      postMessage({ id, type: 'progress', progress });
      if (progress.done) break;
      await yieldToMessages();
    }
    return parseAnswer(planner.result());
  } finally {
    try {
      planner.delete();
    } catch {
      // a module that trapped may fail here too; the page restarts the worker anyway
    }
  }
}

async function solve(Module, id, message) {
  const problem = asText(message.problem);
  const options = asText(message.options);
  // A study's jobs ask for no live progress ({live: false}): one plain solve each.
  if (features(Module).planner && message.live !== false) return runPlanner(Module, id, problem, options);
  return parseAnswer(Module.solve(problem, options));
}

async function answer(message) {
  const { id, type } = message;
  const Module = await loadModule();
  switch (type) {
    case 'initialize':
      return { type: 'ready', features: features(Module) };
    case 'warm-up':
      // Two runs: measured in Chromium, one leaves the next plan at about 2x native, two at about 1.5x.
      Module.solve(WARM_UP_PROBLEM, '{"method": "memetic", "seed": 1}');
      Module.solve(WARM_UP_PROBLEM, '{"method": "memetic", "seed": 2}');
      return { type: 'done', result: null };
    case 'validate':
      return { type: 'done', result: parseAnswer(Module.validate(asText(message.problem))) };
    case 'evaluate':
      return { type: 'done', result: parseAnswer(Module.evaluate(asText(message.problem), asText(message.plan))) };
    case 'catalogue':
      return { type: 'done', result: parseAnswer(Module.catalogue()) };
    case 'solve':
      return { type: 'done', result: await solve(Module, id, message) };
    case 'study-jobs':
      return { type: 'done', result: studyCall(Module, 'studyJobs', asText(message.problem), asText(message.options)) };
    case 'study-summary':
      return { type: 'done', result: studyCall(Module, 'summariseStudy', asText(message.problem), asText(message.options), asText(message.results)) };
    default:
      throw new Error(`unknown request type ${JSON.stringify(type)}`);
  }
}

self.onmessage = (event) => {
  const message = event.data || {};
  if (message.type === 'cancel') {
    cancelled.add(message.id);
    return;
  }
  answer(message).then(
    (reply) => postMessage({ id: message.id, ...reply }),
    (error) => postMessage({ id: message.id, type: 'error', error: errorDetail(error), fatal: isFatal(error) }),
  ).finally(() => cancelled.delete(message.id));
};
