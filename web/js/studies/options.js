// The studies panel's choices: which study, and the options it takes, read from the form into the
// module's study_options JSON. Lists are typed as "0, 0.1, 0.5"; an empty field means the default.
import { AXIS_NAMES, DEFAULT_AXES, isDefaultAxes, tradeoffLabel } from './axes.js';

export const STUDIES = [
  {
    kind: 'pareto', label: 'Trade-off of two figures',
    blurb: 'Two of time, energy, carbon and money, traded: sweeps lambda from 0 to 1, several seeds each, weighting the first chosen figure by lambda and the second by 1 - lambda (time against energy is the paper\'s sweep): the frontier of plans where neither figure can improve without the other getting worse, and its knee.',
    fields: ['axes', 'lambdas', 'seeds', 'method', 'time_limit_s'],
  },
  {
    kind: 'subset', label: 'GPU-subset sweep',
    blurb: 'The best plan using exactly k GPUs, for k = 1 up to the pool size: where adding GPUs stops helping (the paper\'s Fig. 2a). With parallelism "hybrid" k counts stages, each of which may be a group, and each point says how many GPUs it uses.',
    fields: ['method', 'time_limit_s'],
  },
  {
    kind: 'latency', label: 'Cross-site latency sweep',
    blurb: 'Rescales every cross-site link so that the base latency takes each value (asymmetries kept), and plans each point with the planner and with METIS-style, improved (the paper\'s Fig. 8b).',
    fields: ['values', 'seeds', 'method', 'time_limit_s'],
  },
  {
    kind: 'bandwidth', label: 'Cross-site bandwidth sweep',
    blurb: 'Rescales every cross-site link so that the base bandwidth takes each value (asymmetries kept), planner against METIS-style, improved (the paper\'s Fig. 8c).',
    fields: ['values', 'seeds', 'method', 'time_limit_s'],
  },
  {
    kind: 'split', label: 'Uniform against non-uniform split',
    blurb: 'The planner\'s GPUs in its order, once with equal layers per GPU and once with the planner\'s own split (the paper\'s Fig. 2b).',
    fields: ['method', 'time_limit_s'],
  },
  {
    kind: 'parallelism', label: 'Pipeline only against stage groups',
    blurb: 'Plans the same pool twice, once with one GPU per stage (the paper\'s space) and once with stage groups (tensor and data parallel GPUs of one node serving a stage together): what groups buy in time, energy and GPUs used.',
    fields: ['seeds', 'method', 'time_limit_s'],
  },
  {
    kind: 'where', label: 'Where to train',
    blurb: 'Plans on each site alone and on every pair of sites, with the problem\'s objective and the whole problem\'s references so that the objectives compare: the best place to train, and the fastest, the cleanest (least carbon) and the cheapest.',
    fields: ['seeds', 'method', 'time_limit_s'],
  },
  {
    kind: 'robustness', label: 'Robustness: jittered links and a straggler', direct: true,
    blurb: 'The planner\'s best few plans, each simulated event by event as planned and under random scenarios in which every link\'s bandwidth is off by up to the jitter and one of the plan\'s GPUs is slower: prefer the plan that degrades least. The same seed gives the same scenarios.',
    fields: ['plans', 'scenarios', 'jitter', 'straggler_slowdown', 'method', 'time_limit_s'],
  },
  {
    kind: 'replicas', label: 'One pipeline against replicas',
    blurb: 'Rescales every cross-site link (and pipe capacity) so that the base wide-area bandwidth takes each value, and plans each point twice: one pipeline, and the planner\'s choice of replicas (search.replicas "auto"), for each sync period H: where one pipeline gives way to replicas. Needs GPUs on two sites or more; one seed per plan.',
    fields: ['values', 'sync_every', 'method', 'time_limit_s'],
  },
];

export const DEFAULT_VALUES = {
  latency: '0.1, 1, 5, 10, 50, 100',
  bandwidth: '0.5, 2, 5, 10, 50, 100',
  replicas: '1, 10, 25, 50, 100, 200, 400',
};
export const DEFAULT_LAMBDAS = '0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1';

export const studyByKind = (kind) => STUDIES.find((s) => s.kind === kind);

// "carbon,cost" (the form's axes field) -> ["carbon", "cost"].
export const axesOf = (text) => String(text || DEFAULT_AXES.join(',')).split(',').map((a) => a.trim());

// What a run of this study is called where its plans are shown: the trade-off names its axes.
export function studyLabel(kind, fields = {}) {
  if (kind === 'pareto') return tradeoffLabel(axesOf(fields.axes));
  return studyByKind(kind)?.label ?? kind;
}

// "0, 0.1; 0.5" -> [0, 0.1, 0.5]; throws with a message naming the field when a part is no number.
export function parseList(text, field) {
  const parts = String(text).split(/[\s,;]+/).filter(Boolean);
  return parts.map((part) => {
    const value = Number(part);
    if (!Number.isFinite(value)) throw new OptionError(field, `"${part}" is not a number`);
    return value;
  });
}

export class OptionError extends Error {
  constructor(field, message) {
    super(`study.${field}: ${message}`);
    this.field = field;
  }
}

// fields: {axes ("time,energy"), lambdas, values, seeds, method, time_limit_s, plans, scenarios, jitter,
// straggler_slowdown} as typed. Range checks are the module's
// (its messages name study.<field>, and the panel shows them at that field).
export function studyOptions(kind, fields) {
  const study = studyByKind(kind);
  if (!study) throw new OptionError('study', `unknown study "${kind}"`);
  const options = { study: kind };
  const uses = (name) => study.fields.includes(name);
  if (uses('axes')) {
    const axes = axesOf(fields.axes);
    for (const [i, a] of axes.entries()) if (!AXIS_NAMES.includes(a)) throw new OptionError(`axes[${i}]`, `unknown figure "${a}"`);
    // The paper's two are the default: the options stay exactly what they always were.
    if (!isDefaultAxes(axes)) options.axes = axes;
  }
  if (uses('lambdas') && fields.lambdas.trim()) options.lambdas = parseList(fields.lambdas, 'lambdas');
  if (uses('values') && fields.values.trim()) options.values = parseList(fields.values, 'values');
  if (uses('sync_every') && String(fields.sync_every ?? '').trim()) options.sync_every = parseList(fields.sync_every, 'sync_every');
  if (uses('seeds') && String(fields.seeds).trim()) options.seeds = parseList(fields.seeds, 'seeds')[0];
  if (uses('method')) options.method = fields.method;
  if (uses('time_limit_s') && String(fields.time_limit_s).trim()) options.time_limit_s = parseList(fields.time_limit_s, 'time_limit_s')[0];
  for (const name of ['plans', 'scenarios', 'jitter', 'straggler_slowdown']) {
    if (uses(name) && String(fields[name] ?? '').trim()) options[name] = parseList(fields[name], name)[0];
  }
  return options;
}
