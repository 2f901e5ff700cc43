#include "geo_pool.hpp"

#include <string>
#include <vector>

#include "model/network.hpp"
#include "model/problem_json.hpp"
#include "search/random.hpp"

namespace geotrain::bench {

namespace {

using json = nlohmann::ordered_json;

// Catalogue types a multi-site pool of rented and owned GPUs might mix.
const char* const kTypes[] = {"H100-SXM", "A100-SXM-80GB", "A100-PCIe-40GB", "A30",   "A40",
                              "L40S",     "A10",           "L4",             "T4",    "V100-32GB",
                              "RTX-4090", "RTX-3090"};

// 0.5 * k for a k drawn in [lo, hi]: values that print exactly.
double halves(Rng& rng, int lo, int hi) { return 0.5 * rng.uniform_int(lo, hi); }

}  // namespace

json geo_pool_json(const GeoPoolShape& shape) {
  Rng rng(shape.seed * 1000003u + static_cast<std::uint64_t>(shape.num_gpus));
  json doc;
  doc["name"] = "geo pool " + std::to_string(shape.num_gpus) + "x" + std::to_string(shape.num_layers) + " seed " +
                std::to_string(shape.seed);
  // M = 32 micro-batches; activations of (Q + 1) micro-batches make deep
  // pipelines need many GPUs' memory, as in the paper's setting.
  doc["model"] = {{"hidden_size", 2048}, {"num_layers", shape.num_layers}, {"seq_length", 2048},
                  {"vocab_size", 50258}, {"micro_batch_size", 2},          {"global_batch_size", 64},
                  {"precision", "fp16"}};
  const int sites = rng.uniform_int(3, 12);
  json gpus = json::array();
  std::vector<int> site_of(static_cast<std::size_t>(shape.num_gpus));
  for (int i = 0; i < shape.num_gpus; ++i) {
    site_of[i] = rng.uniform_int(0, sites - 1);
    const char* type = kTypes[rng.below(sizeof kTypes / sizeof kTypes[0])];
    gpus.push_back({{"id", "g" + std::to_string(i)},
                    {"type", type},
                    {"site", "s" + std::to_string(site_of[i])},
                    {"compute_util", 0.05 * rng.uniform_int(6, 16)}});
  }
  doc["gpus"] = gpus;
  json network = {{"intra_site", {{"bandwidth_gbps", 100}, {"latency_ms", 0.1}}},
                  {"inter_site", {{"bandwidth_gbps", 10}, {"latency_ms", 10}}}};
  std::vector<char> site_used(static_cast<std::size_t>(sites), 0);
  for (int s : site_of) site_used[s] = 1;
  json site_links = json::array();
  for (int a = 0; a < sites; ++a)
    for (int b = 0; b < sites; ++b)
      if (a != b && site_used[a] && site_used[b])  // each direction drawn on its own: asymmetric
        site_links.push_back({{"from", "s" + std::to_string(a)},
                              {"to", "s" + std::to_string(b)},
                              {"bandwidth_gbps", halves(rng, 2, 80)},
                              {"latency_ms", halves(rng, 4, 120)}});
  network["site_links"] = site_links;
  json links = json::array();
  for (int i = 0; i < shape.num_gpus; ++i) {
    if (!rng.bernoulli(0.25)) continue;
    for (int j = 0; j < shape.num_gpus; ++j)
      if (j != i && site_of[j] == site_of[i])
        links.push_back({{"from", "g" + std::to_string(i)},
                         {"to", "g" + std::to_string(j)},
                         {"bandwidth_gbps", 2},
                         {"latency_ms", 1}});
  }
  if (!links.empty()) network["links"] = links;
  doc["network"] = network;
  doc["objective"] = {{"lambda", 1.0}};

  if (shape.explicit_links) {
    const Problem compact = parse_problem_text(doc.dump()).problem;
    const auto table = resolve_links(compact.network, compact.gpus);
    json all = json::array();
    const std::size_t n = compact.gpus.size();
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        if (i != j && table[i * n + j])
          all.push_back({{"from", compact.gpus[i].id},
                         {"to", compact.gpus[j].id},
                         {"bandwidth_gbps", table[i * n + j]->link.bandwidth_gbps},
                         {"latency_ms", table[i * n + j]->link.latency_ms}});
    doc["network"] = {{"links", all}};
  }
  return doc;
}

Problem geo_pool(const GeoPoolShape& shape) { return parse_problem_text(geo_pool_json(shape).dump()).problem; }

}  // namespace geotrain::bench
