// The topology of a replica plan: sites with their GPUs (a GPU's disc in its replica's colour,
// numbered by its stage, unused GPUs grey), each replica's GPUs outlined in its colour inside each
// site, and the site pipes the cross-replica sync loads drawn between the sites with their bytes
// and time per sync (replicas.md: pipe_AB = W_AB / Cap_AB + 2 (R - 1) Lat_AB). The pipes are also
// listed in a table under the drawing.

import {el, html, svgRoot, figure, emptyView, truncate, textWidth, tip, round2, uniqueId} from './svg.js';
import {colourScheme} from './colours.js';
import {formatMs, formatNumber, plural, siteLabel} from './format.js';
import {layoutSites} from './topology-layout.js';
import {isReplicaResult, gpuPlaces, replicaColour, replicaName, syncPhases} from './replica-plan.js';

const WIDTH = 900;
const PIPE_STROKE = 'hsl(190 70% 28%)';

const formatBytes = (b) => (b >= 1e12 ? `${formatNumber(b / 1e12)} TB` : b >= 1e9 ? `${formatNumber(b / 1e9)} GB`
  : b >= 1e6 ? `${formatNumber(b / 1e6)} MB` : `${formatNumber(b / 1e3)} kB`);

export function renderReplicaTopology(container, problem, result) {
  const gpus = Array.isArray(problem?.gpus) ? problem.gpus : [];
  if (gpus.length === 0 || !isReplicaResult(result)) return emptyView(container, 'gt-replica-topology', 'No replica plan to draw.');
  const colours = colourScheme(problem);
  const layout = layoutSites(colours.sites, WIDTH);
  const places = gpuPlaces(result);
  const pipes = Array.isArray(result.site_pipes) ? result.site_pipes.filter((p) => p && p.from !== undefined) : [];
  const R = result.replicas.length;
  const label = `${plural(gpus.length, 'GPU')} on ${plural(colours.sites.length, 'site')}; ${plural(R, 'replica')} on ` +
    `${plural(places.size, 'GPU')}; ${plural(pipes.length, 'loaded site pipe')}`;
  const svg = svgRoot(WIDTH, layout.height, label, 'gt-rtopo-svg');
  const defs = svg.appendChild(el('defs'));
  const arrow = uniqueId('gt-rtopo-arrow');
  defs.appendChild(el('marker', {id: arrow, viewBox: '0 0 10 10', refX: 8.5, refY: 5, markerWidth: 9, markerHeight: 9,
                                 markerUnits: 'userSpaceOnUse', orient: 'auto', class: 'gt-rtopo-arrow'},
                      el('path', {d: 'M0,0 L10,5 L0,10 Z', fill: PIPE_STROKE})));
  svg.appendChild(sites(layout, colours, places, result));
  svg.appendChild(outlines(layout, places));
  svg.appendChild(nodes(layout, places, result));
  svg.appendChild(pipeArrows(layout, pipes, result, `url(#${arrow})`));
  const body = [svg, replicaLegend(result)];
  if (pipes.length) body.push(pipeTable(pipes, result));
  return figure(container, 'gt-replica-topology', body, caption(result, pipes, places, gpus));
}

function sites(layout, colours, places, result) {
  const group = el('g', {class: 'gt-topo-sites'});
  for (const box of layout.boxes) {
    const used = box.site.gpus.filter((g) => places.has(g.id)).length;
    const replicas = [...new Set(box.site.gpus.filter((g) => places.has(g.id)).map((g) => places.get(g.id).replica))].sort((a, b) => a - b);
    const names = replicas.length <= 4 ? replicas.map((r) => `R${r + 1}`).join(' ') : `R${replicas[0] + 1}–R${replicas[replicas.length - 1] + 1}`;
    const counts = `${used}/${box.site.gpus.length}`;
    const head = replicas.length ? `${box.site.label} · ${names}` : box.site.label;
    const maxChars = Math.floor((box.w - 16 - textWidth(counts, 11)) / (12 * 0.6));
    group.appendChild(el('g', {class: 'gt-topo-site', 'data-site': box.site.site, 'data-replicas': replicas.join(' ')}, [
      el('rect', {x: round2(box.x), y: round2(box.y), width: round2(box.w), height: round2(box.h), rx: 8,
                  fill: colours.siteLight(box.site.site), stroke: colours.site(box.site.site)}),
      el('text', {x: round2(box.x + 8), y: round2(box.y + 15), class: 'gt-topo-site-label'}, truncate(head, Math.max(2, maxChars))),
      el('text', {x: round2(box.x + box.w - 8), y: round2(box.y + 15), 'text-anchor': 'end', class: 'gt-topo-site-count'}, counts),
      tip(`Site ${box.site.label}: ${plural(box.site.gpus.length, 'GPU')}, ${used} in the plan` +
          (replicas.length ? `; ${replicas.map((r) => replicaName(result.replicas[r], r)).join(', ')}` : '')),
    ]));
  }
  return group;
}

// Per site, per row of discs, the runs of neighbouring GPUs of one replica; runs with the same
// span in consecutive rows merge into one box, so a replica on whole nodes is one or a few boxes.
function outlines(layout, places) {
  const group = el('g', {class: 'gt-rtopo-outlines'});
  for (const box of layout.boxes) {
    const rows = new Map();
    for (const node of box.nodes) {
      const key = round2(node.cy);
      if (!rows.has(key)) rows.set(key, []);
      rows.get(key).push(node);
    }
    const open = new Map();   // "replica:x0:x1" -> rect being grown downwards
    const rects = [];
    for (const row of [...rows.values()]) {
      row.sort((a, b) => a.cx - b.cx);
      const runs = [];
      for (const node of row) {
        const place = places.get(node.gpu.id);
        const r = place ? place.replica : -1;
        const last = runs[runs.length - 1];
        if (last && last.r === r) last.nodes.push(node);
        else runs.push({r, nodes: [node]});
      }
      const seen = new Set();
      for (const run of runs) {
        if (run.r < 0) continue;
        const rad = run.nodes[0].r;
        const pad = Math.max(1.5, Math.min(4, rad * 0.5));
        const x0 = run.nodes[0].cx - rad - pad;
        const x1 = run.nodes[run.nodes.length - 1].cx + rad + pad;
        const y0 = run.nodes[0].cy - rad - pad;
        const y1 = run.nodes[0].cy + rad + pad + (run.nodes[0].showLabel ? 12 : 0);
        const key = `${run.r}:${round2(x0)}:${round2(x1)}`;
        const grown = open.get(key);
        if (grown && y0 - grown.y1 < rad * 2 + 2 * pad + 14) {
          grown.y1 = y1;
        } else {
          const rect = {r: run.r, x0, x1, y0, y1};
          rects.push(rect);
          open.set(key, rect);
        }
        seen.add(key);
      }
      for (const key of [...open.keys()]) if (!seen.has(key)) open.delete(key);
    }
    for (const rect of rects) {
      group.appendChild(el('rect', {x: round2(rect.x0), y: round2(rect.y0), width: round2(rect.x1 - rect.x0), height: round2(rect.y1 - rect.y0),
                                    rx: 4, fill: 'none', stroke: replicaColour(rect.r), 'stroke-width': 2.2,
                                    class: 'gt-rtopo-outline', 'data-replica': rect.r}));
    }
  }
  return group;
}

function nodes(layout, places, result) {
  const group = el('g', {class: 'gt-topo-nodes'});
  for (const box of layout.boxes) {
    for (const node of box.nodes) {
      const place = places.get(node.gpu.id);
      const g = el('g', {class: `gt-topo-node ${place ? 'is-used' : 'is-unused'}`, 'data-gpu': node.gpu.id,
                         'data-replica': place ? place.replica : undefined, 'data-stage': place ? place.stage : undefined});
      g.appendChild(el('circle', {cx: round2(node.cx), cy: round2(node.cy), r: round2(node.r),
                                  fill: place ? replicaColour(place.replica, 62) : undefined}));
      if (place && node.r >= 7) {
        g.appendChild(el('text', {x: round2(node.cx), y: round2(node.cy + Math.min(node.r, 14) * 0.36), 'text-anchor': 'middle',
                                  class: 'gt-topo-stage', 'font-size': round2(Math.min(13, Math.max(9, node.r * 0.9)))}, String(place.stage + 1)));
      }
      if (node.showLabel) {
        g.appendChild(el('text', {x: round2(node.cx), y: round2(node.cy + node.r + 12), 'text-anchor': 'middle', class: 'gt-topo-id'},
                         truncate(node.gpu.id, Math.floor(node.cell / 7))));
      }
      g.appendChild(tip(`${node.gpu.id}: ${node.gpu.type ?? 'custom GPU'} at ${siteLabel(node.gpu.site)}\n` +
                        (place ? `replica ${place.replica + 1}, stage ${place.stage + 1}` : 'not used by this plan')));
      group.appendChild(g);
    }
  }
  return group;
}

// One curved arrow per loaded directed site pipe, from site box to site box, bent to its left so
// the two directions of a pair stay apart; its label (bytes · time) sits on a white halo.
function pipeArrows(layout, pipes, result, marker) {
  const group = el('g', {class: 'gt-rtopo-pipes'});
  const boxOf = new Map(layout.boxes.map((b) => [String(b.site.site), b]));
  const worst = Math.max(0, ...pipes.map((p) => p.ms ?? 0));
  const maxBytes = Math.max(1, ...pipes.map((p) => p.bytes ?? 0));
  pipes.forEach((pipe, k) => {
    const a = boxOf.get(String(pipe.from));
    const b = boxOf.get(String(pipe.to));
    if (!a || !b || a === b) return;
    const ax = a.x + a.w / 2; const ay = a.y + a.h / 2;
    const bx = b.x + b.w / 2; const by = b.y + b.h / 2;
    const dx = bx - ax; const dy = by - ay;
    const length = Math.hypot(dx, dy) || 1;
    const bend = Math.min(50, length * 0.15);
    const cx = (ax + bx) / 2 - (dy / length) * bend;
    const cy = (ay + by) / 2 + (dx / length) * bend;
    const trim = (x, y, tx, ty, d) => {
      const l = Math.hypot(tx - x, ty - y) || 1;
      return [x + ((tx - x) / l) * d, y + ((ty - y) / l) * d];
    };
    const [sx, sy] = trim(ax, ay, cx, cy, Math.min(a.w, a.h) * 0.22);
    const [ex, ey] = trim(bx, by, cx, cy, Math.min(b.w, b.h) * 0.22);
    const binding = worst > 0 && (pipe.ms ?? 0) >= worst * 0.999;
    const g = el('g', {class: `gt-rtopo-pipe${binding ? ' is-binding' : ''}`, 'data-pipe': k, 'data-from': pipe.from, 'data-to': pipe.to, tabindex: 0});
    const d = `M${round2(sx)},${round2(sy)} Q${round2(cx)},${round2(cy)} ${round2(ex)},${round2(ey)}`;
    g.appendChild(el('path', {d, fill: 'none', class: 'gt-rtopo-pipe-line', 'marker-end': marker, stroke: PIPE_STROKE,
                              'stroke-opacity': binding ? 0.95 : 0.7,
                              'stroke-width': round2(2 + 4 * ((pipe.bytes ?? 0) / maxBytes))}));
    const text = `${formatBytes(pipe.bytes ?? 0)} · ${formatMs(pipe.ms)}`;
    const mx = 0.25 * sx + 0.5 * cx + 0.25 * ex;
    const my = 0.25 * sy + 0.5 * cy + 0.25 * ey;
    g.appendChild(el('text', {x: round2(mx), y: round2(my + 4), 'text-anchor': 'middle', class: 'gt-rtopo-pipe-label',
                              'font-size': 11.5, 'paint-order': 'stroke', stroke: '#fff', 'stroke-width': 4}, text));
    g.appendChild(tip(pipeText(pipe, result)));
    group.appendChild(g);
  });
  return group;
}

// The replicas' colours, as a wrapping HTML list (it stays readable on a phone).
function replicaLegend(result) {
  return html('ul', {class: 'gt-replica-legend', 'aria-label': 'Replica colours'}, result.replicas.map((replica, r) => {
    const swatch = html('span', {class: 'gt-swatch', 'aria-hidden': 'true'});
    swatch.style.background = replicaColour(r, 62);
    swatch.style.borderColor = replicaColour(r);
    return html('li', {'data-replica': r}, [swatch, replicaName(replica, r)]);
  }));
}

function pipeText(pipe, result) {
  const {cross} = syncPhases(result);
  const share = cross > 0 ? ` (${formatNumber((pipe.ms / cross) * 100)}% of the cross-replica sync)` : '';
  return `Site pipe ${siteLabel(pipe.from)} → ${siteLabel(pipe.to)}: ${formatBytes(pipe.bytes ?? 0)} of gradients per sync, ` +
    `${formatMs(pipe.ms)}${share}`;
}

function pipeTable(pipes, result) {
  const {cross} = syncPhases(result);
  const rows = pipes.map((pipe, k) => html('tr', {'data-pipe': k, class: cross > 0 && pipe.ms >= cross * 0.999 ? 'is-bottleneck' : undefined}, [
    html('th', {scope: 'row'}, `${siteLabel(pipe.from)} → ${siteLabel(pipe.to)}`),
    html('td', {class: 'num'}, formatBytes(pipe.bytes ?? 0)),
    html('td', {class: 'num'}, formatMs(pipe.ms)),
    html('td', {class: 'num'}, cross > 0 ? `${formatNumber((pipe.ms / cross) * 100)}%` : '–'),
  ]));
  return html('div', {class: 'gt-st-scroll'}, html('table', {class: 'gt-st-table gt-rtopo-pipes-table'}, [
    html('caption', null, 'Site pipes loaded by the cross-replica sync: the bytes each directed pipe carries per sync and the time it needs'),
    html('thead', null, html('tr', null, [['Pipe'], ['Gradients', true], ['Time', true], ['Of the sync', true]]
      .map(([t, num]) => html('th', {scope: 'col', class: num ? 'num' : undefined}, t)))),
    html('tbody', null, rows)]));
}

function caption(result, pipes, places, gpus) {
  const R = result.replicas.length;
  const parts = [html('strong', null, `${plural(R, 'replica')}`), ` on ${places.size} of ${plural(gpus.length, 'GPU')}, each outlined in its colour; a disc's number is its stage. `];
  if (pipes.length) {
    const worst = pipes.reduce((a, b) => ((b.ms ?? 0) > (a.ms ?? 0) ? b : a));
    parts.push(`Arrows: the site pipes the cross-replica sync loads (thicker: more bytes). The slowest, ${siteLabel(worst.from)} → ${siteLabel(worst.to)}, ` +
               `needs ${formatMs(worst.ms)} of the ${formatMs(result.cross_replica_sync_ms)} sync. `);
  } else {
    parts.push('No site pipe is loaded: the replicas sync inside their sites. ');
  }
  parts.push('Grey: unused GPUs.');
  return parts;
}
