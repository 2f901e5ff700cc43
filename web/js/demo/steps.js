// The guided tour's five steps (studies.md point 7): each loads an example, plans it (or runs a
// study), and points at the view that shows the paper's finding. The texts take their facts from the
// examples' stories; the captions read the figures from the plan the page has just made.
import { formatEnergy, formatMs, formatNumber } from '../views/format.js';

const stagesOf = (result) => (Array.isArray(result?.stage_metrics) ? result.stage_metrics : []);
const chain = (result) => (result?.stages || []).map((s) => s.gpu).join(' → ');

// Read from the drawn timeline: the simulated schedule's own figures (core/sim/).
function bubbleCaption({ result }) {
  const svg = document.querySelector('#view-timeline svg.gt-tl-svg');
  if (!svg || !result) return 'The hatched cells are idle time: the pipeline bubble.';
  const { bubbleFraction, simulatedMs, analyticMs } = svg.dataset;
  const stages = Array.isArray(result.stage_metrics) ? result.stage_metrics.length : 0;
  return `Hatched = idle. Here ${stages} stages and ${result.micro_batches} micro-batches leave ` +
    `${formatNumber(Number(bubbleFraction) * 100)}% of the ${formatMs(Number(simulatedMs))} simulated iteration idle ` +
    `(the formula says ${formatMs(Number(analyticMs))}).`;
}

function stragglerCaption({ result }) {
  const stages = stagesOf(result);
  const q = result?.bottleneck_stage;
  const slow = stages[q];
  if (!slow) return 'The bottleneck stage sets the pace.';
  const others = stages.filter((_, k) => k !== q).map((s) => s.stage_ms);
  const fastest = others.length ? Math.min(...others) : slow.stage_ms;
  return `Stage ${q + 1} (${slow.gpu}, ${slow.layers} layers) needs ${formatMs(slow.stage_ms)} per micro-batch, ` +
    `the others as little as ${formatMs(fastest)}: every micro-batch waits for it.`;
}

function comparisonCaption({ result }) {
  return `Uniform: ${formatMs(result?.iteration_ms)} per iteration. Compare the METIS-style baselines below it.`;
}

function leftOutCaption({ result, problem }) {
  const used = new Set((result?.stages || []).map((s) => s.gpu));
  const idle = (problem?.gpus || []).filter((g) => !used.has(g.id)).map((g) => g.id);
  return idle.length
    ? `Greyed: ${idle.join(', ')}, not in the pipeline. The plan ${chain(result)} takes ${formatMs(result.iteration_ms)}.`
    : `Every GPU is used: ${chain(result)}.`;
}

function orderCaption({ result }) {
  return `Pipeline order: ${chain(result)}, ${formatMs(result?.iteration_ms)} per iteration.`;
}

function linkCaption({ result }) {
  const hops = stagesOf(result).slice(0, -1).map((s) => {
    const forward = s.link_forward;
    return forward ? `${s.gpu} → ${forward.to} ${formatNumber(forward.bandwidth_gbps)} Gbps` : null;
  }).filter(Boolean);
  return hops.length ? `Links the plan uses (forward): ${hops.join(', ')}. The 1 Gbps campus → cloud-a direction is not among them.`
    : 'The plan uses no link.';
}

function kneeCaption({ summary }) {
  const knee = summary?.knee;
  return knee
    ? `The knee (★): λ = ${formatNumber(knee.lambda)}, ${formatMs(knee.iteration_ms)} and ${formatEnergy(knee.energy_j)} per iteration.`
    : 'Too few frontier plans for a knee: run the study with more lambdas.';
}

export const STEPS = [
  {
    title: 'The pipeline bubble',
    example: 'straggler-4gpu.json',
    method: 'exact',
    text: [
      'Pipeline training cuts the model into stages, one per GPU, and pushes micro-batches through them. In 1F1B each stage first runs a few forwards (the warm-up), then alternates one forward and one backward (the steady state), then finishes the backwards left (the cool-down).',
      'The 1F1B timeline is that schedule simulated event by event: light blocks are forwards, dark ones backwards, and the bars between the rows are activations going down and gradients coming back. Nothing starts before its input has arrived, so at the start the later stages wait for the first micro-batch to reach them and at the end the earlier stages wait for the last gradients to come back. That idle time is the pipeline bubble, hatched.',
      'More micro-batches per iteration, or fewer stages, shrink its share. Under the timeline the simulated iteration stands next to the cost model\'s formula (the stage times plus M − 1 times the slowest stage\'s): for this plan they agree; where stages are uneven they can differ, and the caption says why.',
    ],
    targets: [{ selector: '.view-timeline', wait: '#view-timeline svg.gt-tl-svg', caption: bubbleCaption }],
  },
  {
    title: 'A straggler under the uniform split',
    example: 'straggler-4gpu.json',
    method: 'uniform',
    text: [
      'The same pool, three A100s and one T4 in one rack, with the layers split evenly: 3 each.',
      'The T4 computes about 4.8 times slower than an A100, so its stage needs about 96 ms per micro-batch against about 12 ms on each A100. In 1F1B the slowest stage sets the pace for every micro-batch, so the iteration takes about 820 ms while the A100s mostly wait.',
      'Look at the bottleneck row of the Stages table, and at the Comparison.',
    ],
    targets: [
      { selector: '.view-stages', wait: '#view-stages table', caption: stragglerCaption, spot: '#view-stages tr.is-bottleneck' },
      { selector: '.view-comparison', wait: '#view-comparison .gt-comparison', caption: comparisonCaption },
    ],
  },
  {
    title: 'Leaving out a slow GPU',
    example: 'straggler-4gpu.json',
    method: 'exact',
    text: [
      'More GPUs is not always faster: the paper\'s Fig. 2a in miniature. A single layer on the T4 takes longer than four layers on an A100.',
      'The best plan leaves the T4 out and splits the 12 layers 5/4/3 over the three A100s (the last stage also carries the LM head): about 211 ms per iteration instead of about 820 ms. The best plan that keeps the T4 gives it one layer and is still slower (about 229 ms).',
      'In the Topology the T4 is greyed: it is not in the pipeline.',
    ],
    targets: [{ selector: '.view-topology', wait: '#view-topology svg', caption: leftOutCaption, spot: '#view-topology .gt-topo-node.is-unused' }],
  },
  {
    title: 'An asymmetric link reorders stages',
    example: 'asymmetric-link.json',
    method: 'exact',
    text: [
      'Three GPUs on three sites. Traffic from the campus to cloud-a crawls at 1 Gbps (a shaped uplink) while cloud-a to campus, and every other link, runs at 25 Gbps.',
      'Activations flow down the pipeline but in 1F1B the gradients come back up, so any order in which the campus and cloud-a are neighbours pays the slow direction on every micro-batch: 2.5 s or more per iteration.',
      'The best plan keeps those two apart: rtx4090, l40s, a100 (or the reverse), about 1.1 s. See the order in the Pipeline and the link figures in the Topology.',
    ],
    targets: [
      { selector: '.view-pipeline', wait: '#view-pipeline svg', caption: orderCaption },
      { selector: '.view-topology', wait: '#view-topology svg', caption: linkCaption },
    ],
  },
  {
    title: 'The energy-time knee',
    example: 'table7-14gpu.json',
    study: { study: 'pareto', lambdas: '0, 0.3, 0.5, 0.8, 1', seeds: '1', method: 'memetic', time_limit_s: '10' },
    text: [
      'The paper\'s 14-GPU energy study (Table 7). Lambda weighs time against energy: at 0 the planner picks a single A100 PCIe (about 1.98 s and 495 J per iteration), at 1 six A100s (about 0.66 s and 763 J).',
      'The trade-off study plans the pool for several lambdas and plots every plan. The frontier joins the plans that no other plan beats on both time and energy; the knee (★) is the frontier plan farthest from the straight line between its two ends. Past it, a little more speed costs a lot more energy.',
      'Choose any point or table row to see its plan.',
    ],
    targets: [{ selector: '#study-output .st-chart-box', wait: '#study-output .st-tradeoff', caption: kneeCaption, spot: '#study-output .st-knee-mark' }],
  },
];
