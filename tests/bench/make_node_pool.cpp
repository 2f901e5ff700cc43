// Writes a node pool of the hybrid benchmarks (node_pool.hpp) as a problem
// file, so that any of their figures can be rerun with the CLI:
//   geotrain_node_pool NODES LAYERS [SEED] > pool.json
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "node_pool.hpp"

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::fprintf(stderr, "usage: geotrain_node_pool NODES LAYERS [SEED]\n");
    return 2;
  }
  const int nodes = std::atoi(argv[1]), layers = std::atoi(argv[2]);
  const unsigned long long seed = argc == 4 ? std::strtoull(argv[3], nullptr, 10) : 1;
  if (nodes < 1 || nodes > 64 || layers < 1 || layers > 1024) {
    std::fprintf(stderr, "geotrain_node_pool: NODES must be 1..64 and LAYERS 1..1024\n");
    return 2;
  }
  std::cout << geotrain::bench::node_pool_json(nodes, layers, seed).dump(1) << "\n";
  return 0;
}
