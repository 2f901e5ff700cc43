// What a first visit shows: a small pool on two sites, with the paper's simulated model.
export function defaultProblem() {
  return {
    name: 'my GPU pool',
    description: 'Four GPUs on two sites. Edit them, or open one of the examples.',
    model: {
      hidden_size: 2048, num_layers: 12, seq_length: 2048, vocab_size: 50258,
      micro_batch_size: 8, global_batch_size: 64, precision: 'fp16',
    },
    gpus: [
      { id: 'a100-0', type: 'A100-SXM-80GB', site: 'site-a', compute_util: 0.45 },
      { id: 'a100-1', type: 'A100-SXM-80GB', site: 'site-a', compute_util: 0.45 },
      { id: 'a40-0', type: 'A40', site: 'site-b', compute_util: 0.45 },
      { id: 'a40-1', type: 'A40', site: 'site-b', compute_util: 0.45 },
    ],
    network: {
      intra_site: { bandwidth_gbps: 100, latency_ms: 0.1 },
      inter_site: { bandwidth_gbps: 10, latency_ms: 10 },
    },
    objective: { lambda: 1 },
    search: {
      population: 200, tournament: 4, elite: 2, local_search_rate: 0.5,
      time_limit_s: 10, patience: 100, max_generations: 500, seed: 1,
    },
  };
}
