// The small "?" beside each editor tab, panel and view: a link to its section of the docs, which
// the build renders into web/docs/ (web/tools/render-docs.mjs) so that they are served with the
// page and work offline. It opens in a new tab: the problem, a running plan and the views stay.
import { h } from './dom.js';

// topic -> [page and anchor under docs/, what the section is about]
export const HELP_TOPICS = {
  'editor-about': ['formats.html#top-level', 'the problem file'],
  'editor-model': ['formats.html#model-the-transformer', 'the model fields'],
  'editor-gpus': ['formats.html#gpus-the-pool', 'the GPU fields'],
  'editor-network': ['formats.html#network-the-links', 'the network fields'],
  'editor-sites': ['page.html#sites--costs', 'sites and costs'],
  'editor-objective': ['page.html#objective--search', 'the objective and search settings'],
  'editor-measured': ['measured-clusters.html#in-the-page', 'importing measurements and calibrating'],
  'editor-json': ['page.html#json', 'the JSON view'],
  examples: ['page.html#examples', 'the examples'],
  run: ['planners.html#the-methods', 'the planning methods'],
  results: ['page.html#the-plan-views', 'the plan views'],
  'view-pipeline': ['page.html#pipeline', 'the pipeline view'],
  'view-stages': ['page.html#stages', 'the stage table'],
  'view-timeline': ['page.html#1f1b-timeline', 'the 1F1B timeline'],
  'view-topology': ['page.html#topology', 'the topology view'],
  'view-sites': ['page.html#per-site', 'the per-site view'],
  'view-comparison': ['page.html#comparison', 'the comparison with the baselines'],
  launch: ['page.html#launch', 'the launch bundle'],
  studies: ['studies.html', 'the studies'],
};

export function helpLink(topic) {
  const [target, about] = HELP_TOPICS[topic];
  return h('a', {
    class: 'help-link', href: `docs/${target}`, target: '_blank', rel: 'noopener',
    'aria-label': `Help: ${about}`, title: `Help: ${about} (opens the docs in a new tab)`,
    dataset: { help: topic }, text: '?',
  });
}
