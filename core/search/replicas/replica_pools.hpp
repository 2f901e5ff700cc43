#pragma once
// How a pool may be divided among data-parallel replicas (replicas.md): the
// candidate partitions a replica search plans. A replica takes whole nodes
// (a node's GPUs stay together, so its stage groups keep their NVLink), and
// the families follow how geo-distributed runs are laid out:
//   - one replica per site, and per each of the strongest few sites;
//   - each site split into k equal parts (replicas inside a site pay off
//     where one pipeline cannot use every node well, as in Metis' clusters);
//   - neighbouring sites merged into one replica (a pipeline across a fast
//     pair of sites, replicas across the slower links);
// with at most the allowed number of replicas and at least one micro-batch
// each. Deterministic: candidates come in a fixed order.
#include <string>
#include <vector>

#include "model/problem.hpp"

namespace geotrain {

struct ReplicaPools {
  std::string label;                   // "one per site", "2 per site", "sites in pairs", ...
  std::vector<std::vector<int>> pools;  // GPU indices of each replica's pool, in file order
};

// Partitions into 2..max_replicas pools (exactly `replicas` of them when it is
// >= 2), none with fewer than `min_gpus` GPUs. With a fixed count that no
// family yields, the nodes in site order are cut into that many contiguous
// runs of near-equal GPU count.
std::vector<ReplicaPools> replica_pool_candidates(const Problem& problem, int replicas, int max_replicas,
                                                  int min_gpus = 1);

}  // namespace geotrain
