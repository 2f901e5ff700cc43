// The Launch view: the commands and configuration that run the last plan on real engines
// (Megatron-Core, PyTorch's torch.distributed.pipelining, DeepSpeed, FlashFlex), built by the same
// C++ as `geotrain launch` (core/launch/). It says which engine the plan was made for
// (search.engine) and what the unconstrained plan would gain; an engine that cannot run the plan
// offers to plan again for it. Every text comes from the bundle and goes in as text, never HTML.
import { h, setChildren } from '../dom.js';
import { helpLink } from '../help-link.js';
import { copyText, downloadText } from '../files.js';
import { formatMs } from '../format.js';

const TARGETS = [
  ['megatron', 'Megatron-Core'],
  ['torch', 'PyTorch pipelining'],
  ['deepspeed', 'DeepSpeed'],
  ['flashflex', 'FlashFlex'],
];
// search.engine's names for the targets.
const ENGINE_OF = { megatron: 'megatron-core', torch: 'torch', deepspeed: 'deepspeed', flashflex: 'flashflex' };
const TARGET_OF = Object.fromEntries(Object.entries(ENGINE_OF).map(([target, engine]) => [engine, target]));
const LABEL_OF = Object.fromEntries(TARGETS);

const seconds = (ms) => `${(ms / 1000).toFixed(ms < 10000 ? 2 : 1)} s`;

// Which engine the plan was made for and what planning for any engine would gain.
function engineSummary(result) {
  const engine = result?.engine;
  if (!engine || engine === 'any') {
    return 'Planned for any engine. To plan only what one engine can launch, choose it under Engine in the '
      + 'editor\'s Search section, or use an engine\'s Plan button below.';
  }
  const name = LABEL_OF[TARGET_OF[engine]] ?? engine;
  const free = result.unconstrained;
  const price = result.engine_price;
  const head = `Planned for ${name}: ${seconds(result.iteration_ms)} per iteration.`;
  if (!free || !price) return head;
  if (!price.restricts) return `${head} ${name} can run every plan of this search space: the engine costs nothing here.`;
  if (price.objective_pct <= 1e-9) return `${head} The best plan for any engine is no better: the engine costs nothing here.`;
  const faster = 100 * (1 - free.iteration_ms / result.iteration_ms);
  return `${head} The unconstrained plan (any engine) would take ${seconds(free.iteration_ms)} with ${free.stage_count} stages on `
    + `${free.gpus_used} GPUs: ${faster.toFixed(1)} % less time, an objective ${price.objective_pct.toFixed(1)} % lower.`;
}

function versionsLine(name, part) {
  const v = part.versions;
  return v ? h('p', { class: 'launch-note launch-versions', text: `Needs ${LABEL_OF[name]} ${v.minimum} or later (${v.why_minimum}); checked against ${v.checked_against.join(', ')}.` }) : null;
}

// One file of the bundle: its name, Copy and Download buttons, and the text itself.
function fileBlock(name, text, note) {
  const status = h('span', { class: 'launch-status', role: 'status' });
  const copy = h('button', { type: 'button', class: 'launch-copy', text: 'Copy', 'aria-label': `Copy ${name}`,
    onclick: async () => { status.textContent = (await copyText(text)) ? 'Copied.' : 'Select the text to copy it (the browser did not allow copying).'; } });
  const save = h('button', { type: 'button', class: 'launch-download', text: 'Download', 'aria-label': `Download ${name}`,
    onclick: () => downloadText(text, name, name.endsWith('.json') ? 'application/json' : 'text/plain') });
  return h('div', { class: 'launch-file', dataset: { file: name } },
    h('div', { class: 'launch-file-head' }, h('code', { class: 'launch-file-name', text: name }), copy, save, status),
    note ? h('p', { class: 'launch-note', text: note }) : null,
    h('pre', { class: 'launch-text', tabindex: '0' }, h('code', { text })));
}

function stagesText(stages) {
  return (stages || []).map((s) => (s.gpus ? `[${s.gpus.join(', ')}]${s.tensor_parallel > 1 ? ` TP ${s.tensor_parallel}` : ''}` : s.gpu) + ` (${s.layers})`).join(' → ');
}

// What an engine cannot run, why, the nearest plan it can, with its figures, and a button that
// plans again for that engine (search.engine).
function refusal(name, part, planFor) {
  const nearest = part.nearest_plan;
  const label = LABEL_OF[name];
  return h('div', { class: 'launch-cannot' },
    h('ul', {}, (part.cannot || []).map((line) => h('li', { text: line }))),
    nearest ? h('p', { class: 'launch-nearest', text: `Nearest plan it can run (${nearest.why}): ${stagesText(nearest.stages)}; `
      + `${formatMs(nearest.iteration_ms)} per iteration${nearest.feasible ? '' : ', and it does not fit in memory'}.` }) : null,
    planFor ? h('p', {}, h('button', { type: 'button', class: 'launch-plan-for', id: `launch-plan-for-${name}`,
      text: `Plan for ${label}`, onclick: () => planFor(ENGINE_OF[name]) }),
    h('span', { class: 'launch-note', text: ` sets Engine to ${label} and plans again: the best plan it can launch.` })) : null);
}

function targetFiles(name, part, planFor) {
  if (!part.expressible) return [refusal(name, part, planFor)];
  if (name === 'flashflex') {
    const configs = { hetero_configs: part.hetero_configs, layer_partitions: part.layer_partitions, devices_id: part.devices_id };
    return [h('p', { class: 'launch-note', text: part.notes.join(' ') }),
      fileBlock(part.file_name, part.text, 'Run sh flashflex_launch.sh MACHINE on each machine, from FlashFlex\'s root: one python3 per rank, on the GPU the plan chose.'),
      fileBlock('hetero_configs.json', `${JSON.stringify(configs, null, 2)}\n`, 'The same lists for FlashFlex\'s --all_hetero_configs_path (and devices_id for its own script generator).')];
  }
  if (name === 'megatron') {
    return [h('p', { class: 'launch-note', text: part.notes.join(' ') }),
      fileBlock(part.file_name, part.text, 'One torchrun line per machine; Megatron-Core\'s default rank order then puts every rank on the GPU the plan chose.')];
  }
  if (name === 'torch') {
    return [fileBlock(part.file_name, part.text, `A template for the PyTorch ${part.pytorch_version} API; replace the stand-in model and data.`),
      fileBlock('torch_launch.sh', part.launch_text)];
  }
  return [fileBlock('ds_config.json', `${JSON.stringify(part.config, null, 2)}\n`),
    fileBlock(part.file_name, part.text, 'PipelineModule cut at the plan\'s layer boundaries (DeepSpeed\'s partition methods only balance).'),
    fileBlock('deepspeed_launch.sh', part.launch_text)];
}

function rankTable(rankMap) {
  const head = ['Rank', 'GPU', 'Stage', 'Tensor rank', 'Data rank', 'Node', 'Site', 'Host', 'Device', 'Node rank', 'Local rank'];
  const keys = ['rank', 'gpu', 'pipeline_rank', 'tensor_rank', 'data_rank', 'node', 'site', 'host', 'device', 'node_rank', 'local_rank'];
  return h('div', { class: 'launch-table-wrap' }, h('table', { class: 'launch-ranks', id: 'launch-ranks' },
    h('thead', {}, h('tr', {}, head.map((t) => h('th', { scope: 'col', text: t })))),
    h('tbody', {}, rankMap.map((r) => h('tr', {}, keys.map((k) => h('td', { text: k === 'pipeline_rank' ? r[k] + 1 : r[k] })))))));
}

// request(problemText, plan) resolves with the bundle (the worker's 'launch' answer);
// planFor(engine), when given, sets search.engine and plans again.
export function createLaunchView({ request, planFor = null }) {
  const body = h('div', { class: 'launch-body', id: 'launch-body' });
  const bundleButton = h('button', { type: 'button', id: 'launch-download-bundle', text: 'Download bundle (JSON)', disabled: true });
  const summary = h('p', { class: 'launch-engine', id: 'launch-engine', role: 'status' });
  const element = h('section', { class: 'launch', id: 'launch-view', 'aria-labelledby': 'launch-title', hidden: true },
    helpLink('launch'), h('h2', { id: 'launch-title', text: 'Launch' }),
    h('p', { class: 'intro', text: 'The commands and configuration that run this plan: the rank map, then each engine\'s arguments or the reason it cannot run the plan.' }),
    summary, bundleButton, body);
  let bundle = null;
  let selected = 'megatron';
  let shownFor = null;
  bundleButton.addEventListener('click', () => bundle && downloadText(`${JSON.stringify(bundle, null, 2)}\n`, 'launch-bundle.json', 'application/json'));

  function render() {
    const tabs = h('div', { class: 'launch-tabs', role: 'tablist', 'aria-label': 'Engine' }, TARGETS.map(([name, label]) => h('button', {
      type: 'button', role: 'tab', id: `launch-tab-${name}`, 'aria-selected': String(name === selected),
      class: bundle[name].expressible ? 'launch-tab' : 'launch-tab launch-tab-cannot',
      text: bundle[name].expressible ? label : `${label} (cannot)`,
      onclick: () => { selected = name; render(); document.getElementById(`launch-tab-${name}`)?.focus(); },
    })));
    const part = bundle[selected];
    setChildren(body,
      bundle.replica_note ? h('p', { class: 'hint', id: 'launch-replica-note', text: `${bundle.replica_note}.` }) : null,
      h('h3', { text: 'Rank map' }),
      bundle.rank_map ? rankTable(bundle.rank_map)
        : h('p', { class: 'hint', id: 'launch-no-rank-map', text: 'The replicas differ, so they cannot run as one data-parallel pipeline: FlashFlex runs each as pipelines of its own, with its own rank list.' }),
      bundle.assumptions?.length ? h('ul', { class: 'launch-assumptions', id: 'launch-assumptions' }, bundle.assumptions.map((a) => h('li', { text: a }))) : null,
      tabs, h('div', { class: 'launch-target', role: 'tabpanel', id: 'launch-target', 'aria-labelledby': `launch-tab-${selected}` },
        versionsLine(selected, part), targetFiles(selected, part, planFor)));
  }

  return {
    element,
    // Called with every plan the results show; a later plan replaces an earlier answer.
    async show({ problemText, result }) {
      shownFor = result;
      element.hidden = false;
      summary.textContent = engineSummary(result);
      // The plan's own engine first, when it was made for one.
      if (TARGET_OF[result?.engine]) selected = TARGET_OF[result.engine];
      bundleButton.disabled = true;
      setChildren(body, h('p', { class: 'hint', text: 'Building the launch bundle…' }));
      try {
        // A replica plan (replicas.md) goes as one: the bundle joins identical replicas into data parallelism.
        const plan = result.replicas ? { replicas: result.replicas } : { stages: result.stages };
        const answer = await request(problemText, plan);
        if (shownFor !== result) return;
        bundle = answer;
        bundleButton.disabled = false;
        render();
      } catch (error) {
        if (shownFor !== result) return;
        bundle = null;
        setChildren(body, h('p', { class: 'launch-error', text: `No launch bundle: ${error.message}` }));
      }
    },
  };
}
