#pragma once
// Random small pools of machines for the hybrid property tests: nodes of 1, 2
// or 4 alike GPUs (one site each) behind a fast intra-node link, over a few
// sites with slower links between them, memory sometimes too tight for a
// layer on one GPU, and micro-batch sizes that allow 1, 2 or 4 data shards.
#include <string>

#include "model/problem.hpp"
#include "search/random.hpp"

namespace geotrain::testing {

inline Problem random_node_pool(std::uint64_t seed, int max_gpus = 8, int max_layers = 6) {
  Rng rng(seed);
  Problem p;
  p.name = "random node pool " + std::to_string(seed);
  auto& m = p.model;
  m.hidden_size = 512 * rng.uniform_int(1, 4);
  m.num_layers = rng.uniform_int(2, max_layers);
  m.seq_length = 256 * rng.uniform_int(1, 4);
  m.vocab_size = 1000 * rng.uniform_int(1, 30);
  const int sizes[] = {1, 2, 4};
  m.micro_batch_size = sizes[rng.uniform_int(0, 2)];
  m.global_batch_size = m.micro_batch_size * rng.uniform_int(1, 8);
  m.precision = Precision::fp16;
  const int sites = rng.uniform_int(1, 2);
  int node = 0;
  while (static_cast<int>(p.gpus.size()) < max_gpus) {
    const int room = max_gpus - static_cast<int>(p.gpus.size());
    int size = sizes[rng.uniform_int(0, 2)];
    while (size > room) size /= 2;
    const std::string site(1, static_cast<char>('A' + rng.uniform_int(0, sites - 1)));
    const double tflops = 25.0 * rng.uniform_int(1, 12);
    const double memory = rng.bernoulli(0.3) ? 0.5 * rng.uniform_int(1, 4) : 8.0 * rng.uniform_int(1, 6);
    const double idle = 10.0 * rng.uniform_int(1, 8);
    for (int k = 0; k < size; ++k) {
      Gpu g;
      g.id = "n" + std::to_string(node) + "g" + std::to_string(k);
      g.node = size > 1 ? "n" + std::to_string(node) : "";
      g.site = site;
      g.peak_tflops = tflops;
      g.memory_gib = memory;
      g.idle_w = idle;
      g.active_w = idle + 20.0 * rng.uniform_int(1, 15);
      p.gpus.push_back(g);
    }
    ++node;
    if (rng.bernoulli(0.3)) break;  // pools of every size up to max_gpus
  }
  p.network.intra_node = LinkSpec{400.0 * rng.uniform_int(1, 6), 0.005, 1};
  p.network.intra_site = LinkSpec{25.0 * rng.uniform_int(1, 8), 0.05, 1};
  p.network.inter_site = LinkSpec{1.0 * rng.uniform_int(1, 10), 1.0 * rng.uniform_int(1, 40), 1};
  p.objective.lambda = 0.5 * rng.uniform_int(0, 2);
  p.objective.t_ref_ms = 1000;
  p.objective.e_ref_j = 1000;
  p.search.parallelism = Parallelism::hybrid;
  return p;
}

}  // namespace geotrain::testing
