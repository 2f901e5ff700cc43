// geotrain_geo_pool GPUS LAYERS [SEED] [--explicit-links]: writes the
// benchmarks' pool (geo_pool.hpp) as a problem file on stdout, so that every
// number in docs/performance.md's tables at scale can be rerun with the CLI.
#include <cstdlib>
#include <iostream>
#include <string>

#include "geo_pool.hpp"

int main(int argc, char** argv) {
  geotrain::bench::GeoPoolShape shape;
  int positional = 0;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--explicit-links") shape.explicit_links = true;
    else if (positional == 0) shape.num_gpus = std::atoi(argv[a]), ++positional;
    else if (positional == 1) shape.num_layers = std::atoi(argv[a]), ++positional;
    else if (positional == 2) shape.seed = std::strtoull(argv[a], nullptr, 10), ++positional;
  }
  if (positional < 2 || shape.num_gpus < 1 || shape.num_layers < 1) {
    std::cerr << "usage: geotrain_geo_pool GPUS LAYERS [SEED] [--explicit-links]\n";
    return 2;
  }
  std::cout << geotrain::bench::geo_pool_json(shape).dump() << "\n";
  return 0;
}
