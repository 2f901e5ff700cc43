#pragma once
// Network sweeps "on the sites of the problem" (the paper's Fig. 8b/c): every
// cross-site link is rescaled so that the problem's base cross-site figure
// becomes the swept value while the asymmetries between site pairs stay (the
// paper's A-B x1.0, B-C x0.8 latency / x1.2 bandwidth, A-C x1.5 / x0.6).
// Same-site links never change.
#include <optional>
#include <string>
#include <vector>

#include "model/problem.hpp"

namespace geotrain {

enum class NetworkFigure { latency_ms, bandwidth_gbps };

const char* network_figure_name(NetworkFigure figure);  // "latency" | "bandwidth"
const char* network_figure_unit(NetworkFigure figure);  // "ms" | "Gbps"

// The distinct sites of the GPUs, in order of first appearance ("" is the
// shared default site).
std::vector<std::string> gpu_sites(const std::vector<Gpu>& gpus);

// The figure the sweep's values stand for: network.inter_site's when present
// (for latency: when above 0); otherwise the median, over every ordered pair
// of GPUs on different sites, of the figure of the link the pair resolves to
// (for latency: of the pairs above 0). nullopt when every cross-site latency
// is 0, so that no ratio exists. Throws std::invalid_argument when the GPUs
// sit on fewer than two sites.
std::optional<double> cross_site_base(const Problem& problem, NetworkFigure figure);

// The problem with every cross-site figure multiplied by value / base; the
// declaration at the base itself becomes exactly `value`. With no base
// (all cross-site latencies 0) every cross-site figure becomes `value`.
// Rescaled: inter_site; site_links between different sites; links between
// GPUs on different sites; and `default` when some cross-site pair falls
// through to it. When `default` also serves same-site pairs (no intra_site),
// an intra_site equal to the old default is added, so that those pairs keep
// their figures. Throws std::invalid_argument as cross_site_base does.
Problem with_cross_site_figure(const Problem& problem, NetworkFigure figure, double value);

}  // namespace geotrain
