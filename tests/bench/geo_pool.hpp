#pragma once
// Large heterogeneous, geo-distributed pools for the benchmarks at scale
// (issue 10): catalogue GPU types at varied utilisations over 3-12 sites,
// asymmetric site-to-site links, and a quarter of the GPUs behind a degraded
// NIC (slow outbound links to their own site's peers). Drawn from
// geotrain::Rng, so a (gpus, layers, seed) triple is the same pool on every
// machine; `geotrain_geo_pool` writes it as a problem file.
#include <cstdint>

#include <nlohmann/json.hpp>

#include "model/problem.hpp"

namespace geotrain::bench {

struct GeoPoolShape {
  int num_gpus = 64;
  int num_layers = 64;
  std::uint64_t seed = 1;
  // Every ordered pair written as a `links` entry (N (N - 1) of them) with the
  // link the compact file resolves to: the same figures, the largest file.
  bool explicit_links = false;
};

nlohmann::ordered_json geo_pool_json(const GeoPoolShape& shape);
Problem geo_pool(const GeoPoolShape& shape);  // the file above, parsed

}  // namespace geotrain::bench
