#pragma once
// Directed links between GPUs, declared at four levels of specificity.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/gpu.hpp"

namespace geotrain {

struct LinkSpec {
  double bandwidth_gbps = 0;
  double latency_ms = 0;
  double util = 1;
  // replicas.md: on inter_site and site_links only, the aggregate capacity of
  // the directed pipe between two sites, shared by every transfer across it
  // at once (util does not apply to it). 0: none given.
  double capacity_gbps = 0;

  double effective_bytes_per_s() const { return bandwidth_gbps * 1e9 / 8.0 * util; }
  double latency_s() const { return latency_ms / 1000.0; }
  double capacity_bytes_per_s() const { return capacity_gbps * 1e9 / 8.0; }
};

struct SiteLink {
  std::string from_site, to_site;
  LinkSpec link;
  FigureSources sources = {};  // figure_sources.hpp; never read by the model
};

struct GpuLink {
  std::string from_gpu, to_gpu;  // GPU ids
  LinkSpec link;
  FigureSources sources = {};
};

struct NetworkSpec {
  std::optional<LinkSpec> default_link;
  std::optional<LinkSpec> intra_node;  // between two GPUs of one node (NVLink, PCIe)
  std::optional<LinkSpec> intra_site;
  std::optional<LinkSpec> inter_site;
  std::vector<SiteLink> site_links;
  std::vector<GpuLink> links;
  std::map<std::string, FigureSources> level_sources;  // "default", "intra_node", "intra_site", "inter_site"
};

// Which declaration a resolved link came from, most specific first.
enum class LinkSource { gpu_link, intra_node, site_link, intra_site, inter_site, default_link };
const char* link_source_name(LinkSource source);

struct ResolvedLink {
  LinkSpec link;
  LinkSource source;
};

// The link used for every ordered pair, row-major (from * N + to); the
// diagonal is empty. For i -> j: a `links` entry, then intra_node when both
// GPUs share a node, then a `site_links` entry for
// (site i, site j), then intra_site or inter_site, then default; empty when
// nothing applies. Of duplicate entries the later wins, as keys do in JSON.
// Unknown GPU ids in `links` are ignored here (validation reports them).
std::vector<std::optional<ResolvedLink>> resolve_links(const NetworkSpec& network, const std::vector<Gpu>& gpus);

// The same rule for one pair, by linear scans: for reports, not for tables.
std::optional<ResolvedLink> resolve_link(const NetworkSpec& network, const Gpu& from, const Gpu& to);

}  // namespace geotrain
