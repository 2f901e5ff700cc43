#pragma once
// Random small problems for property tests: heterogeneous GPUs over a few
// sites, asymmetric links, and memory that is sometimes tight enough to rule
// plans out. Drawn from geotrain::Rng so every platform sees the same pools.
#include <string>

#include "model/problem.hpp"
#include "search/random.hpp"

namespace geotrain::testing {

struct PoolShape {
  int min_gpus = 2, max_gpus = 5;
  int min_layers = 2, max_layers = 8;
  bool tight_memory = true;  // some pools get GPUs that hold only a few layers
  double lambda = -1;        // < 0: drawn from {0, 0.5, 1}
};

inline Problem random_pool(std::uint64_t seed, const PoolShape& shape = {}) {
  Rng rng(seed);
  Problem p;
  p.name = "random pool " + std::to_string(seed);
  auto& m = p.model;
  m.hidden_size = 256 * rng.uniform_int(1, 8);
  m.num_layers = rng.uniform_int(shape.min_layers, shape.max_layers);
  m.seq_length = 128 * rng.uniform_int(1, 8);
  m.vocab_size = 1000 * rng.uniform_int(1, 50);
  m.micro_batch_size = rng.uniform_int(1, 8);
  m.global_batch_size = m.micro_batch_size * rng.uniform_int(1, 16);
  m.precision = rng.bernoulli(0.5) ? Precision::fp16 : Precision::fp32;

  const int n = rng.uniform_int(shape.min_gpus, shape.max_gpus);
  const int sites = rng.uniform_int(1, 3);
  for (int i = 0; i < n; ++i) {
    Gpu g;
    g.id = "g" + std::to_string(i);
    g.site = std::string(1, static_cast<char>('A' + rng.uniform_int(0, sites - 1)));
    g.peak_tflops = 10.0 * rng.uniform_int(1, 40);
    g.compute_util = 0.25 * rng.uniform_int(1, 4);
    g.memory_gib = shape.tight_memory && rng.bernoulli(0.3) ? 0.25 * rng.uniform_int(1, 8) : 8.0 * rng.uniform_int(1, 10);
    g.idle_w = 10.0 * rng.uniform_int(1, 10);
    g.active_w = g.idle_w + 20.0 * rng.uniform_int(1, 20);
    p.gpus.push_back(g);
  }
  p.network.intra_site = LinkSpec{100, 0.1, 1};
  p.network.inter_site = LinkSpec{10, 10, 1};
  // Directed overrides so that i -> j and j -> i differ.
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (i != j && rng.bernoulli(0.3))
        p.network.links.push_back({p.gpus[i].id, p.gpus[j].id,
                                   LinkSpec{0.5 * rng.uniform_int(1, 200), 0.5 * rng.uniform_int(0, 100), 1}});
  p.objective.lambda = shape.lambda >= 0 ? shape.lambda : 0.5 * rng.uniform_int(0, 2);
  p.objective.t_ref_ms = 1000;
  p.objective.e_ref_j = 1000;
  return p;
}

}  // namespace geotrain::testing
