#include "hard_pool.hpp"

#include <algorithm>

#include "model/cost_model.hpp"
#include "model/feasibility.hpp"
#include "model/problem_json.hpp"
#include "search/random.hpp"

namespace geotrain::hard_family {

namespace {

using json = nlohmann::ordered_json;

enum class SiteKind { data_centre, cloud, lab };

// Catalogue types by kind of site.
const char* const kDataCentre[] = {"H100-SXM", "A100-SXM-80GB", "H100-PCIe", "A100-SXM-40GB"};
const char* const kCloud[] = {"A100-PCIe-40GB", "A100-PCIe-80GB", "L40S", "A10", "L4", "A40", "V100-32GB"};
const char* const kLab[] = {"RTX-4090", "RTX-3090", "T4", "V100-16GB", "A30", "RTX-2080-Ti"};

template <std::size_t K>
const char* pick(Rng& rng, const char* const (&types)[K]) {
  return types[rng.below(K)];
}

// 0.5 * k for a k drawn in [lo, hi]: values that print exactly.
double halves(Rng& rng, int lo, int hi) { return 0.5 * rng.uniform_int(lo, hi); }
double hundredths(Rng& rng, int lo, int hi) { return 0.01 * rng.uniform_int(lo, hi); }

struct Site {
  SiteKind kind;
  int weight;  // share of the GPUs, relative
};

// Kinds and sizes of the sites of each archetype.
std::vector<Site> draw_sites(Rng& rng, Archetype archetype) {
  std::vector<Site> sites;
  switch (archetype) {
    case Archetype::few_of_many: {
      const int count = rng.uniform_int(6, 12);
      for (int s = 0; s < count; ++s)
        sites.push_back({s < 2 ? SiteKind::data_centre : (rng.bernoulli(0.5) ? SiteKind::cloud : SiteKind::lab),
                         rng.uniform_int(2, 6)});
      break;
    }
    case Archetype::strong_site: {
      const int count = rng.uniform_int(4, 12);
      sites.push_back({SiteKind::data_centre, 3 * (count - 1) * rng.uniform_int(1, 3) / 4 + 1});
      for (int s = 1; s < count; ++s) sites.push_back({rng.bernoulli(0.6) ? SiteKind::lab : SiteKind::cloud, 3});
      break;
    }
    case Archetype::fast_wan: {
      const int count = rng.uniform_int(3, 8);
      for (int s = 0; s < count; ++s)
        sites.push_back({static_cast<SiteKind>(rng.uniform_int(0, 2)), rng.uniform_int(2, 6)});
      break;
    }
    case Archetype::mixed: {
      const int count = rng.uniform_int(3, 12);
      for (int s = 0; s < count; ++s)
        sites.push_back({static_cast<SiteKind>(rng.uniform_int(0, 2)), rng.uniform_int(1, 6)});
      break;
    }
  }
  return sites;
}

// The link inside a site of this kind.
json intra_site_link(Rng& rng, SiteKind kind) {
  switch (kind) {
    case SiteKind::data_centre:
      return {{"bandwidth_gbps", 100.0 * rng.uniform_int(2, 4)}, {"latency_ms", hundredths(rng, 1, 5)}};
    case SiteKind::cloud: return {{"bandwidth_gbps", 25.0 * rng.uniform_int(1, 4)}, {"latency_ms", hundredths(rng, 5, 20)}};
    case SiteKind::lab: break;
  }
  return {{"bandwidth_gbps", 5.0 * rng.uniform_int(2, 5)}, {"latency_ms", hundredths(rng, 10, 50)}};
}

// One direction of a link between two sites.
json wan_link(Rng& rng, Archetype archetype) {
  switch (archetype) {
    case Archetype::few_of_many: return {{"bandwidth_gbps", halves(rng, 10, 50)}, {"latency_ms", halves(rng, 40, 240)}};
    case Archetype::strong_site: return {{"bandwidth_gbps", halves(rng, 20, 100)}, {"latency_ms", halves(rng, 20, 120)}};
    case Archetype::fast_wan: return {{"bandwidth_gbps", 25.0 * rng.uniform_int(4, 16)}, {"latency_ms", halves(rng, 1, 8)}};
    case Archetype::mixed: break;
  }
  if (rng.bernoulli(0.4)) return {{"bandwidth_gbps", 25.0 * rng.uniform_int(2, 8)}, {"latency_ms", halves(rng, 2, 10)}};
  return {{"bandwidth_gbps", halves(rng, 4, 40)}, {"latency_ms", halves(rng, 40, 300)}};
}

}  // namespace

const char* archetype_name(Archetype archetype) {
  switch (archetype) {
    case Archetype::few_of_many: return "few-of-many";
    case Archetype::strong_site: return "strong-site";
    case Archetype::fast_wan: return "fast-wan";
    case Archetype::mixed: return "mixed";
  }
  return "";
}

std::string hard_pool_name(const HardPoolShape& shape) {
  return std::string("hard ") + archetype_name(shape.archetype) + " " + std::to_string(shape.num_gpus) + "x" +
         std::to_string(shape.num_layers) + " seed " + std::to_string(shape.seed);
}

json hard_pool_json(const HardPoolShape& shape) {
  Rng rng(shape.seed * 1000003u + static_cast<std::uint64_t>(shape.num_gpus) * 131u +
          static_cast<std::uint64_t>(shape.num_layers) * 7u + static_cast<std::uint64_t>(shape.archetype));
  json doc;
  doc["name"] = hard_pool_name(shape);
  // A large model (H 4096-6144) with many micro-batches: a GPU holds a few
  // layers, and activations of (Q + 1) micro-batches per layer make deep
  // pipelines short of memory, so the stage count, and which sites hold the
  // stages, decide the plan. fp16: the lab cards have no bf16 figure.
  const int hidden = 1024 * rng.uniform_int(4, 6);
  const int micro_batch = rng.uniform_int(1, 2);
  const int micro_batches = 32 << rng.uniform_int(0, 2);
  doc["model"] = {{"hidden_size", hidden},
                  {"num_layers", shape.num_layers},
                  {"seq_length", 2048 * rng.uniform_int(1, 2)},
                  {"vocab_size", 32000 * rng.uniform_int(1, 4)},
                  {"micro_batch_size", micro_batch},
                  {"global_batch_size", micro_batch * micro_batches},
                  {"precision", "fp16"}};
  const std::vector<Site> sites = draw_sites(rng, shape.archetype);
  int total_weight = 0;
  for (const Site& s : sites) total_weight += s.weight;
  json gpus = json::array();
  std::vector<int> site_used(sites.size(), 0);
  for (int i = 0; i < shape.num_gpus; ++i) {
    // A site in proportion to its weight.
    int draw = static_cast<int>(rng.below(static_cast<std::uint64_t>(total_weight))), site = 0;
    while (draw >= sites[static_cast<std::size_t>(site)].weight) draw -= sites[static_cast<std::size_t>(site++)].weight;
    site_used[static_cast<std::size_t>(site)] = 1;
    const SiteKind kind = sites[static_cast<std::size_t>(site)].kind;
    const char* type = kind == SiteKind::data_centre ? pick(rng, kDataCentre)
                       : kind == SiteKind::cloud     ? pick(rng, kCloud)
                                                     : pick(rng, kLab);
    const double util = kind == SiteKind::data_centre ? 0.05 * rng.uniform_int(8, 12)
                        : kind == SiteKind::cloud     ? 0.05 * rng.uniform_int(6, 12)
                                                      : 0.05 * rng.uniform_int(6, 16);
    gpus.push_back({{"id", "g" + std::to_string(i)},
                    {"type", type},
                    {"site", "s" + std::to_string(site)},
                    {"compute_util", util},
                    {"memory_util", 0.9}});
  }
  doc["gpus"] = gpus;
  json site_links = json::array();
  for (std::size_t a = 0; a < sites.size(); ++a) {
    if (!site_used[a]) continue;
    json inside = intra_site_link(rng, sites[a].kind);
    site_links.push_back({{"from", "s" + std::to_string(a)}, {"to", "s" + std::to_string(a)},
                          {"bandwidth_gbps", inside["bandwidth_gbps"]}, {"latency_ms", inside["latency_ms"]}});
  }
  for (std::size_t a = 0; a < sites.size(); ++a)
    for (std::size_t b = 0; b < sites.size(); ++b)
      if (a != b && site_used[a] && site_used[b]) {  // each direction drawn on its own: asymmetric
        json link = wan_link(rng, shape.archetype);
        site_links.push_back({{"from", "s" + std::to_string(a)}, {"to", "s" + std::to_string(b)},
                              {"bandwidth_gbps", link["bandwidth_gbps"]}, {"latency_ms", link["latency_ms"]}});
      }
  doc["network"] = {{"intra_site", {{"bandwidth_gbps", 100}, {"latency_ms", 0.1}}},
                    {"inter_site", {{"bandwidth_gbps", 10}, {"latency_ms", 30}}},
                    {"site_links", site_links}};
  doc["objective"] = {{"lambda", rng.bernoulli(0.75) ? 1.0 : 0.5}};
  // Every pool has a plan: halve the sequence (then the hidden size) until
  // one fits in memory.
  for (;;) {
    const Problem problem = parse_problem_text(doc.dump()).problem;
    if (any_feasible_plan(CostModel(problem))) break;
    json& model = doc["model"];
    if (model["seq_length"].get<int>() > 512) model["seq_length"] = model["seq_length"].get<int>() / 2;
    else model["hidden_size"] = model["hidden_size"].get<int>() - 1024;
  }
  return doc;
}

Problem hard_pool(const HardPoolShape& shape) { return parse_problem_text(hard_pool_json(shape).dump()).problem; }

json a100_four_sites_json(double inter_site_gbps) {
  json gpus = json::array();
  for (int site = 0; site < 4; ++site)
    for (int node = 0; node < 16; ++node) {
      const std::string name = "s" + std::to_string(site) + "-n" + std::to_string(node);
      for (int k = 0; k < 8; ++k)
        gpus.push_back({{"id", name + "-g" + std::to_string(k)}, {"type", "A100-SXM-80GB"},
                        {"site", "s" + std::to_string(site)}, {"node", name}, {"compute_util", 0.45},
                        {"memory_util", 0.9}});
    }
  return {{"name", "512 A100 on four sites"},
          {"model", {{"hidden_size", 8192}, {"num_layers", 80}, {"seq_length", 4096}, {"vocab_size", 128256},
                     {"micro_batch_size", 8}, {"global_batch_size", 1024}, {"precision", "bf16"}}},
          {"gpus", gpus},
          {"network", {{"intra_node", {{"bandwidth_gbps", 2400}, {"latency_ms", 0.005}}},
                       {"intra_site", {{"bandwidth_gbps", 200}, {"latency_ms", 0.01}}},
                       {"inter_site", {{"bandwidth_gbps", inter_site_gbps}, {"latency_ms", 30}}}}},
          {"objective", {{"lambda", 1.0}}},
          {"search", {{"parallelism", "hybrid"}}}};
}

std::vector<HardPoolShape> family_shapes(int seeds_per_cell) {
  const int sizes[][2] = {{64, 48}, {128, 64}, {256, 96}, {512, 128}};
  std::vector<HardPoolShape> family;
  for (int seed = 1; seed <= seeds_per_cell; ++seed)
    for (const auto& size : sizes)
      for (int a = 0; a < kArchetypes; ++a)
        family.push_back({size[0], size[1], static_cast<std::uint64_t>(seed), static_cast<Archetype>(a)});
  return family;
}

}  // namespace geotrain::hard_family
