// The GPU pool by site: each site a region holding its GPUs as nodes, the plan's pipeline drawn as
// numbered arrows through the used GPUs in stage order, unused GPUs grey. Hovering a path link shows
// its bandwidth, latency and where the figure came from (SVG <title>); the same figures are listed
// under the drawing for keyboards and screen readers. Sites sit on a grid so arrows stay readable
// from 1 GPU to hundreds.

import {el, html, svgRoot, figure, emptyView, truncate, textWidth, tip, round2, uniqueId, append, viewWidth} from './svg.js';
import {colourScheme} from './colours.js';
import {stageMetrics, bottleneckOf, siteLabel, formatGiB, formatNumber, plural, isError, errorText,
        linkText} from './format.js';
import {layoutSites} from './topology-layout.js';
import {groupOutlines} from './topology-groups.js';
import {stageGpus, stageName, gpuCountOf, planHasGroups} from './groups.js';

const MAX_LISTED_LINKS = 40;

export function renderTopology(container, problem, result) {
  const gpus = Array.isArray(problem?.gpus) ? problem.gpus : [];
  if (gpus.length === 0) return emptyView(container, 'gt-topology', 'No GPUs in the problem.');
  const stages = isError(result) ? [] : stageMetrics(result);
  const colours = colourScheme(problem);
  const width = viewWidth(container);
  const layout = layoutSites(colours.sites, width);
  // Every GPU of a group belongs to its stage; the arrows join each stage's first GPU (the one that
  // sends and receives the activations).
  const stageOf = new Map(stages.flatMap((s, q) => stageGpus(s).map((id) => [id, q])));
  const names = stages.map((s) => stageName(problem, s));
  const bottleneck = stages.length > 0 ? bottleneckOf(result) : -1;

  const hops = pathHops(problem, stages, layout);
  const crossSite = hops.filter((h) => h.crossSite).length;
  const label = `GPU pool of ${plural(gpus.length, 'GPU')} on ${plural(colours.sites.length, 'site')}` +
    (stages.length > 0 ? `; pipeline of ${plural(stages.length, 'stage')} through ${plural(gpuCountOf(stages), 'GPU')} with ${plural(crossSite, 'cross-site hop')}`
      : '; no plan');
  const svg = svgRoot(width, layout.height, label, 'gt-topo-svg');
  const defs = svg.appendChild(el('defs'));
  const arrowSize = layout.nodeRadius < 6 ? 6 : 9;
  const markers = {local: arrowMarker(defs, 'gt-topo-arrow', arrowSize), cross: arrowMarker(defs, 'gt-topo-arrow-x', arrowSize)};

  svg.appendChild(siteRegions(layout, colours, stageOf));
  if (planHasGroups(stages)) svg.appendChild(groupOutlines(layout, stages, colours, names));
  svg.appendChild(edges(hops, markers, stages.length, occupiedBoxes(layout, stageOf), {width, height: layout.height}));
  svg.appendChild(nodes(layout, colours, stageOf, stages, bottleneck));

  const body = [svg];
  if (isError(result)) body.push(html('p', {class: 'gt-empty-note'}, `No plan: ${errorText(result)}`));
  if (hops.length > 0) body.push(linkList(hops));
  return figure(container, 'gt-topology', body, caption(gpus, stages, names, hops, crossSite));
}

function arrowMarker(defs, prefix, size) {
  const id = uniqueId(prefix);
  defs.appendChild(el('marker', {id, viewBox: '0 0 10 10', refX: 8.5, refY: 5, markerWidth: size, markerHeight: size,
                                 markerUnits: 'userSpaceOnUse', orient: 'auto', class: prefix},
                      el('path', {d: 'M0,0 L10,5 L0,10 Z'})));
  return `url(#${id})`;
}

function siteRegions(layout, colours, stageOf) {
  const group = el('g', {class: 'gt-topo-sites'});
  for (const box of layout.boxes) {
    const used = box.site.gpus.filter((g) => stageOf.has(g.id)).length;
    const counts = `${used}/${box.site.gpus.length}`;
    const maxChars = Math.floor((box.w - 16 - textWidth(counts, 11)) / (12 * 0.58));
    group.appendChild(el('g', {class: 'gt-topo-site', 'data-site': box.site.site}, [
      el('rect', {x: round2(box.x), y: round2(box.y), width: round2(box.w), height: round2(box.h), rx: 8,
                  fill: colours.siteLight(box.site.site), stroke: colours.site(box.site.site)}),
      el('text', {x: round2(box.x + 8), y: round2(box.y + 15), class: 'gt-topo-site-label'},
         truncate(box.site.label, Math.max(2, maxChars))),
      el('text', {x: round2(box.x + box.w - 8), y: round2(box.y + 15), 'text-anchor': 'end', class: 'gt-topo-site-count'},
         counts),
      tip(`Site ${box.site.label}: ${plural(box.site.gpus.length, 'GPU')}, ${used} in the pipeline`),
    ]));
  }
  return group;
}

function nodes(layout, colours, stageOf, stages, bottleneck) {
  const group = el('g', {class: 'gt-topo-nodes'});
  for (const box of layout.boxes) {
    for (const node of box.nodes) {
      const gpu = node.gpu;
      const q = stageOf.get(gpu.id);
      const used = q !== undefined;
      const classes = ['gt-topo-node', used ? 'is-used' : 'is-unused', q === bottleneck && used && 'is-bottleneck'];
      const g = el('g', {class: classes.filter(Boolean).join(' '), 'data-gpu': gpu.id,
                         'data-stage': used ? q : undefined});
      g.appendChild(el('circle', {cx: round2(node.cx), cy: round2(node.cy), r: round2(node.r),
                                  fill: used ? colours.gpu(gpu.id) : undefined}));
      if (used && node.r >= 7) {
        g.appendChild(el('text', {x: round2(node.cx), y: round2(node.cy + Math.min(node.r, 14) * 0.36),
                                  'text-anchor': 'middle', class: 'gt-topo-stage',
                                  'font-size': round2(Math.min(13, Math.max(9, node.r * 0.9)))}, String(q + 1)));
      }
      if (node.showLabel) {
        g.appendChild(el('text', {x: round2(node.cx), y: round2(node.cy + node.r + 12), 'text-anchor': 'middle',
                                  class: 'gt-topo-id'}, truncate(gpu.id, Math.floor(node.cell / 7))));
      }
      g.appendChild(tip(nodeTip(gpu, used ? stages[q] : null, q, q === bottleneck)));
      group.appendChild(g);
    }
  }
  return group;
}

function nodeTip(gpu, stage, q, isBottleneck) {
  const lines = [`${gpu.id}: ${gpu.type ?? 'custom GPU'} at ${siteLabel(gpu.site)}`];
  const figures = [];
  if (Number.isFinite(gpu.peak_tflops)) figures.push(`${formatNumber(gpu.peak_tflops)} TFLOPS peak`);
  if (Number.isFinite(gpu.memory_gib)) figures.push(formatGiB(gpu.memory_gib));
  if (figures.length) lines.push(figures.join(', '));
  lines.push(stage ? `stage ${q + 1}${isBottleneck ? ' (bottleneck)' : ''}: ${plural(stage.layers, 'layer')}`
    : 'not used by this plan');
  return lines.join('\n');
}

// One hop per pair of consecutive stages, with both directions' link figures: the result's own
// figures, else the link the problem's network gives (older results carry no link figures).
function pathHops(problem, stages, layout) {
  const hops = [];
  for (let q = 0; q + 1 < stages.length; q++) {
    const a = stages[q];
    const b = stages[q + 1];
    const from = layout.nodeById.get(a.gpu);
    const to = layout.nodeById.get(b.gpu);
    if (!from || !to) continue;
    hops.push({
      q, a, b, from, to,
      crossSite: String(a.site ?? '') !== String(b.site ?? ''),
      forward: a.link_forward ?? resolveLink(problem, a.gpu, b.gpu),
      backward: b.link_backward ?? resolveLink(problem, b.gpu, a.gpu),
    });
  }
  return hops;
}

/** The link the cost model uses for from -> to: links, intra_node, site_links, intra/inter_site, default. */
export function resolveLink(problem, fromId, toId) {
  const network = problem?.network ?? {};
  const gpuById = new Map((problem?.gpus ?? []).map((g) => [g.id, g]));
  const siteOf = (id) => gpuById.get(id)?.site ?? '';
  const pick = (link, source) => (link ? {to: toId, bandwidth_gbps: link.bandwidth_gbps, latency_ms: link.latency_ms,
                                          util: link.util ?? 1, source} : null);
  const direct = (network.links ?? []).find((l) => l.from === fromId && l.to === toId);
  if (direct) return pick(direct, 'links');
  const nodeOf = (id) => gpuById.get(id)?.node ?? id;
  if (network.intra_node && fromId !== toId && nodeOf(fromId) === nodeOf(toId)) return pick(network.intra_node, 'intra_node');
  const siteLink = (network.site_links ?? []).find((l) => l.from === siteOf(fromId) && l.to === siteOf(toId));
  if (siteLink) return pick(siteLink, 'site_links');
  const same = siteOf(fromId) === siteOf(toId);
  if (same && network.intra_site) return pick(network.intra_site, 'intra_site');
  if (!same && network.inter_site) return pick(network.inter_site, 'inter_site');
  return pick(network.default, 'default');
}

function hopTip(hop) {
  const fwd = hop.forward ? linkText(hop.forward) : 'no figures';
  const bwd = hop.backward ? linkText(hop.backward) : 'no figures';
  return `Stage ${hop.q + 1} → ${hop.q + 2}: ${hop.a.gpu} → ${hop.b.gpu}: ${fwd}\n` +
    `gradients back ${hop.b.gpu} → ${hop.a.gpu}: ${bwd}`;
}

const EDGE_LABEL_PX = 10.5;
const labelBox = (cx, baseline, text, px) => {
  const w = text.length * px * 0.62 + 4;
  return {x0: cx - w / 2, x1: cx + w / 2, y0: baseline - px - 1, y1: baseline + 3};
};
const overlaps = (a, b) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

// What a link label must not cover: each site's name and count, each GPU's disc and its label.
function occupiedBoxes(layout, stageOf) {
  const boxes = [];
  for (const box of layout.boxes) {
    boxes.push({x0: box.x, x1: box.x + box.w, y0: box.y, y1: box.y + 20});
    for (const node of box.nodes) {
      boxes.push({x0: node.cx - node.r - 1, x1: node.cx + node.r + 1, y0: node.cy - node.r - 1, y1: node.cy + node.r + 1});
      if (node.showLabel) boxes.push(labelBox(node.cx, node.cy + node.r + 12, truncate(node.gpu.id, Math.floor(node.cell / 7)), 10.5));
    }
  }
  return boxes;
}

// A point of the quadratic curve at t.
const onCurve = (t, p0, p1, p2) => (1 - t) * (1 - t) * p0 + 2 * (1 - t) * t * p1 + t * t * p2;

// Link labels go beside their curve where they cover no site name, GPU or other label: a few
// spots along it and on either side are tried; a label with no free spot is left out (the arrow's
// tooltip and the list under the drawing still give its figures).
function edges(hops, markers, stageCount, occupied = [], frame = {width: Infinity, height: Infinity}) {
  // A label must also stay inside the drawing: the svg's edge would cut it.
  const inside = (box) => box.x0 >= 1 && box.y0 >= 1 && box.x1 <= frame.width - 1 && box.y1 <= frame.height - 1;
  const group = el('g', {class: 'gt-topo-edges'});
  const labelled = stageCount <= 12;
  const taken = [...occupied];
  for (const hop of hops) {
    const {from, to} = hop;
    const dx = to.cx - from.cx;
    const dy = to.cy - from.cy;
    const length = Math.hypot(dx, dy) || 1;
    // Bend every arrow to its left so a hop and its way back never overlap.
    const bend = Math.min(60, length * 0.18);
    const cx = (from.cx + to.cx) / 2 - (dy / length) * bend;
    const cy = (from.cy + to.cy) / 2 + (dx / length) * bend;
    const start = towards(from.cx, from.cy, cx, cy, from.r + 1.5);
    const end = towards(to.cx, to.cy, cx, cy, to.r + 2);
    const d = `M${round2(start.x)},${round2(start.y)} Q${round2(cx)},${round2(cy)} ${round2(end.x)},${round2(end.y)}`;
    const g = el('g', {class: `gt-topo-edge${hop.crossSite ? ' is-cross-site' : ''}`, 'data-hop': hop.q, tabindex: 0});
    g.appendChild(el('path', {d, class: 'gt-topo-edge-hit'}));
    g.appendChild(el('path', {d, class: 'gt-topo-edge-line', 'marker-end': hop.crossSite ? markers.cross : markers.local}));
    if (labelled && hop.crossSite && hop.forward) {
      const text = `${formatNumber(hop.forward.bandwidth_gbps)} Gbps · ${formatNumber(hop.forward.latency_ms)} ms`;
      let spot = null;
      for (const t of [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8]) {
        const mx = onCurve(t, start.x, cx, end.x);
        const my = onCurve(t, start.y, cy, end.y);
        // Beside the curve, on its outer side first, away from the straight line between the two GPUs.
        for (const side of [9, 18, -12, -22, 30]) {
          const candidate = {x: mx - (dy / length) * side, y: my + (dx / length) * side + 4};
          const box = labelBox(candidate.x, candidate.y, text, EDGE_LABEL_PX);
          if (inside(box) && !taken.some((b) => overlaps(b, box))) {
            spot = candidate;
            taken.push(box);
            break;
          }
        }
        if (spot) break;
      }
      if (spot) {
        g.appendChild(el('text', {x: round2(spot.x), y: round2(spot.y), 'text-anchor': 'middle', class: 'gt-topo-edge-label'}, text));
      }
    }
    g.appendChild(tip(hopTip(hop)));
    group.appendChild(g);
  }
  return group;
}

function towards(x, y, tx, ty, distance) {
  const dx = tx - x;
  const dy = ty - y;
  const length = Math.hypot(dx, dy) || 1;
  return {x: x + (dx / length) * distance, y: y + (dy / length) * distance};
}

function linkList(hops) {
  const shown = hops.slice(0, MAX_LISTED_LINKS);
  const list = html('ol', {class: 'gt-topo-links'}, shown.map((hop) => html('li', {'data-hop': hop.q}, hopTip(hop))));
  const summary = html('summary', null, `Links on the path (${hops.length})`);
  const details = html('details', {class: 'gt-topo-details'}, [summary, list]);
  if (hops.length > shown.length) append(details, html('p', {class: 'gt-muted'}, `and ${hops.length - shown.length} more`));
  return details;
}

function caption(gpus, stages, names, hops, crossSite) {
  if (stages.length === 0) return `${plural(gpus.length, 'GPU')}; no plan to draw.`;
  const path = names.length <= 10 ? names.join(' → ') : `${names.slice(0, 5).join(' → ')} → … → ${names.slice(-3).join(' → ')}`;
  const slowest = hops.filter((h) => h.forward).sort((x, y) => y.forward.latency_ms - x.forward.latency_ms)[0];
  const parts = [html('strong', null, 'Path: '), path,
    planHasGroups(stages)
      ? ` (${plural(stages.length, 'stage')} on ${gpuCountOf(stages)} of ${plural(gpus.length, 'GPU')}, ${plural(crossSite, 'cross-site hop')}; dashed boxes: stage groups). `
      : ` (${stages.length} of ${plural(gpus.length, 'GPU')}, ${plural(crossSite, 'cross-site hop')}). `];
  if (slowest && hops.length > 1) {
    parts.push(`Highest-latency link on the path: ${slowest.a.gpu} → ${slowest.b.gpu}, ${linkText(slowest.forward)}. `);
  }
  const unused = gpus.length > gpuCountOf(stages);
  if (unused) parts.push('Grey: unused GPUs. ');
  // Only a plan of two stages or more has arrows to hover.
  if (hops.length > 0) parts.push('Hover or focus an arrow for its link figures; the list below gives them all.');
  return parts;
}
