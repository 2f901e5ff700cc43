#include "node_pool.hpp"

#include <string>

#include "model/problem_json.hpp"
#include "search/random.hpp"

namespace geotrain::bench {

nlohmann::ordered_json node_pool_json(int nodes, int layers, std::uint64_t seed) {
  Rng rng(seed);
  using json = nlohmann::ordered_json;
  const int sites = nodes < 4 ? 1 : std::min(8, nodes / 2);
  struct Kind { const char* type; int gpus; double util; };
  const Kind kinds[] = {{"A100-SXM-80GB", 8, 0.45}, {"H100-SXM", 8, 0.4}, {"L40S", 8, 0.5}};
  json gpus = json::array();
  for (int n = 0; n < nodes; ++n) {
    const Kind& kind = kinds[rng.uniform_int(0, 2)];
    const std::string site = "s" + std::to_string(n % sites);
    const std::string node = site + "-n" + std::to_string(n);
    for (int k = 0; k < kind.gpus; ++k)
      gpus.push_back({{"id", node + "-g" + std::to_string(k)}, {"type", kind.type}, {"site", site},
                      {"node", node}, {"compute_util", kind.util}, {"memory_util", 0.9}});
  }
  json site_links = json::array();
  for (int a = 0; a < sites; ++a) {
    for (int b = 0; b < sites; ++b) {
      if (a == b) continue;
      const bool far = (a % 5 >= 3) != (b % 5 >= 3);
      site_links.push_back({{"from", "s" + std::to_string(a)}, {"to", "s" + std::to_string(b)},
                            {"bandwidth_gbps", far ? 10.0 * rng.uniform_int(1, 3) : 25.0 * rng.uniform_int(1, 4)},
                            {"latency_ms", far ? 5.0 * rng.uniform_int(12, 30) : 2.0 * rng.uniform_int(2, 15)}});
    }
  }
  return {{"name", "node pool " + std::to_string(nodes) + "x" + std::to_string(layers)},
          {"model", {{"hidden_size", 8192}, {"num_layers", layers}, {"seq_length", 4096}, {"vocab_size", 128256},
                     {"micro_batch_size", 1}, {"global_batch_size", 512}, {"precision", "bf16"}}},
          {"gpus", gpus},
          {"network", {{"intra_node", {{"bandwidth_gbps", 2400}, {"latency_ms", 0.005}}},
                       {"intra_site", {{"bandwidth_gbps", 200}, {"latency_ms", 0.01}}},
                       {"inter_site", {{"bandwidth_gbps", 10}, {"latency_ms", 50}}},
                       {"site_links", site_links}}},
          {"search", {{"parallelism", "hybrid"}}}};
}

Problem node_pool(int nodes, int layers, std::uint64_t seed) {
  return parse_problem_text(node_pool_json(nodes, layers, seed).dump()).problem;
}

}  // namespace geotrain::bench
