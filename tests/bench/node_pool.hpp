#pragma once
// Pools of machines for the hybrid (stage-group) benchmarks: `nodes` nodes of
// datacenter GPUs (8 x A100 80GB, 8 x H100 or 8 x L40S per node, NVLink or
// PCIe inside) spread over sites, two in five sites a long way off, training
// a 70B-class model (H 8192, T 4096, bf16, u 1, B 512). Drawn from
// geotrain::Rng: a (nodes, layers, seed) triple is the same pool everywhere.
#include <cstdint>

#include <nlohmann/json.hpp>

#include "model/problem.hpp"

namespace geotrain::bench {

nlohmann::ordered_json node_pool_json(int nodes, int layers, std::uint64_t seed = 1);
Problem node_pool(int nodes, int layers, std::uint64_t seed = 1);

}  // namespace geotrain::bench
