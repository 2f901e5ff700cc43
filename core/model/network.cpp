#include "model/network.hpp"

#include <map>
#include <utility>

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

std::vector<std::optional<ResolvedLink>> resolve_links(const NetworkSpec& network, const std::vector<Gpu>& gpus) {
  const std::size_t n = gpus.size();
  // Maps keyed by names so that a full N x N `links` list stays O(N^2 log N), not O(N^4).
  std::map<std::string, std::size_t> index_of;
  for (std::size_t i = 0; i < n; ++i) index_of.emplace(gpus[i].id, i);
  std::map<std::pair<std::size_t, std::size_t>, LinkSpec> gpu_links;
  for (const auto& l : network.links) {
    auto from = index_of.find(l.from_gpu), to = index_of.find(l.to_gpu);
    if (from != index_of.end() && to != index_of.end()) gpu_links[{from->second, to->second}] = l.link;
  }
  std::map<std::pair<std::string, std::string>, LinkSpec> site_links;
  for (const auto& l : network.site_links) site_links[{l.from_site, l.to_site}] = l.link;

  std::vector<std::optional<ResolvedLink>> table(n * n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      auto& slot = table[i * n + j];
      if (auto g = gpu_links.find({i, j}); g != gpu_links.end()) {
        slot = ResolvedLink{g->second, LinkSource::gpu_link};
      } else if (network.intra_node && gpus[i].node_name() == gpus[j].node_name()) {
        slot = ResolvedLink{*network.intra_node, LinkSource::intra_node};
      } else if (auto s = site_links.find({gpus[i].site, gpus[j].site}); s != site_links.end()) {
        slot = ResolvedLink{s->second, LinkSource::site_link};
      } else if (gpus[i].site == gpus[j].site && network.intra_site) {
        slot = ResolvedLink{*network.intra_site, LinkSource::intra_site};
      } else if (gpus[i].site != gpus[j].site && network.inter_site) {
        slot = ResolvedLink{*network.inter_site, LinkSource::inter_site};
      } else if (network.default_link) {
        slot = ResolvedLink{*network.default_link, LinkSource::default_link};
      }
    }
  }
  return table;
}

}  // namespace geotrain
