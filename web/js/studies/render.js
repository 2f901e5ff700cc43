// Draws a study's summary with the view for its kind, and marks the point whose plan is shown.
import { html } from '../views/svg.js';
import { renderParallelism } from './parallelism-view.js';
import { renderRobustness } from './robustness-view.js';
import { renderReplicasStudy } from './replicas-view.js';
import { renderSplit } from './split-view.js';
import { renderSubset } from './subset-view.js';
import { renderSweep } from './sweep-view.js';
import { renderTradeoff } from './tradeoff-view.js';
import { renderWhere } from './where-view.js';

const RENDERERS = {
  pareto: renderTradeoff,
  subset: renderSubset,
  latency: renderSweep,
  bandwidth: renderSweep,
  split: renderSplit,
  parallelism: renderParallelism,
  where: renderWhere,
  robustness: renderRobustness,
  replicas: renderReplicasStudy,
};

// context: {onSelect(id, label), breakdown?, problem?} (the last two for split).
export function renderStudy(container, summary, context) {
  const render = RENDERERS[summary?.study];
  if (!render) {
    container.replaceChildren(html('p', { class: 'gt-empty-note' }, `Unknown study "${String(summary?.study)}".`));
    return;
  }
  render(container, summary, context);
  container.dataset.study = summary.study;
}

export function markSelected(container, id) {
  for (const node of container.querySelectorAll('.is-selected')) node.classList.remove('is-selected');
  if (!id) return;
  for (const node of container.querySelectorAll(`[data-job="${CSS.escape(id)}"]`)) node.classList.add('is-selected');
}
