// The stage table of a replica plan: a table of the replicas (sites, GPUs, micro-batch share,
// pipeline time, the slowest marked), then a replica chooser and the chosen replica's own stage
// table, drawn by the one-pipeline stage table.

import {html, figure, emptyView} from './svg.js';
import {formatMs, plural} from './format.js';
import {gpuCountOf} from './groups.js';
import {renderStageTable} from './stage-table.js';
import {replicaChooser} from './replica-chooser.js';
import {isReplicaResult, replicaResult, replicaStages, replicaName, replicaColour, paceSetter, syncPhases,
        totalMicroBatches} from './replica-plan.js';

export function renderReplicaStages(container, problem, result) {
  if (!isReplicaResult(result)) return emptyView(container, 'gt-replica-stages', 'Not a plan of replicas.');
  const slowest = paceSetter(result);
  const M = totalMicroBatches(result);
  const rows = result.replicas.map((replica, r) => {
    const swatch = html('span', {class: 'gt-swatch', 'aria-hidden': 'true'});
    swatch.style.background = replicaColour(r);
    return html('tr', {'data-replica': r, class: r === slowest ? 'is-bottleneck' : undefined}, [
      html('th', {scope: 'row'}, [swatch, replicaName(replica, r),
        r === slowest ? html('span', {class: 'gt-badge gt-badge-bottleneck', title: 'the slowest pipeline sets the pace'}, 'slowest') : null]),
      html('td', {class: 'num'}, String(gpuCountOf(replicaStages(replica)))),
      html('td', {class: 'num'}, `${replica.micro_batches} (${((replica.micro_batches / M) * 100).toFixed(1)}%)`),
      html('td', {class: 'num'}, formatMs(replica.pipeline_ms)),
    ]);
  });
  const {cross, H} = syncPhases(result);
  const overview = html('div', {class: 'gt-st-scroll'}, html('table', {class: 'gt-st-table gt-replica-table'}, [
    html('caption', null, `${plural(result.replicas.length, 'replica')}, one stage template`),
    html('thead', null, html('tr', null, [['Replica'], ['GPUs', true], ['Share', true, 'micro-batches of the replica (and of M)'], ['Pipeline', true]]
      .map(([t, num, title]) => html('th', {scope: 'col', class: num ? 'num' : undefined, title}, t)))),
    html('tbody', null, rows),
    html('tfoot', null, html('tr', null, [
      html('th', {scope: 'row'}, 'Cross-replica sync'),
      html('td', {colspan: 3, class: 'num'}, `${formatMs(cross)}${H > 1 ? ` every ${H} iterations` : ' every iteration'}`)])),
  ]));
  const chooser = replicaChooser(result, (r, body) => {
    renderStageTable(body, problem, replicaResult(result, r));
    // The totals row is this replica's pipeline (and its groups' sync), not the plan's iteration.
    const total = body.querySelector('tfoot th');
    if (total) total.textContent = `Replica ${r + 1}`;
  }, {label: 'Stages of', name: 'stages'});
  const note = html('p', {class: 'gt-note'}, 'The table below is the chosen replica\'s own: its "Iteration" row is its pipeline and its groups\' sync, without the cross-replica sync.');
  return figure(container, 'gt-replica-stages', [overview, chooser.element, note, chooser.body]);
}
