// Grid layout for the topology view: sites as equal boxes on a grid (left to right, top to bottom in
// the order sites first appear in the problem), each site's GPUs on a grid inside its box. Simple and
// deterministic; node size shrinks with the GPU count so 512 GPUs still fit in about 900 x 600 px.

const PAD = 10;
const HEADER = 22;
const MAX_RADIUS = 20;
const MIN_RADIUS = 2.5;

export function layoutSites(sites, width) {
  const count = Math.max(1, sites.length);
  // A narrow drawing (a phone) keeps boxes at least about 140 px wide: more rows, fewer columns.
  const most = Math.max(1, Math.floor(width / 140));
  const cols = Math.min(most, count <= 3 ? count : Math.ceil(Math.sqrt(count * 1.6)));
  const rows = Math.ceil(count / cols);
  const boxW = (width - PAD * (cols + 1)) / cols;
  const largest = Math.max(1, ...sites.map((s) => s.gpus.length));
  const boxH = boxHeight(boxW, largest, rows);
  const boxes = [];
  const nodeById = new Map();
  let nodeRadius = MAX_RADIUS;
  sites.forEach((site, k) => {
    const box = {site, x: PAD + (k % cols) * (boxW + PAD), y: PAD + Math.floor(k / cols) * (boxH + PAD),
                 w: boxW, h: boxH, nodes: []};
    placeNodes(box);
    for (const node of box.nodes) {
      nodeById.set(node.gpu.id, node);
      nodeRadius = Math.min(nodeRadius, node.r);
    }
    boxes.push(box);
  });
  return {boxes, nodeById, nodeRadius, height: PAD + rows * (boxH + PAD)};
}

// Tall enough that the fullest site gets cells of about 44 px (room for a label) when it has few GPUs,
// capped so the whole drawing stays within about 620 px.
function boxHeight(boxW, largest, rows) {
  const innerW = boxW - 12;
  const perRow = Math.max(1, Math.floor(innerW / 64));
  const wanted = HEADER + 12 + Math.ceil(largest / perRow) * 64;
  const cap = Math.max(90, (620 - PAD * (rows + 1)) / rows);
  return Math.max(Math.min(110, cap), Math.min(wanted, cap, 300));
}

function placeNodes(box) {
  const n = box.site.gpus.length;
  const innerW = box.w - 12;
  const innerH = box.h - HEADER - 8;
  let cols = Math.max(1, Math.min(n, Math.round(Math.sqrt((n * innerW) / Math.max(1, innerH)))));
  while (Math.ceil(n / cols) * (innerW / cols) > innerH * 1.05 && cols < n) cols += 1;
  cols = alignToNodes(box.site.gpus, cols);
  const rows = Math.ceil(n / cols);
  const cellW = innerW / cols;
  const cellH = innerH / rows;
  const cell = Math.min(cellW, cellH);
  const showLabel = cell >= 40 && cellW >= 44;
  const r = Math.max(MIN_RADIUS, Math.min(MAX_RADIUS, cell * (showLabel ? 0.3 : 0.36)));
  // Centre the grid in the box.
  const offsetX = box.x + 6 + (innerW - cols * cellW) / 2;
  const offsetY = box.y + HEADER + (innerH - rows * cellH) / 2;
  box.site.gpus.forEach((gpu, k) => {
    const col = k % cols;
    const row = Math.floor(k / cols);
    box.nodes.push({
      gpu, r, cell: cellW, showLabel,
      cx: offsetX + (col + 0.5) * cellW,
      cy: offsetY + (row + 0.5) * cellH - (showLabel ? 6 : 0),
    });
  });
}

// When a site's GPUs come in machines of one size s (gpus[].node, each machine's GPUs in a row of the
// list), rows hold whole machines (cols a multiple of s) or whole fractions of one (a divisor of s),
// so a stage group drawn around its GPUs stays a box. Anything else keeps the computed columns.
function alignToNodes(gpus, cols) {
  const sizes = [];
  for (let k = 0; k < gpus.length;) {
    const node = gpus[k].node;
    if (typeof node !== 'string' || node === '') return cols;
    let end = k;
    while (end < gpus.length && gpus[end].node === node) end += 1;
    sizes.push(end - k);
    k = end;
  }
  const size = sizes[0];
  if (size < 2 || sizes.some((x) => x !== size)) return cols;
  if (cols >= size) return Math.floor(cols / size) * size;
  let divisor = cols;
  while (size % divisor !== 0) divisor -= 1;
  return divisor;
}
