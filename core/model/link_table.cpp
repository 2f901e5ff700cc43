#include "model/link_table.hpp"

#include <cmath>
#include <map>

namespace geotrain {

std::optional<LinkSpec> site_pair_link(const NetworkSpec& network, const std::string& from_site,
                                       const std::string& to_site) {
  for (auto l = network.site_links.rbegin(); l != network.site_links.rend(); ++l)
    if (l->from_site == from_site && l->to_site == to_site) return l->link;
  if (network.inter_site) return *network.inter_site;
  if (network.default_link) return *network.default_link;
  return std::nullopt;
}

bool network_has_capacities(const NetworkSpec& network) {
  if (network.inter_site && network.inter_site->capacity_gbps > 0) return true;
  for (const SiteLink& l : network.site_links)
    if (l.link.capacity_gbps > 0) return true;
  return false;
}

SiteCapacities::SiteCapacities(const Problem& problem) {
  if (!network_has_capacities(problem.network)) return;
  std::map<std::string, int> sites;
  std::vector<std::string> names;
  for (const Gpu& g : problem.gpus) {
    const auto [it, fresh] = sites.emplace(g.site, static_cast<int>(names.size()));
    if (fresh) names.push_back(g.site);
    site_of_.push_back(it->second);
  }
  sites_ = names.size();
  capacity_bytes_per_s_.assign(sites_ * sites_, 0.0);
  for (std::size_t a = 0; a < sites_; ++a)
    for (std::size_t b = 0; b < sites_; ++b)
      if (a != b)
        if (const auto link = site_pair_link(problem.network, names[a], names[b]))
          capacity_bytes_per_s_[a * sites_ + b] = link->capacity_bytes_per_s();
}

LinkTable::LinkTable(const Problem& problem)
    : num_gpus_(static_cast<int>(problem.gpus.size())), resolved_(resolve_links(problem.network, problem.gpus)) {
  const std::size_t n = problem.gpus.size();
  latency_s_.assign(n * n, 0.0);
  bytes_per_s_.assign(n * n, 0.0);
  for (std::size_t k = 0; k < n * n; ++k) {
    if (k / n == k % n) continue;
    if (const auto& link = resolved_[k]) {
      latency_s_[k] = link->link.latency_s();
      bytes_per_s_[k] = link->link.effective_bytes_per_s();
    } else {
      latency_s_[k] = INFINITY;
    }
  }
  std::map<std::string, int> sites;
  for (const Gpu& g : problem.gpus) {
    const auto [it, fresh] = sites.emplace(g.site, static_cast<int>(site_names_.size()));
    if (fresh) site_names_.push_back(g.site);
    site_of_.push_back(it->second);
  }
  const std::size_t s = site_names_.size();
  has_capacities_ = network_has_capacities(problem.network);
  capacity_bytes_per_s_.assign(s * s, 0.0);
  pipe_latency_s_.assign(s * s, 0.0);
  pipe_bytes_per_s_.assign(s * s, 0.0);
  for (std::size_t a = 0; a < s; ++a) {
    for (std::size_t b = 0; b < s; ++b) {
      if (a == b) continue;
      const auto link = site_pair_link(problem.network, site_names_[a], site_names_[b]);
      if (!link) continue;
      const std::size_t k = a * s + b;
      capacity_bytes_per_s_[k] = link->capacity_bytes_per_s();
      pipe_latency_s_[k] = link->latency_s();
      pipe_bytes_per_s_[k] = link->capacity_gbps > 0 ? link->capacity_bytes_per_s() : link->effective_bytes_per_s();
    }
  }
}

}  // namespace geotrain
