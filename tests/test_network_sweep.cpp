// Rescaling cross-site links for the network sweeps, and the property the
// sweeps rest on: on small pools, more bandwidth or less latency never makes
// the exact optimum worse.
#include "studies/network_sweep.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "search/exact/exact.hpp"
#include "model/feasibility.hpp"
#include "model/problem_json.hpp"
#include "random_pool.hpp"

namespace geotrain {
namespace {

using testing::PoolShape;
using testing::random_pool;

Problem example(const std::string& name) {
  std::ifstream in(std::string(GEOTRAIN_EXAMPLES_DIR) + "/" + name);
  std::ostringstream text;
  text << in.rdbuf();
  return parse_problem_text(text.str()).problem;
}

Gpu gpu_on(const std::string& id, const std::string& site) {
  Gpu g;
  g.id = id;
  g.site = site;
  g.peak_tflops = 100;
  g.memory_gib = 80;
  return g;
}

// Every ordered pair: same-site links unchanged, cross-site ones scaled by
// `factor` in the swept figure and unchanged in the other.
void expect_scaled(const Problem& before, const Problem& after, NetworkFigure figure, double factor) {
  const auto old_links = resolve_links(before.network, before.gpus);
  const auto new_links = resolve_links(after.network, after.gpus);
  const std::size_t n = before.gpus.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      SCOPED_TRACE(before.gpus[i].id + " -> " + before.gpus[j].id);
      const LinkSpec& o = old_links[i * n + j]->link;
      const LinkSpec& m = new_links[i * n + j]->link;
      const bool cross = before.gpus[i].site != before.gpus[j].site;
      const double lat = figure == NetworkFigure::latency_ms && cross ? factor : 1.0;
      const double bw = figure == NetworkFigure::bandwidth_gbps && cross ? factor : 1.0;
      EXPECT_NEAR(m.latency_ms, o.latency_ms * lat, 1e-12 * o.latency_ms * lat);
      EXPECT_NEAR(m.bandwidth_gbps, o.bandwidth_gbps * bw, 1e-12 * o.bandwidth_gbps * bw);
      EXPECT_EQ(m.util, o.util);
    }
}

TEST(NetworkSweep, ThreeSitesKeepsThePapersRatios) {
  // examples/three-sites.json: inter_site 10 ms / 10 Gbps is the base;
  // site_links A-B 10 ms 10 Gbps (x1), B-C 8 ms 12 Gbps (x0.8 / x1.2), A-C 15 ms 6 Gbps (x1.5 / x0.6).
  const Problem p = example("three-sites.json");
  EXPECT_EQ(gpu_sites(p.gpus), (std::vector<std::string>{"A", "B", "C"}));
  EXPECT_EQ(cross_site_base(p, NetworkFigure::latency_ms), 10.0);
  EXPECT_EQ(cross_site_base(p, NetworkFigure::bandwidth_gbps), 10.0);

  // Base latency 50 ms: A-B 50, B-C 0.8 x 50 = 40, A-C 1.5 x 50 = 75; intra_site stays 0.1 ms.
  const Problem slow = with_cross_site_figure(p, NetworkFigure::latency_ms, 50);
  EXPECT_EQ(slow.network.inter_site->latency_ms, 50.0);
  for (const SiteLink& l : slow.network.site_links) {
    const std::string pair = l.from_site + l.to_site;
    const double expected = pair == "AB" || pair == "BA" ? 50 : pair == "BC" || pair == "CB" ? 40 : 75;
    EXPECT_NEAR(l.link.latency_ms, expected, 1e-12) << pair;
    EXPECT_EQ(l.link.bandwidth_gbps, p.network.site_links[&l - slow.network.site_links.data()].link.bandwidth_gbps);
  }
  EXPECT_EQ(slow.network.intra_site->latency_ms, 0.1);
  EXPECT_EQ(slow.network.default_link->latency_ms, 10.0);  // serves no pair: left alone
  expect_scaled(p, slow, NetworkFigure::latency_ms, 5.0);

  // Base bandwidth 50 Gbps: A-B 50, B-C 1.2 x 50 = 60, A-C 0.6 x 50 = 30.
  const Problem fast = with_cross_site_figure(p, NetworkFigure::bandwidth_gbps, 50);
  for (const SiteLink& l : fast.network.site_links) {
    const std::string pair = l.from_site + l.to_site;
    const double expected = pair == "AB" || pair == "BA" ? 50 : pair == "BC" || pair == "CB" ? 60 : 30;
    EXPECT_NEAR(l.link.bandwidth_gbps, expected, 1e-12) << pair;
  }
  expect_scaled(p, fast, NetworkFigure::bandwidth_gbps, 5.0);
}

TEST(NetworkSweep, ADefaultServingBothKindsOfPairsIsSplit) {
  // Only a default link (20 Gbps, 4 ms) on sites X (a0, a1) and Y (b0): the
  // same-site pair a0-a1 keeps 20 Gbps / 4 ms through a new intra_site, the
  // cross-site pairs get the swept figure (base: the median of four 4 ms = 4).
  Problem p = random_pool(1);
  p.gpus = {gpu_on("a0", "X"), gpu_on("a1", "X"), gpu_on("b0", "Y")};
  p.network = NetworkSpec{};
  p.network.default_link = LinkSpec{20, 4, 1};
  EXPECT_EQ(cross_site_base(p, NetworkFigure::latency_ms), 4.0);
  const Problem swept = with_cross_site_figure(p, NetworkFigure::latency_ms, 12);
  ASSERT_TRUE(swept.network.intra_site.has_value());
  EXPECT_EQ(swept.network.intra_site->latency_ms, 4.0);
  EXPECT_EQ(swept.network.default_link->latency_ms, 12.0);
  expect_scaled(p, swept, NetworkFigure::latency_ms, 3.0);
}

TEST(NetworkSweep, ADefaultServingOnlyOneKindIsScaledOrLeft) {
  Problem p = random_pool(1);
  p.gpus = {gpu_on("a0", "X"), gpu_on("a1", "X"), gpu_on("b0", "Y")};
  p.network = NetworkSpec{};
  p.network.default_link = LinkSpec{20, 4, 1};
  p.network.intra_site = LinkSpec{100, 0.5, 1};  // default now serves only cross-site pairs
  const Problem cross = with_cross_site_figure(p, NetworkFigure::bandwidth_gbps, 5);
  EXPECT_EQ(cross.network.default_link->bandwidth_gbps, 5.0);
  EXPECT_EQ(cross.network.intra_site->bandwidth_gbps, 100.0);
  expect_scaled(p, cross, NetworkFigure::bandwidth_gbps, 0.25);

  p.network.intra_site.reset();
  p.network.inter_site = LinkSpec{40, 2, 1};  // default now serves only a0-a1
  const Problem same = with_cross_site_figure(p, NetworkFigure::bandwidth_gbps, 10);
  EXPECT_EQ(same.network.default_link->bandwidth_gbps, 20.0);
  EXPECT_EQ(same.network.inter_site->bandwidth_gbps, 10.0);
  EXPECT_FALSE(same.network.intra_site.has_value());
  expect_scaled(p, same, NetworkFigure::bandwidth_gbps, 0.25);
}

TEST(NetworkSweep, WithoutInterSiteTheBaseIsTheMedianOfTheCrossSitePairs) {
  // Site X holds a0, site Y holds b0 and b1; site_links X->Y 10 ms, Y->X 30 ms.
  // Ordered cross pairs: a0->b0, a0->b1 (10, 10), b0->a0, b1->a0 (30, 30): median (10 + 30) / 2 = 20.
  // A GPU link b1->a0 of 50 ms replaces one 30: (10, 10, 30, 50) -> median still 20.
  // The GPU link b0->b1 is same-site and never changes.
  Problem p = random_pool(1);
  p.gpus = {gpu_on("a0", "X"), gpu_on("b0", "Y"), gpu_on("b1", "Y")};
  p.network = NetworkSpec{};
  p.network.intra_site = LinkSpec{100, 0.1, 1};
  p.network.site_links = {{"X", "Y", LinkSpec{10, 10, 1}}, {"Y", "X", LinkSpec{10, 30, 1}}};
  p.network.links = {{"b1", "a0", LinkSpec{5, 50, 1}}, {"b0", "b1", LinkSpec{7, 3, 1}}};
  EXPECT_EQ(cross_site_base(p, NetworkFigure::latency_ms), 20.0);
  const Problem swept = with_cross_site_figure(p, NetworkFigure::latency_ms, 40);  // x2
  EXPECT_EQ(swept.network.site_links[0].link.latency_ms, 20.0);
  EXPECT_EQ(swept.network.site_links[1].link.latency_ms, 60.0);
  EXPECT_EQ(swept.network.links[0].link.latency_ms, 100.0);
  EXPECT_EQ(swept.network.links[1].link.latency_ms, 3.0);
  expect_scaled(p, swept, NetworkFigure::latency_ms, 2.0);
}

TEST(NetworkSweep, ZeroLatencyEverywhereTakesTheValueItself) {
  Problem p = random_pool(1);
  p.gpus = {gpu_on("a0", "X"), gpu_on("b0", "Y")};
  p.network = NetworkSpec{};
  p.network.inter_site = LinkSpec{10, 0, 1};
  p.network.intra_site = LinkSpec{100, 0, 1};
  EXPECT_FALSE(cross_site_base(p, NetworkFigure::latency_ms).has_value());
  const Problem swept = with_cross_site_figure(p, NetworkFigure::latency_ms, 7);
  EXPECT_EQ(swept.network.inter_site->latency_ms, 7.0);
  EXPECT_EQ(swept.network.intra_site->latency_ms, 0.0);
}

TEST(NetworkSweep, OneSiteIsRefused) {
  Problem p = random_pool(1);
  p.gpus = {gpu_on("a0", "X"), gpu_on("a1", "X")};
  EXPECT_THROW(cross_site_base(p, NetworkFigure::latency_ms), std::invalid_argument);
  EXPECT_THROW(with_cross_site_figure(p, NetworkFigure::bandwidth_gbps, 10), std::invalid_argument);
}

// Exact optimum of a pool; the pools are small enough to always prove it.
double exact_optimum(const Problem& problem, double* iteration_s = nullptr) {
  const CostModel model(problem);
  const SolveResult r = solve_exact(model, ExactSettings{});
  EXPECT_TRUE(r.optimal.value_or(false));
  if (iteration_s) *iteration_s = r.cost.iteration_s;
  return r.cost.objective;
}

TEST(NetworkSweep, FasterNetworksNeverMakeTheExactOptimumWorse) {
  // A faster link lowers every plan's send times, so every plan's T and E
  // (E = T * idle + M * active) and objective (fixed references) fall or stay:
  // the optimum cannot rise. With lambda = 1 the objective is T itself.
  const double latencies[] = {100, 20, 10, 1, 0.1, 0};
  const double bandwidths[] = {0.5, 2, 10, 50, 400};
  int pools = 0;
  for (std::uint64_t seed = 1; seed <= 150; ++seed) {
    const Problem base = random_pool(seed, PoolShape{2, 5, 2, 7, true, -1});
    if (gpu_sites(base.gpus).size() < 2 || !any_feasible_plan(CostModel(base))) continue;
    ++pools;
    SCOPED_TRACE("seed " + std::to_string(seed));
    const bool time_only = base.objective.lambda == 1.0;
    double previous = INFINITY, previous_t = INFINITY;
    for (double latency : latencies) {
      double t = 0;
      const double now = exact_optimum(with_cross_site_figure(base, NetworkFigure::latency_ms, latency), &t);
      EXPECT_LE(now, previous * (1 + 1e-9)) << "latency " << latency;
      if (time_only) EXPECT_LE(t, previous_t * (1 + 1e-9)) << "latency " << latency;
      previous = now, previous_t = t;
    }
    previous = INFINITY;
    for (double bandwidth : bandwidths) {
      const double now = exact_optimum(with_cross_site_figure(base, NetworkFigure::bandwidth_gbps, bandwidth));
      EXPECT_LE(now, previous * (1 + 1e-9)) << "bandwidth " << bandwidth;
      previous = now;
    }
  }
  EXPECT_GE(pools, 40);  // the property was checked on many pools
}

}  // namespace
}  // namespace geotrain
