#include "model/network.hpp"

#include <string>
#include <unordered_map>

namespace geotrain {

const char* link_source_name(LinkSource source) {
  switch (source) {
    case LinkSource::gpu_link: return "links";
    case LinkSource::intra_node: return "intra_node";
    case LinkSource::site_link: return "site_links";
    case LinkSource::intra_site: return "intra_site";
    case LinkSource::inter_site: return "inter_site";
    case LinkSource::default_link: return "default";
  }
  return "";
}

std::optional<ResolvedLink> resolve_link(const NetworkSpec& network, const Gpu& from, const Gpu& to) {
  // Scanning backwards makes the later of duplicate entries win.
  for (auto l = network.links.rbegin(); l != network.links.rend(); ++l)
    if (l->from_gpu == from.id && l->to_gpu == to.id) return ResolvedLink{l->link, LinkSource::gpu_link};
  if (network.intra_node && from.node_name() == to.node_name())
    return ResolvedLink{*network.intra_node, LinkSource::intra_node};
  for (auto l = network.site_links.rbegin(); l != network.site_links.rend(); ++l)
    if (l->from_site == from.site && l->to_site == to.site) return ResolvedLink{l->link, LinkSource::site_link};
  if (from.site == to.site && network.intra_site) return ResolvedLink{*network.intra_site, LinkSource::intra_site};
  if (from.site != to.site && network.inter_site) return ResolvedLink{*network.inter_site, LinkSource::inter_site};
  if (network.default_link) return ResolvedLink{*network.default_link, LinkSource::default_link};
  return std::nullopt;
}

namespace {

// Dense integer ids for strings, in first-seen order: the table below then
// compares ints, never strings, for each of its N^2 pairs.
class Interner {
 public:
  int id(const std::string& name) { return ids_.emplace(name, static_cast<int>(ids_.size())).first->second; }
  int find(const std::string& name) const {
    const auto it = ids_.find(name);
    return it == ids_.end() ? -1 : it->second;
  }
  int size() const { return static_cast<int>(ids_.size()); }

 private:
  std::unordered_map<std::string, int> ids_;
};

}  // namespace

std::vector<std::optional<ResolvedLink>> resolve_links(const NetworkSpec& network, const std::vector<Gpu>& gpus) {
  const std::size_t n = gpus.size();
  // GPU, site and node names become ints once; `links` and `site_links` are
  // written into dense tables, so that a problem listing all N (N - 1) links
  // resolves in O(N^2 + links) (hash look-ups of names only once per entry).
  Interner gpu_ids, sites, nodes;
  std::vector<int> site_of(n), node_of(n);
  for (std::size_t i = 0; i < n; ++i) {
    gpu_ids.id(gpus[i].id);
    site_of[i] = sites.id(gpus[i].site);
    node_of[i] = nodes.id(gpus[i].node_name());
  }
  std::vector<const LinkSpec*> gpu_link(n * n, nullptr);  // later entries overwrite: the later wins
  for (const auto& l : network.links) {
    const int from = gpu_ids.find(l.from_gpu), to = gpu_ids.find(l.to_gpu);
    if (from >= 0 && to >= 0 && from < static_cast<int>(n) && to < static_cast<int>(n))
      gpu_link[static_cast<std::size_t>(from) * n + static_cast<std::size_t>(to)] = &l.link;
  }
  // Site links naming a site no GPU has can never apply; skip them.
  const std::size_t site_count = static_cast<std::size_t>(sites.size());
  std::vector<const LinkSpec*> site_link(site_count * site_count, nullptr);
  for (const auto& l : network.site_links) {
    const int from = sites.find(l.from_site), to = sites.find(l.to_site);
    if (from >= 0 && to >= 0) site_link[static_cast<std::size_t>(from) * site_count + static_cast<std::size_t>(to)] = &l.link;
  }

  std::vector<std::optional<ResolvedLink>> table(n * n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      auto& slot = table[i * n + j];
      const LinkSpec* site = site_link[static_cast<std::size_t>(site_of[i]) * site_count + static_cast<std::size_t>(site_of[j])];
      if (const LinkSpec* g = gpu_link[i * n + j]) {
        slot = ResolvedLink{*g, LinkSource::gpu_link};
      } else if (network.intra_node && node_of[i] == node_of[j]) {
        slot = ResolvedLink{*network.intra_node, LinkSource::intra_node};
      } else if (site) {
        slot = ResolvedLink{*site, LinkSource::site_link};
      } else if (site_of[i] == site_of[j] && network.intra_site) {
        slot = ResolvedLink{*network.intra_site, LinkSource::intra_site};
      } else if (site_of[i] != site_of[j] && network.inter_site) {
        slot = ResolvedLink{*network.inter_site, LinkSource::inter_site};
      } else if (network.default_link) {
        slot = ResolvedLink{*network.default_link, LinkSource::default_link};
      }
    }
  }
  return table;
}

}  // namespace geotrain
