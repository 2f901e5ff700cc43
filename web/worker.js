// The planner's worker (classic script): loads the WebAssembly module and answers the page's
// requests. page -> worker: {id, type: 'initialize'|'warm-up'|'validate'|'open-problem'|'evaluate'|'solve'|'catalogue'|'regions'|
// 'cancel'|'study-jobs'|'study-summary'|'import-measured'|'calibrate', ...};
// worker -> page: {id, type: 'ready'|'progress'|'done'|'error', ...}. Every call into the module
// takes and returns JSON text; an {"error": ...} answer becomes a {type: 'error'} message.
/* global importScripts, createGeoTrain */
'use strict';

const STEP_BUDGET_MS = 50;

// A small pool planned several times when the page asks ('warm-up'): the engine compiles wasm
// lazily, optimises a function only after it has run a while and swaps the optimised code in
// only at its next call, so without this the user's first plan runs at a third of full speed.
// Measured under Node with the same engine (a 14-GPU plan after k warm-up runs, processor time):
// k = 2 leaves it at 2.5x its steady time, k = 4 at 1.6x, k = 8 at 1.0x; in Chromium the first
// table7 plan took 43 ms after 8 runs and 36 ms after 20 (3 pages each), about 0.5 s of work.
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
const WARM_UP_RUNS = 20;
const WARM_UP_MAX_MS = 4000;  // a slow phone stops warming up after this and plans at part speed
const WARM_UP_STEP_MS = 10;   // slices short enough that a request arriving meanwhile waits little
let warmUpStop = false;       // set by any other request: the user's plan comes first

// Limits on a problem from outside (a link or a file), as web/js/limits.js has them.
const MAX_PROBLEM_CHARS = 5 * 1024 * 1024;
const MAX_JSON_DEPTH = 64;
const MAX_GPUS = 512;
const MAX_LISTED_MESSAGES = 100;

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

// Import and calibration (core/measure/), which an older module lacks.
function measureCall(Module, name, ...texts) {
  if (typeof Module[name] !== 'function') {
    const failure = new Error('This build of the planner module cannot read measurements yet.');
    failure.detail = { kind: 'unavailable', messages: [failure.message] };
    throw failure;
  }
  return parseAnswer(Module[name](...texts));
}

function asText(value) {
  return typeof value === 'string' ? value : JSON.stringify(value === undefined ? {} : value);
}

// The first 100 messages and "and N more": a problem with a million bad fields must not send a
// million lines to the page.
function capMessages(messages) {
  const list = Array.isArray(messages) ? messages : [];
  const more = /^(?:\.\.\.\s*|…\s*)?and [\d,]+ more\.?$/;  // a list the module capped already
  if (list.length <= MAX_LISTED_MESSAGES || (list.length === MAX_LISTED_MESSAGES + 1 && more.test(list[MAX_LISTED_MESSAGES]))) return list;
  return [...list.slice(0, MAX_LISTED_MESSAGES), `and ${(list.length - MAX_LISTED_MESSAGES).toLocaleString('en-US')} more`];
}

function inputFailure(message) {
  const failure = new Error(message);
  failure.detail = { kind: 'input', messages: [message] };
  return failure;
}

// Module answers are JSON text; errors are {"error": {kind, messages}}.
function parseAnswer(text) {
  const value = JSON.parse(text);
  if (value && typeof value === 'object' && !Array.isArray(value) && value.error) {
    const messages = capMessages(value.error.messages || []);
    const failure = new Error(messages.join('\n') || 'error');
    failure.detail = { ...value.error, messages };
    throw failure;
  }
  if (value && Array.isArray(value.warnings)) value.warnings = capMessages(value.warnings);
  return value;
}

// Arrays and objects nested deeper than maxDepth (strings skipped, one pass, no recursion).
function jsonDepthOver(text, maxDepth) {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; ++i) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) ++i;
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

// A problem from a link or a file, as text: the cheap limits first (size, depth, GPU count), then
// the planner's own validation. Answers {problem (the value as given), warnings}; an invalid
// problem is an 'input' error, so the page never takes it in.
function checkLimits(text) {
  if (typeof text !== 'string') throw inputFailure('The problem is not text.');
  if (text.length > MAX_PROBLEM_CHARS) throw inputFailure(`The problem is larger than ${MAX_PROBLEM_CHARS / 1024 / 1024} MB.`);
  if (jsonDepthOver(text, MAX_JSON_DEPTH)) throw inputFailure(`The problem nests more than ${MAX_JSON_DEPTH} levels of brackets; no problem file does.`);
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw inputFailure(`The problem is not valid JSON (${error.message}).`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw inputFailure('It does not hold a problem (a JSON object, {...}).');
  if (Array.isArray(value.gpus) && value.gpus.length > MAX_GPUS) {
    throw inputFailure(`gpus: the pool has ${value.gpus.length.toLocaleString('en-US')} GPUs; the planner takes at most ${MAX_GPUS}.`);
  }
  return value;
}

// A module that did not load cannot check: the problem within the limits is then taken unchecked
// (the editor says the checker is unavailable), as typing into the editor would be.
async function openProblem(text) {
  const value = checkLimits(text);
  let Module;
  try {
    Module = await loadModule();
  } catch {
    return { problem: value, warnings: [], unchecked: true };
  }
  const checked = parseAnswer(Module.validate(text));
  return { problem: value, warnings: checked.warnings || [] };
}

function errorDetail(error) {
  if (error && error.detail) return { ...error.detail, messages: capMessages(error.detail.messages) };
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
      // A method that runs in one go (exact) reports from inside the step: the page sees its nodes,
      // bound and best plan live and keeps that plan if it has to stop the worker.
      const report = (text) => { postMessage({ id, type: 'progress', progress: JSON.parse(text) }); return true; };
      const text = typeof planner.stepReporting === 'function' ? planner.stepReporting(STEP_BUDGET_MS, report) : planner.step(STEP_BUDGET_MS);
      const progress = JSON.parse(text);
      if (progress && progress.error) return parseAnswer(text);
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

// The warm-up plans through the same stepped Planner calls as a real plan, in short slices,
// yielding after each so that any other request stops it (its answer then comes at once).
// Its state is readable as self.geotrainWarmUp (the browser tests look at it, and start a longer one).
async function warmUp(Module, maxRuns = WARM_UP_RUNS) {
  warmUpStop = false;
  const start = performance.now();
  const state = self.geotrainWarmUp = { running: true, runs: 0, stopped: false, elapsed_ms: 0 };
  let runs = 0;
  const noReport = () => true;
  while (runs < maxRuns && !warmUpStop && performance.now() - start < WARM_UP_MAX_MS) {
    const options = JSON.stringify({ method: 'memetic', seed: runs + 1 });
    if (!features(Module).planner) {
      Module.solve(WARM_UP_PROBLEM, options);
    } else {
      const planner = new Module.Planner(WARM_UP_PROBLEM, options);
      try {
        for (;;) {
          const text = typeof planner.stepReporting === 'function' ? planner.stepReporting(WARM_UP_STEP_MS, noReport) : planner.step(WARM_UP_STEP_MS);
          const progress = JSON.parse(text);
          if (progress.done || progress.error) break;
          await yieldToMessages();
          if (warmUpStop) break;
        }
        if (!warmUpStop) planner.result();
      } finally {
        planner.delete();
      }
    }
    runs += 1;
    state.runs = runs;
    await yieldToMessages();
  }
  Object.assign(state, { running: false, stopped: warmUpStop, elapsed_ms: performance.now() - start });
  return { ...state };
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
  if (type === 'open-problem') return { type: 'done', result: await openProblem(message.text) };
  const Module = await loadModule();
  switch (type) {
    case 'initialize':
      return { type: 'ready', features: features(Module) };
    case 'warm-up':
      return { type: 'done', result: await warmUp(Module) };
    case 'validate':
      return { type: 'done', result: parseAnswer(Module.validate(asText(message.problem))) };
    case 'evaluate':
      return { type: 'done', result: parseAnswer(Module.evaluate(asText(message.problem), asText(message.plan))) };
    case 'catalogue':
      return { type: 'done', result: parseAnswer(Module.catalogue()) };
    case 'regions': // grid carbon, PUE and electricity price per region: suggestions for the problem's sites
      return { type: 'done', result: parseAnswer(Module.regions()) };
    case 'simulate': // the plan's 1F1B schedule, event by event (core/sim/): what the timeline draws
      return { type: 'done', result: parseAnswer(Module.simulate(asText(message.problem), asText(message.plan), asText(message.options))) };
    case 'robustness': // the planner's best few plans under jittered links and a straggler (core/sim/robustness)
      return { type: 'done', result: studyCall(Module, 'robustness', asText(message.problem), asText(message.options)) };
    case 'launch': // the plan's launch bundle: rank map, engine arguments, scripts (core/launch/)
      return { type: 'done', result: parseAnswer(Module.launch(asText(message.problem), asText(message.plan), String(message.target || 'all'))) };
    case 'solve':
      return { type: 'done', result: await solve(Module, id, message) };
    case 'import-measured': // tool outputs into the problem, previewed before the page applies them
      return { type: 'done', result: measureCall(Module, 'importMeasured', message.problem ? asText(message.problem) : '', asText(message.files), asText(message.options)) };
    case 'calibrate': // compute_util fitted to measured runs
      return { type: 'done', result: measureCall(Module, 'calibrate', asText(message.problem), asText(message.runs)) };
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
  if (message.type !== 'warm-up') warmUpStop = true;
  if (message.type === 'cancel') {
    cancelled.add(message.id);
    return;
  }
  answer(message).then(
    (reply) => postMessage({ id: message.id, ...reply }),
    (error) => postMessage({ id: message.id, type: 'error', error: errorDetail(error), fatal: isFatal(error) }),
  ).finally(() => cancelled.delete(message.id));
};
