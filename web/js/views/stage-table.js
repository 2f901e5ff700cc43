// Per-stage figures of a plan as an HTML table: layers, compute, sends, stage time, memory used of
// available, energy; the bottleneck stage and stages over memory are marked.

import {html, figure, emptyView} from './svg.js';
import {colourScheme} from './colours.js';
import {stageMetrics, bottleneckOf, microBatchesOf, siteLabel, formatMs, formatEnergy, formatGiB,
        formatNumber, plural, isError, noPlanMessage, linkText} from './format.js';
import {stageName, isGroup, groupTypeText, degreesText, groupTipLines, planHasGroups, syncMsOf} from './groups.js';

const COLUMNS = [
  {label: 'Stage'}, {label: 'GPU', title: 'GPU id, type and site'},
  {label: 'Layers', num: true}, {label: 'Compute', num: true, title: 'forward + backward compute per micro-batch'},
  {label: 'Send →', num: true, title: 'activations to the next stage, per micro-batch'},
  {label: 'Send ←', num: true, title: 'gradients to the previous stage, per micro-batch'},
  {label: 'Stage time', num: true, title: 'compute + both sends: the stage time per micro-batch'},
  {label: 'Memory', title: 'memory needed of the memory available (after memory_util)'},
  {label: 'Energy', num: true, title: 'energy per iteration'},
];
// With stage groups: the tensor-parallel all-reduces (per micro-batch, part of the stage time) and
// the gradient sync of the data shards (once per iteration, after the drain).
const TENSOR = {label: 'Tensor', num: true, title: 'tensor-parallel all-reduces per micro-batch (part of the stage time)'};
const SYNC = {label: 'Grad sync', num: true, title: 'data-parallel gradient all-reduce, once per iteration after the drain'};
const columnsFor = (grouped) => (grouped ? [...COLUMNS.slice(0, 4), TENSOR, ...COLUMNS.slice(4, 7), SYNC, ...COLUMNS.slice(7)] : COLUMNS);

export function renderStageTable(container, problem, result) {
  const stages = stageMetrics(result);
  if (isError(result) || stages.length === 0) {
    return emptyView(container, 'gt-stage-table', noPlanMessage(result));
  }
  const colours = colourScheme(problem);
  const bottleneck = bottleneckOf(result);
  const slowest = Math.max(...stages.map((s) => s.stage_ms));

  const grouped = planHasGroups(stages);
  const head = html('thead', null, html('tr', null, columnsFor(grouped).map((c) =>
    html('th', {scope: 'col', class: c.num ? 'num' : undefined, title: c.title}, c.label))));
  const body = html('tbody', null, stages.map((stage, q) =>
    stageRow(problem, stage, q, q === bottleneck, slowest, colours, grouped)));
  const table = html('table', {class: `gt-st-table${grouped ? ' has-groups' : ''}`}, [
    html('caption', {class: 'gt-visually-hidden'}, 'Per-stage metrics of the plan, per micro-batch unless noted'),
    head, body, totalsRow(problem, result, stages, grouped),
  ]);
  return figure(container, 'gt-stage-table', html('div', {class: 'gt-st-scroll'}, table),
                caption(problem, result, stages, bottleneck));
}

function stageRow(problem, stage, q, isBottleneck, slowest, colours, grouped) {
  const fits = stage.fits !== false;
  const classes = [isBottleneck && 'is-bottleneck', !fits && 'is-infeasible'].filter(Boolean).join(' ');
  const swatch = html('span', {class: 'gt-swatch', 'aria-hidden': 'true'});
  swatch.style.background = colours.gpu(stage.gpu);
  swatch.style.borderColor = colours.site(stage.site);
  return html('tr', {class: classes || undefined, 'data-stage': q}, [
    html('th', {scope: 'row', class: 'gt-st-index'}, [String(q + 1),
      isBottleneck ? html('span', {class: 'gt-badge gt-badge-bottleneck', title: 'the slowest stage sets the pace'},
                          'bottleneck') : null]),
    gpuCell(problem, stage, swatch),
    html('td', {class: 'num'}, String(stage.layers)),
    html('td', {class: 'num'}, formatMs(stage.compute_ms)),
    grouped ? msCell(stage.tensor_parallel_ms) : null,
    sendCell(stage.send_forward_ms, stage.link_forward),
    sendCell(stage.send_backward_ms, stage.link_backward),
    stageTimeCell(stage.stage_ms, slowest, isBottleneck),
    grouped ? msCell(stage.data_parallel_sync_ms) : null,
    memoryCell(stage),
    html('td', {class: 'num'}, formatEnergy(stage.energy_j)),
  ]);
}

function gpuCell(problem, stage, swatch) {
  const where = isGroup(stage) ? `${degreesText(stage)} · ${groupTypeText(stage)} · ${siteLabel(stage.site)}`
    : `${stage.type ?? ''} · ${siteLabel(stage.site)}`;
  const title = isGroup(stage) ? [`${stageName(problem, stage)}: ${where}`, ...groupTipLines(stage, formatMs)].join('\n')
    : `${stage.gpu}: ${stage.type ?? ''} at ${siteLabel(stage.site)}`;
  return html('td', {class: 'gt-st-gpu', title}, [
    swatch, html('span', {class: 'gt-st-id'}, stageName(problem, stage)),
    html('span', {class: 'gt-st-where'}, where)]);
}

// A figure that is 0 for every stage without groups shows as a dash.
function msCell(ms) {
  if (!(ms > 0)) return html('td', {class: 'num gt-muted'}, '–');
  return html('td', {class: 'num'}, formatMs(ms));
}

function sendCell(ms, link) {
  if (!link && !(ms > 0)) return html('td', {class: 'num gt-muted'}, '–');
  const title = link ? `to ${link.to}: ${linkText(link)}` : undefined;
  return html('td', {class: 'num', title}, formatMs(ms));
}

function stageTimeCell(ms, slowest, isBottleneck) {
  const bar = html('span', {class: 'gt-st-bar', 'aria-hidden': 'true'});
  const fillBar = bar.appendChild(html('span', {class: `gt-st-bar-fill${isBottleneck ? ' is-bottleneck' : ''}`}));
  fillBar.style.width = `${slowest > 0 ? Math.max(1, (ms / slowest) * 100) : 0}%`;
  return html('td', {class: 'num gt-st-time'}, [html('span', null, formatMs(ms)), bar]);
}

function memoryCell(stage) {
  if (!Number.isFinite(stage.memory_gib)) return html('td', {class: 'gt-muted'}, '–');
  const limit = stage.memory_limit_gib;
  const share = limit > 0 ? stage.memory_gib / limit : Infinity;
  const bar = html('span', {class: 'gt-st-bar gt-st-mem', role: 'meter', 'aria-valuemin': 0,
                            'aria-valuemax': formatNumber(limit), 'aria-valuenow': formatNumber(stage.memory_gib),
                            'aria-label': 'memory used'});
  const fillBar = bar.appendChild(html('span', {class: `gt-st-bar-fill${share > 1 ? ' is-over' : ''}`}));
  fillBar.style.width = `${Math.min(100, Math.max(1, share * 100))}%`;
  const text = `${formatNumber(stage.memory_gib, 2)} / ${formatGiB(limit)}`;
  return html('td', {class: 'gt-st-memory', title: `${formatNumber(share * 100)}% of the available memory`}, [
    bar, html('span', {class: 'gt-st-mem-text'}, text),
    stage.fits === false ? html('span', {class: 'gt-badge gt-badge-bad'}, 'does not fit') : null,
  ]);
}

function totalsRow(problem, result, stages, grouped) {
  const layers = stages.reduce((sum, s) => sum + s.layers, 0);
  const energy = stages.reduce((sum, s) => sum + (s.energy_j || 0), 0);
  const m = microBatchesOf(problem, result);
  return html('tfoot', null, html('tr', null, [
    html('th', {scope: 'row', colspan: 2}, 'Iteration'),
    html('td', {class: 'num'}, String(layers)),
    html('td', {colspan: grouped ? 4 : 3, class: 'gt-muted'}, `${plural(m, 'micro-batch', 'micro-batches')} in 1F1B`),
    html('td', {class: 'num', title: grouped ? 'sum of stage times + (M - 1) × slowest stage time + the slowest gradient sync'
      : 'sum of stage times + (M - 1) × slowest stage time'}, formatMs(result.iteration_ms)),
    grouped ? html('td', {class: 'num', title: 'the slowest stage\'s gradient sync, once per iteration'},
                   syncMsOf(result, stages) > 0 ? formatMs(syncMsOf(result, stages)) : '–') : null,
    html('td', null, result.feasible === false ? html('span', {class: 'gt-bad'}, 'infeasible') : 'fits'),
    html('td', {class: 'num'}, formatEnergy(Number.isFinite(result.energy_j) ? result.energy_j : energy)),
  ]));
}

function caption(problem, result, stages, bottleneck) {
  const b = stages[bottleneck];
  const parts = [`Times per micro-batch; energy per iteration. Stage ${bottleneck + 1} (${stageName(problem, b)}) is the bottleneck at ` +
                 `${formatMs(b.stage_ms)}.`];
  if (planHasGroups(stages)) {
    parts.push(' Groups: TP is the tensor-parallel degree (GPUs splitting each layer), DP the data shards (each a copy ' +
               'working on part of every micro-batch); the stage time includes the tensor all-reduces, and the gradient ' +
               'sync runs once per iteration after the drain.');
  }
  const over = stages.filter((s) => s.fits === false);
  if (over.length > 0) {
    parts.push(html('span', {class: 'gt-bad'},
                    ` ${plural(over.length, 'stage')} need more memory than the GPU offers.`));
  }
  if (Array.isArray(result.violations) && result.violations.length > 0) {
    parts.push(html('span', {class: 'gt-bad'}, ` ${result.violations.join('; ')}`));
  }
  return parts;
}
