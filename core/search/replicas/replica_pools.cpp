#include "search/replicas/replica_pools.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "model/link_table.hpp"

namespace geotrain {

namespace {

struct Node {
  std::vector<int> gpus;
  double flops = 0;  // effective, summed
};

struct Site {
  std::vector<Node> nodes;  // strongest first, then file order
  double flops = 0;
};

// Sites in order of their first GPU, each with its nodes.
std::vector<Site> sites_of(const Problem& problem) {
  std::map<std::string, std::size_t> site_index, node_index;
  std::vector<Site> sites;
  std::vector<std::size_t> node_site;
  std::vector<Node> nodes;
  for (std::size_t i = 0; i < problem.gpus.size(); ++i) {
    const Gpu& g = problem.gpus[i];
    const auto s = site_index.emplace(g.site, sites.size());
    if (s.second) sites.push_back({});
    const auto n = node_index.emplace(g.node_name(), nodes.size());
    if (n.second) nodes.push_back({}), node_site.push_back(s.first->second);
    nodes[n.first->second].gpus.push_back(static_cast<int>(i));
    nodes[n.first->second].flops += g.effective_flops();
  }
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    sites[node_site[n]].flops += nodes[n].flops;
    sites[node_site[n]].nodes.push_back(std::move(nodes[n]));
  }
  for (Site& s : sites)
    std::stable_sort(s.nodes.begin(), s.nodes.end(), [](const Node& a, const Node& b) { return a.flops > b.flops; });
  return sites;
}

std::vector<int> gpus_of(const std::vector<const Node*>& nodes) {
  std::vector<int> gpus;
  for (const Node* n : nodes) gpus.insert(gpus.end(), n->gpus.begin(), n->gpus.end());
  std::sort(gpus.begin(), gpus.end());
  return gpus;
}

// The site's nodes dealt into k parts, strongest first, round robin: parts of
// near-equal strength and, on a site of alike nodes, identical shape.
std::vector<std::vector<int>> split_site(const Site& site, int k) {
  std::vector<std::vector<const Node*>> parts(static_cast<std::size_t>(k));
  for (std::size_t n = 0; n < site.nodes.size(); ++n) parts[n % static_cast<std::size_t>(k)].push_back(&site.nodes[n]);
  std::vector<std::vector<int>> pools;
  for (const auto& p : parts) pools.push_back(gpus_of(p));
  return pools;
}

// Sites ranked by effective compute, strongest first (file order among equals).
std::vector<std::size_t> by_strength(const std::vector<Site>& sites) {
  std::vector<std::size_t> order(sites.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return sites[a].flops > sites[b].flops; });
  return order;
}

// Pairs of sites joined by the fastest links: greedily, the pair with the
// most bandwidth both ways first (ties: file order); an odd site stays alone.
std::vector<std::vector<std::size_t>> paired_sites(const Problem& problem, const std::vector<Site>& sites) {
  std::vector<std::string> names;
  for (const Site& s : sites) names.push_back(problem.gpus[static_cast<std::size_t>(s.nodes[0].gpus[0])].site);
  std::vector<std::tuple<double, std::size_t, std::size_t>> pairs;
  for (std::size_t a = 0; a < sites.size(); ++a)
    for (std::size_t b = a + 1; b < sites.size(); ++b) {
      const auto ab = site_pair_link(problem.network, names[a], names[b]);
      const auto ba = site_pair_link(problem.network, names[b], names[a]);
      const double bw = std::min(ab ? ab->effective_bytes_per_s() : 0.0, ba ? ba->effective_bytes_per_s() : 0.0);
      pairs.emplace_back(-bw, a, b);
    }
  std::stable_sort(pairs.begin(), pairs.end());
  std::vector<bool> taken(sites.size(), false);
  std::vector<std::vector<std::size_t>> groups;
  for (const auto& [negative_bw, a, b] : pairs) {
    if (taken[a] || taken[b]) continue;
    taken[a] = taken[b] = true;
    groups.push_back({a, b});
  }
  for (std::size_t s = 0; s < sites.size(); ++s)
    if (!taken[s]) groups.push_back({s});
  return groups;
}

// The nodes in site order cut into `count` runs of near-equal GPU count.
std::vector<std::vector<int>> contiguous_runs(const std::vector<Site>& sites, int count) {
  std::vector<const Node*> nodes;
  int total = 0;
  for (const Site& s : sites)
    for (const Node& n : s.nodes) nodes.push_back(&n), total += static_cast<int>(n.gpus.size());
  std::vector<std::vector<int>> pools;
  std::vector<const Node*> current;
  int taken = 0;
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    current.push_back(nodes[k]);
    taken += static_cast<int>(nodes[k]->gpus.size());
    const int made = static_cast<int>(pools.size()) + 1;
    const int nodes_left = static_cast<int>(nodes.size() - k - 1);
    // Close a run at its share of the GPUs, or when just enough nodes remain.
    if (made < count && (taken * count >= total * made || nodes_left == count - made)) {
      pools.push_back(gpus_of(current));
      current.clear();
    }
  }
  if (!current.empty()) pools.push_back(gpus_of(current));
  return pools;
}

}  // namespace

std::vector<ReplicaPools> replica_pool_candidates(const Problem& problem, int replicas, int max_replicas,
                                                  int min_gpus) {
  const std::vector<Site> sites = sites_of(problem);
  std::vector<ReplicaPools> out;
  std::set<std::vector<std::vector<int>>> seen;
  const auto add = [&](std::string label, std::vector<std::vector<int>> pools) {
    const int count = static_cast<int>(pools.size());
    if (count < 2 || count > max_replicas || (replicas >= 2 && count != replicas)) return;
    for (const auto& p : pools)
      if (static_cast<int>(p.size()) < min_gpus) return;
    std::vector<std::vector<int>> key = pools;
    std::sort(key.begin(), key.end());
    if (!seen.insert(key).second) return;
    out.push_back({std::move(label), std::move(pools)});
  };
  const std::vector<std::size_t> strongest = by_strength(sites);
  // One replica per site, then per each of the j strongest sites (j >= 2).
  for (std::size_t j = sites.size(); j >= 2; --j) {
    std::vector<std::vector<int>> pools;
    std::vector<std::size_t> chosen(strongest.begin(), strongest.begin() + static_cast<long>(j));
    std::sort(chosen.begin(), chosen.end());
    for (std::size_t s : chosen) pools.push_back(split_site(sites[s], 1)[0]);
    add(j == sites.size() ? "one per site" : "one per site, the " + std::to_string(j) + " strongest", std::move(pools));
  }
  // k per site (every site, and the strongest alone), for each k that gives every part a node.
  std::size_t most_nodes = 0;
  for (const Site& s : sites) most_nodes = std::max(most_nodes, s.nodes.size());
  for (int k = 2; k <= static_cast<int>(most_nodes); ++k) {
    for (std::size_t j : {sites.size(), std::size_t{1}}) {
      std::vector<std::vector<int>> pools;
      bool whole = true;
      for (std::size_t rank = 0; rank < j; ++rank) {
        const Site& s = sites[strongest[rank]];
        if (static_cast<int>(s.nodes.size()) < k) whole = false;
        for (auto& p : split_site(s, k)) pools.push_back(std::move(p));
      }
      if (!whole) continue;
      add(std::to_string(k) + " per site" + (j == 1 && sites.size() > 1 ? ", the strongest site" : ""), std::move(pools));
    }
  }
  // Sites in pairs joined by their fastest links.
  if (sites.size() >= 3) {
    std::vector<std::vector<int>> pools;
    for (const auto& group : paired_sites(problem, sites)) {
      std::vector<const Node*> nodes;
      for (std::size_t s : group)
        for (const Node& n : sites[s].nodes) nodes.push_back(&n);
      pools.push_back(gpus_of(nodes));
    }
    add("sites in pairs", std::move(pools));
  }
  if (replicas >= 2 && out.empty()) add(std::to_string(replicas) + " runs of nodes", contiguous_runs(sites, replicas));
  return out;
}

}  // namespace geotrain
