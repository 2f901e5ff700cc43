#pragma once
// The resolved network of a problem as flat tables, for the models that price
// transfers between replicas and over shared site pipes (replicas.md): each
// GPU pair's latency and effective bandwidth, each GPU's site, and per
// directed pair of sites its declared link (site_links, else inter_site, else
// default) and that link's capacity_gbps.
#include <optional>
#include <string>
#include <vector>

#include "model/network.hpp"
#include "model/problem.hpp"

namespace geotrain {

class LinkTable {
 public:
  explicit LinkTable(const Problem& problem);

  int num_gpus() const { return num_gpus_; }
  int num_sites() const { return static_cast<int>(site_names_.size()); }
  int site_of(int gpu) const { return site_of_[static_cast<std::size_t>(gpu)]; }
  const std::string& site_name(int site) const { return site_names_[static_cast<std::size_t>(site)]; }

  // The link between two GPUs as cost-model.md resolves it; +inf latency and
  // 0 bandwidth where there is none (validation refuses such problems).
  double latency_s(int from, int to) const { return latency_s_[index(from, to)]; }
  double bytes_per_s(int from, int to) const { return bytes_per_s_[index(from, to)]; }
  const std::vector<std::optional<ResolvedLink>>& resolved() const { return resolved_; }

  // Some site_links entry or inter_site carries capacity_gbps.
  bool has_capacities() const { return has_capacities_; }
  // The directed site pair's capacity in bytes/s; 0 when it has none (or a == b).
  double capacity_bytes_per_s(int site_from, int site_to) const {
    return capacity_bytes_per_s_[site_index(site_from, site_to)];
  }
  // The pair's pipe for bulk gradient traffic: whether a site link applies
  // (a != b), its latency, and its capacity if given, else its effective bandwidth.
  bool has_pipe(int site_from, int site_to) const { return pipe_bytes_per_s_[site_index(site_from, site_to)] > 0; }
  double pipe_latency_s(int site_from, int site_to) const { return pipe_latency_s_[site_index(site_from, site_to)]; }
  double pipe_bytes_per_s(int site_from, int site_to) const { return pipe_bytes_per_s_[site_index(site_from, site_to)]; }

 private:
  std::size_t index(int from, int to) const {
    return static_cast<std::size_t>(from) * static_cast<std::size_t>(num_gpus_) + static_cast<std::size_t>(to);
  }
  std::size_t site_index(int from, int to) const {
    return static_cast<std::size_t>(from) * site_names_.size() + static_cast<std::size_t>(to);
  }

  int num_gpus_ = 0;
  std::vector<std::optional<ResolvedLink>> resolved_;
  std::vector<double> latency_s_, bytes_per_s_;
  std::vector<int> site_of_;
  std::vector<std::string> site_names_;  // in order of their first GPU in the file
  bool has_capacities_ = false;
  std::vector<double> capacity_bytes_per_s_, pipe_latency_s_, pipe_bytes_per_s_;
};

// Just the capacities of the directed site pairs, per GPU pair: what a
// one-pipeline cost model folds into its sends (a send crossing a pipe alone
// gets min(its link's bandwidth, the capacity)). Empty, and free, for the
// problems that give no capacity_gbps.
class SiteCapacities {
 public:
  explicit SiteCapacities(const Problem& problem);
  bool any() const { return !capacity_bytes_per_s_.empty(); }
  // 0 when the GPUs share a site or their sites' pipe has no capacity.
  double between(int from_gpu, int to_gpu) const {
    return capacity_bytes_per_s_[static_cast<std::size_t>(site_of_[static_cast<std::size_t>(from_gpu)]) * sites_ +
                                 static_cast<std::size_t>(site_of_[static_cast<std::size_t>(to_gpu)])];
  }

 private:
  std::size_t sites_ = 0;
  std::vector<int> site_of_;
  std::vector<double> capacity_bytes_per_s_;
};

// Whether inter_site or some site_links entry gives capacity_gbps.
bool network_has_capacities(const NetworkSpec& network);

// The link a directed pair of distinct sites resolves to for site-level
// traffic: its site_links entry (the later of duplicates), else inter_site,
// else default; none when nothing applies.
std::optional<LinkSpec> site_pair_link(const NetworkSpec& network, const std::string& from_site,
                                       const std::string& to_site);

}  // namespace geotrain
