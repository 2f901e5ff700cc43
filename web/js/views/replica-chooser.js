// A replica chooser: a labelled <select> ("Replica 2 · us-west · 32 micro-batches") that redraws
// the part of a view it owns. Keyboard: Tab to it, arrow keys change the replica.

import {html} from './svg.js';
import {plural} from './format.js';
import {replicaName, slowestReplica, paceSetter} from './replica-plan.js';

let counter = 0;

/** {element, body}: the chooser above `body`; draw(r, body) runs now (slowest replica first) and on every change. */
export function replicaChooser(result, draw, {label = 'Replica', name = 'view'} = {}) {
  counter += 1;
  const id = `gt-replica-${name}-${counter}`;
  const slowest = slowestReplica(result);
  const pace = paceSetter(result);
  const select = html('select', {id, class: 'gt-replica-select', 'data-replica-chooser': name},
    result.replicas.map((replica, r) => html('option', {value: String(r), selected: r === slowest ? true : undefined},
      `${replicaName(replica, r)} · ${plural(replica.micro_batches, 'micro-batch', 'micro-batches')}${r === pace ? ' (slowest)' : ''}`)));
  const body = html('div', {class: 'gt-replica-body', 'data-replica': String(slowest)});
  const element = html('div', {class: 'gt-replica-chooser'}, [html('label', {for: id}, `${label} `), select]);
  const show = () => {
    const r = Number(select.value);
    body.dataset.replica = String(r);
    draw(r, body);
  };
  select.addEventListener('change', show);
  show();
  return {element, body, select};
}
