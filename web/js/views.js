// Loads the plan views (web/js/views/*.js) on first use and draws them; a view that fails to load
// or to draw leaves a short note in its box instead of breaking the page.
import { h } from './dom.js';

const VIEWS = {
  pipeline: ['./views/pipeline-bar.js', 'renderPipelineBar'],
  stages: ['./views/stage-table.js', 'renderStageTable'],
  timeline: ['./views/timeline.js', 'renderTimeline'],
  topology: ['./views/topology.js', 'renderTopology'],
  comparison: ['./views/comparison.js', 'renderComparison'],
  sites: ['./views/site-costs.js', 'renderSiteCosts'],
  convergence: ['./views/convergence.js', 'renderConvergence'],
  // Plans of replicas (docs/replicas.md): the same boxes, drawn per replica.
  'replica-pipeline': ['./views/replica-bars.js', 'renderReplicaBars'],
  'replica-stages': ['./views/replica-stages.js', 'renderReplicaStages'],
  'replica-timeline': ['./views/replica-timeline.js', 'renderReplicaTimeline'],
  'replica-topology': ['./views/replica-topology.js', 'renderReplicaTopology'],
};

const loaded = new Map();

export function loadView(name) {
  if (!loaded.has(name)) {
    const [url, exportName] = VIEWS[name];
    loaded.set(name, import(url).then((module) => {
      if (typeof module[exportName] !== 'function') throw new Error(`${url} has no ${exportName}()`);
      return module[exportName];
    }));
    loaded.get(name).catch(() => loaded.delete(name));  // try again next time
  }
  return loaded.get(name);
}

export async function drawView(name, container, ...args) {
  try {
    const render = await loadView(name);
    render(container, ...args);
  } catch (error) {
    container.replaceChildren(h('p', { class: 'view-missing', text: `This view could not be drawn (${error.message}).` }));
  }
}
