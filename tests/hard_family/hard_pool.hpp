#pragma once
// The hard family (issue 23): multi-site pools built so that a search that
// only moves layers and swaps GPUs gets trapped. Catalogue GPU types over
// 3-12 sites of three kinds (data centre: H100 / A100 80GB on fast fabric;
// cloud: mid-range cards on ordinary networks; lab: consumer and old cards
// on slow ones), asymmetric site-to-site links drawn each way, and a model
// whose activations make deep pipelines short of memory, so that the stage
// count, and which sites hold the stages, decide the plan. Four archetypes:
//
// - few_of_many: 6-12 sites on a slow WAN; the best plan uses a few of them.
// - strong_site: one data-centre site and many weak ones.
// - fast_wan: a metro-area WAN fast enough that crossing sites pays.
// - mixed: any kinds, links fast one way and slow the other.
//
// Drawn from geotrain::Rng: a (gpus, layers, seed, archetype) tuple is the
// same pool on every machine; `geotrain_hard_pool` writes it as a problem file.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/problem.hpp"

namespace geotrain::hard_family {

enum class Archetype { few_of_many, strong_site, fast_wan, mixed };
constexpr int kArchetypes = 4;
const char* archetype_name(Archetype archetype);

struct HardPoolShape {
  int num_gpus = 256;
  int num_layers = 128;
  std::uint64_t seed = 1;
  Archetype archetype = Archetype::mixed;
};

nlohmann::ordered_json hard_pool_json(const HardPoolShape& shape);
Problem hard_pool(const HardPoolShape& shape);  // the file above, parsed
std::string hard_pool_name(const HardPoolShape& shape);

// The family the tests and tables use: every archetype at 64 x 48, 128 x 64,
// 256 x 96 and 512 x 128 (GPUs x layers), `seeds_per_cell` pool seeds each
// (1, 2, ...): 16 pools per seed.
std::vector<HardPoolShape> family_shapes(int seeds_per_cell);

// The certificate's test pool (issue 23): 512 A100 80GB in 64 NVLink nodes of
// eight (2,400 Gbps inside a node), four sites of 16 nodes (200 Gbps inside a
// site, 30 ms and `inter_site_gbps` between sites), a 70B-class model (H 8192,
// 80 layers, T 4096, bf16, u 8, B 1024), search.parallelism "hybrid".
nlohmann::ordered_json a100_four_sites_json(double inter_site_gbps = 10);

}  // namespace geotrain::hard_family
