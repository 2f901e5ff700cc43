// The crossing-flow floors (crossing_flow_bound.hpp): never above the
// largest tau, the least sum of taus at a makespan, or T_iter of any plan of
// two or more stages, checked against every plan of small random pools.
#include "search/bounds/crossing_flow_bound.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "random_pool.hpp"
#include "plan_enumeration.hpp"
#include "test_support.hpp"

namespace geotrain {
namespace {

struct PlanFigures {
  double largest_tau_s, tau_sum_s, iteration_s;
};

// Every feasible plan of >= 2 stages, with its largest tau, sum of taus and T_iter.
std::vector<PlanFigures> every_plan(const CostModel& model) {
  std::vector<PlanFigures> out;
  testing::for_each_feasible_plan(model, [&](const Plan& plan, const PlanCost& cost) {
    const testing::StageTauFigures taus = testing::stage_taus(model, plan);
    out.push_back({taus.largest_s, taus.sum_s, cost.iteration_s});
  });
  return out;
}

// H = T = V = 1000, u = 1, B = 4 (M = 4), fp16: a layer is 7.2e-4 s at 100
// TFLOPS, the head 6e-5 s (rho = 1/12), one activation over 100 Gbps with no
// latency 1.6e-4 s (test_cost_model.cpp has the arithmetic).
TEST(CrossingFlow, WorkedOnTwoEqualGpus) {
  Problem p = testing::two_equal_gpus_problem();
  const CostModel model(p);
  const BottleneckTables tables = make_bottleneck_tables(model);
  CrossingFlow flow(tables, model);
  // At x = 9.3e-4 the last stage holds (9.3e-4 - 1.6e-4) / 7.2e-4 - 1/12 =
  // 0.986 layers: none, so no plan; at 9.4e-4 it holds 1.0, the first stage
  // (9.4e-4 - 1.6e-4) / 7.2e-4 = 1.08, so 1: two layers, the plan exists.
  EXPECT_TRUE(flow.proves_no_plan(9.3e-4, 50));
  EXPECT_FALSE(flow.proves_no_plan(9.4e-4, 50));
  EXPECT_NEAR(crossing_bottleneck_floor_s(flow, 1e-4, 2e-3, 1'000'000, Deadline()), 9.4e-4, 1e-4 * 2e-3);
  // At x = 1e-3 both stages hold one layer: the taus sum to (1.6e-4 + 7.2e-4)
  // + (1.6e-4 + 7.2e-4 + 6e-5) = 1.82e-3, which the relaxation reaches.
  EXPECT_NEAR(flow.least_tau_sum_s(1e-3, 50, 1.82e-3), 1.82e-3, 1e-9);
  // T_iter = 1.82e-3 + 3 * 9.4e-4 = 4.64e-3, and the floor stays below it.
  const double time_floor = crossing_time_floor_s(flow, tables, model, 9.3e-4, 5e-3, 1'000'000, Deadline());
  EXPECT_LE(time_floor, 4.64e-3 * (1 + 1e-12));
  EXPECT_GE(time_floor, 4.5e-3);
}

TEST(CrossingFlow, NeverAboveAnyPlanOnRandomPools) {
  int checked = 0, raised = 0, raised_time = 0;
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    // The last 60: seven GPUs on two sites, so that runs of several stages
    // inside a site (and cycles the relaxation must not count) matter.
    const bool two_sites = seed > 240;
    Problem p = two_sites ? testing::random_pool(1000 + seed, {7, 7, 2, 5, true, -1})
                          : testing::random_pool(1000 + seed, {2, 6, 2, 7, true, -1});
    // Half of the others over up to five sites, so that which pairs of
    // sites are cheap to cross matters.
    if (seed % 2 == 0 || two_sites) {
      Rng rng(seed);
      for (Gpu& g : p.gpus) g.site = std::string(1, static_cast<char>('A' + rng.uniform_int(0, two_sites ? 1 : 4)));
    }
    CostModel model(p);
    const int most = std::min(model.num_gpus(), model.num_layers());
    if (seed % 3 == 0 && most >= 3) model.set_stage_count_range(3, most);
    if (seed % 3 == 1 && most >= 3) model.set_stage_count_range(2, 2);
    const std::vector<PlanFigures> plans = every_plan(model);
    if (plans.empty()) continue;
    ++checked;
    double least_tau = INFINITY, least_time = INFINITY;
    for (const PlanFigures& f : plans) least_tau = std::min(least_tau, f.largest_tau_s), least_time = std::min(least_time, f.iteration_s);
    const BottleneckTables tables = make_bottleneck_tables(model);
    CrossingFlow flow(tables, model);
    EXPECT_FALSE(flow.proves_no_plan(least_tau, 200)) << "seed " << seed;
    const double root = root_bottleneck_floor_s(tables, model);
    const double floor = crossing_bottleneck_floor_s(flow, root, 2 * least_tau, 100'000'000, Deadline());
    EXPECT_LE(floor, least_tau * (1 + 1e-12)) << "seed " << seed;
    EXPECT_GE(floor, root);
    raised += floor > root * (1 + 1e-6);
    // The least sum of taus among plans whose taus are all within x.
    for (const double scale : {1.0, 1.3, 2.0}) {
      const double x = least_tau * scale;
      double least_sum = INFINITY;
      for (const PlanFigures& f : plans)
        if (f.largest_tau_s <= x) least_sum = std::min(least_sum, f.tau_sum_s);
      EXPECT_LE(flow.least_tau_sum_s(x, 200, least_sum), least_sum * (1 + 1e-12)) << "seed " << seed;
    }
    const double time_floor = crossing_time_floor_s(flow, tables, model, floor, 2 * least_time, 100'000'000, Deadline());
    EXPECT_LE(time_floor, least_time * (1 + 1e-12)) << "seed " << seed;
    raised_time += time_floor > 0.5 * least_time;
  }
  EXPECT_GT(checked, 200);
  EXPECT_GT(raised, 10) << checked;  // above the clusters' floor somewhere
  EXPECT_GT(raised_time, 10);
}

}  // namespace
}  // namespace geotrain
