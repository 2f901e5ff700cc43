// Stage groups in the topology view: each group's GPUs outlined together inside their site (a group
// never spans sites), one rounded box per grid row the group's GPUs occupy, labelled with its stage
// and degrees where there is room.

import {el, round2, textWidth, tip} from './svg.js';
import {plural} from './format.js';
import {stageGpus, isGroup, tensorDegree, dataDegree} from './groups.js';

const PAD = 4;

export function groupOutlines(layout, stages, colours, names) {
  const group = el('g', {class: 'gt-topo-groups'});
  // Labels go only above a site's first row of GPUs (the gap under the site's name); lower rows
  // have the GPU ids of the row above there. The stage numbers in the discs and the tooltip say the rest.
  const firstRow = new Map();
  const siteTop = new Map();
  for (const box of layout.boxes) {
    const top = Math.min(...box.nodes.map((n) => n.cy));
    for (const n of box.nodes) firstRow.set(n.gpu.id, top), siteTop.set(n.gpu.id, box.y);
  }
  stages.forEach((stage, q) => {
    if (!isGroup(stage)) return;
    const nodes = stageGpus(stage).map((id) => layout.nodeById.get(id)).filter(Boolean);
    if (nodes.length === 0) return;
    const rows = new Map();
    for (const n of nodes) {
      const key = round2(n.cy);
      if (!rows.has(key)) rows.set(key, []);
      rows.get(key).push(n);
    }
    const g = el('g', {class: 'gt-topo-group', 'data-stage': q, 'data-gpus': nodes.length});
    let first = null;
    let firstCy = Infinity;
    for (const row of rows.values()) {
      const r = row[0].r;
      const x0 = Math.min(...row.map((n) => n.cx)) - r - PAD;
      const x1 = Math.max(...row.map((n) => n.cx)) + r + PAD;
      const y0 = row[0].cy - r - PAD;
      // A GPU's id label sits under its disc: the box takes it in.
      const box = {x: x0, y: y0, w: x1 - x0, h: 2 * (r + PAD) + (row[0].showLabel ? 12 : 0)};
      if (!first || box.y < first.y) first = box, firstCy = row[0].cy;
      g.appendChild(el('rect', {x: round2(box.x), y: round2(box.y), width: round2(box.w), height: round2(box.h),
                                rx: round2(Math.min(8, r + PAD)), fill: 'none', stroke: colours.site(stage.site),
                                'stroke-width': 2, 'stroke-dasharray': '5 3', class: 'gt-topo-group-box'}));
    }
    const text = `S${q + 1} · TP ${tensorDegree(stage)} × DP ${dataDegree(stage)}`;
    // The label sits just above the group's top box when that box is wide enough to own it.
    const onTopRow = Math.abs(firstCy - (firstRow.get(nodes[0].gpu.id) ?? -1)) < 0.5;  // a group lies in one site
    // ...and only where that gap clears the site's name (its baseline 15 px under the site's top).
    const clear = first && first.y - 11 >= (siteTop.get(nodes[0].gpu.id) ?? 0) + 19;
    if (first && onTopRow && clear && first.w >= textWidth(text, 10) + 4) {
      g.appendChild(el('text', {x: round2(first.x + 2), y: round2(first.y - 2), class: 'gt-topo-group-label',
                                'font-size': 10, 'paint-order': 'stroke', stroke: '#fff', 'stroke-width': 3}, text));
    }
    g.appendChild(tip(`Stage ${q + 1}: ${names[q]}, ${plural(nodes.length, 'GPU')} ` +
                      `(TP ${tensorDegree(stage)} × DP ${dataDegree(stage)}), ${plural(stage.layers, 'layer')}`));
    group.appendChild(g);
  });
  return group;
}
