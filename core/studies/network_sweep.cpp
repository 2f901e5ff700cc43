#include "studies/network_sweep.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace geotrain {

namespace {

double& figure_of(LinkSpec& link, NetworkFigure figure) {
  return figure == NetworkFigure::latency_ms ? link.latency_ms : link.bandwidth_gbps;
}

double figure_of(const LinkSpec& link, NetworkFigure figure) {
  return figure == NetworkFigure::latency_ms ? link.latency_ms : link.bandwidth_gbps;
}

// A latency of 0 has no ratio to anything; a bandwidth is always above 0.
bool usable_as_base(double value, NetworkFigure figure) {
  return figure == NetworkFigure::bandwidth_gbps || value > 0;
}

void require_two_sites(const std::vector<Gpu>& gpus, NetworkFigure figure) {
  if (gpu_sites(gpus).size() < 2)
    throw std::invalid_argument(std::string(network_figure_name(figure)) +
                                " sweep needs GPUs on at least two sites");
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

}  // namespace

const char* network_figure_name(NetworkFigure figure) {
  return figure == NetworkFigure::latency_ms ? "latency" : "bandwidth";
}

const char* network_figure_unit(NetworkFigure figure) {
  return figure == NetworkFigure::latency_ms ? "ms" : "Gbps";
}

std::vector<std::string> gpu_sites(const std::vector<Gpu>& gpus) {
  std::vector<std::string> sites;
  for (const Gpu& g : gpus)
    if (std::find(sites.begin(), sites.end(), g.site) == sites.end()) sites.push_back(g.site);
  return sites;
}

std::optional<double> cross_site_base(const Problem& problem, NetworkFigure figure) {
  require_two_sites(problem.gpus, figure);
  const NetworkSpec& network = problem.network;
  if (network.inter_site && usable_as_base(figure_of(*network.inter_site, figure), figure))
    return figure_of(*network.inter_site, figure);
  const std::size_t n = problem.gpus.size();
  const auto links = resolve_links(network, problem.gpus);
  std::vector<double> figures;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j || problem.gpus[i].site == problem.gpus[j].site || !links[i * n + j]) continue;
      const double value = figure_of(links[i * n + j]->link, figure);
      if (usable_as_base(value, figure)) figures.push_back(value);
    }
  if (figures.empty()) return std::nullopt;
  return median(std::move(figures));
}

Problem with_cross_site_figure(const Problem& problem, NetworkFigure figure, double value) {
  const std::optional<double> base = cross_site_base(problem, figure);
  auto rescale = [&](LinkSpec& link) {
    double& x = figure_of(link, figure);
    const double old = x;
    x = !base ? value : x == *base ? value : x / *base * value;
    // A pipe's capacity (replicas.md) scales with its link's bandwidth.
    if (figure == NetworkFigure::bandwidth_gbps && link.capacity_gbps > 0) link.capacity_gbps *= x / old;
  };
  Problem out = problem;
  NetworkSpec& network = out.network;

  // Which pairs fall through to `default`, before anything changes.
  const std::size_t n = problem.gpus.size();
  const auto links = resolve_links(problem.network, problem.gpus);
  bool default_cross = false, default_same = false;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j || !links[i * n + j] || links[i * n + j]->source != LinkSource::default_link) continue;
      (problem.gpus[i].site == problem.gpus[j].site ? default_same : default_cross) = true;
    }
  if (default_cross) {
    if (default_same) network.intra_site = *network.default_link;  // intra_site was absent, or it would serve them
    rescale(*network.default_link);
  }
  if (network.inter_site) rescale(*network.inter_site);
  for (SiteLink& l : network.site_links)
    if (l.from_site != l.to_site) rescale(l.link);
  std::map<std::string, std::string> site_of;
  for (const Gpu& g : problem.gpus) site_of.emplace(g.id, g.site);
  for (GpuLink& l : network.links) {
    auto from = site_of.find(l.from_gpu), to = site_of.find(l.to_gpu);
    if (from != site_of.end() && to != site_of.end() && from->second != to->second) rescale(l.link);
  }
  return out;
}

}  // namespace geotrain
