// geotrain_hard_pool GPUS LAYERS SEED ARCHETYPE: writes a pool of the hard
// family (hard_pool.hpp) as a problem file on stdout, so that every figure
// of its tables can be rerun with the CLI. ARCHETYPE: few-of-many,
// strong-site, fast-wan or mixed. `geotrain_hard_pool a100-four-sites [GBPS]`
// writes the certificate's 512-A100 pool (GBPS between sites, 10 by default).
#include <cstdlib>
#include <iostream>
#include <string>

#include "hard_pool.hpp"

int main(int argc, char** argv) {
  using namespace geotrain::hard_family;
  if (argc >= 2 && std::string(argv[1]) == "a100-four-sites") {  // [INTER_SITE_GBPS]
    std::cout << a100_four_sites_json(argc >= 3 ? std::atof(argv[2]) : 10).dump() << "\n";
    return 0;
  }
  HardPoolShape shape;
  bool named = false;
  if (argc == 5) {
    shape.num_gpus = std::atoi(argv[1]);
    shape.num_layers = std::atoi(argv[2]);
    shape.seed = std::strtoull(argv[3], nullptr, 10);
    for (int a = 0; a < kArchetypes; ++a)
      if (archetype_name(static_cast<Archetype>(a)) == std::string(argv[4]))
        shape.archetype = static_cast<Archetype>(a), named = true;
  }
  if (!named || shape.num_gpus < 1 || shape.num_layers < 1) {
    std::cerr << "usage: geotrain_hard_pool GPUS LAYERS SEED few-of-many|strong-site|fast-wan|mixed\n"
                 "       geotrain_hard_pool a100-four-sites [INTER_SITE_GBPS]\n";
    return 2;
  }
  std::cout << hard_pool_json(shape).dump() << "\n";
  return 0;
}
