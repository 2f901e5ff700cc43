// The bottleneck floor and the time floor (bottleneck_bound.hpp): never above
// the largest tau (T_iter) of any plan of two or more stages, checked against
// every plan of small pools.
#include "search/bounds/bottleneck_proof.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "model/feasibility.hpp"
#include "random_pool.hpp"
#include "plan_enumeration.hpp"
#include "test_support.hpp"
#include "search/exact/exact.hpp"
#include "search/exact/brute_force.hpp"

namespace geotrain {
namespace {

// Least largest tau (or with `time`, least T_iter) over every feasible plan
// of >= 2 stages (+inf if none).
double least_largest_tau_s(const CostModel& model, bool time = false) {
  double least = INFINITY;
  testing::for_each_feasible_plan(model, [&](const Plan& plan, const PlanCost& cost) {
    least = std::min(least, time ? cost.iteration_s : testing::stage_taus(model, plan).largest_s);
  });
  return least;
}

// H = T = V = 1000, u = 1, B = 4, fp16 (test_cost_model.cpp has the
// arithmetic): a layer is 7.2e-4 s at 100 TFLOPS, the head 6e-5 s (rho =
// 1/12), one activation over 100 Gbps with no latency 1.6e-4 s.
TEST(BottleneckFloor, TightOnTwoEqualGpus) {
  Problem p = testing::two_equal_gpus_problem();
  const CostModel model(p);
  // One cluster. Two layers need a first stage of one layer (1.6e-4 + 7.2e-4
  // = 8.8e-4) and a last of one layer and the head (1.6e-4 + 7.2e-4 + 6e-5 =
  // 9.4e-4): the floor is 9.4e-4, the plan's own largest tau.
  const BottleneckTables tables = make_bottleneck_tables(model);
  EXPECT_EQ(tables.num_clusters, 1);
  EXPECT_NEAR(root_bottleneck_floor_s(tables, model), 9.4e-4, 1e-9);
  EXPECT_NEAR(least_largest_tau_s(model), 9.4e-4, 1e-12);
}

// Two sites: links inside a site cost 1.6e-4 (100 Gbps), across 1.6e-3 (10
// Gbps), so a plan over both pays the slow link on both sides.
TEST(BottleneckFloor, SitesAreClusters) {
  Problem p = testing::random_pool(7, {4, 4, 4, 4, false, 1});
  const char* sites[] = {"A", "A", "B", "B"};
  for (int g = 0; g < 4; ++g) p.gpus[g].site = sites[g];
  p.network.links.clear();
  const CostModel model(p);
  const BottleneckTables tables = make_bottleneck_tables(model);
  EXPECT_EQ(tables.num_clusters, 2);
  EXPECT_EQ(tables.cluster_of[0], tables.cluster_of[1]);
  EXPECT_NE(tables.cluster_of[1], tables.cluster_of[2]);
  EXPECT_LE(root_bottleneck_floor_s(tables, model), least_largest_tau_s(model) * (1 + 1e-12));
}

TEST(BottleneckFloor, NeverAboveAnyPlanOnRandomPools) {
  int raised = 0, raised_time = 0, checked = 0;
  for (std::uint64_t seed = 1; seed <= 150; ++seed) {
    const Problem p = testing::random_pool(seed, {2, 6, 2, 7, true, -1});
    CostModel model(p);
    // Some pools allow only a range of stage counts (--stage-count).
    const int most = std::min(model.num_gpus(), model.num_layers());
    if (seed % 3 == 0 && most >= 3) model.set_stage_count_range(3, most);
    if (seed % 3 == 1 && most >= 3) model.set_stage_count_range(2, 2);
    const double least = least_largest_tau_s(model);
    if (!std::isfinite(least)) continue;
    ++checked;
    const BottleneckTables tables = make_bottleneck_tables(model);
    const double root = root_bottleneck_floor_s(tables, model);
    EXPECT_LE(root, least * (1 + 1e-12)) << "seed " << seed;
    const BottleneckProof proof = prove_bottleneck_floor(tables, model, interchangeable_gpu_classes(model), root,
                                                         2 * least, 1'000'000, Deadline());
    EXPECT_LE(proof.floor_s, least * (1 + 1e-12)) << "seed " << seed;
    EXPECT_GE(proof.floor_s, root);
    // With nodes to spare the bisection closes on the least largest tau.
    EXPECT_GE(proof.floor_s, least * (1 - 2e-3)) << "seed " << seed;
    raised += proof.floor_s > root * (1 + 1e-6);
    // T_iter: the floor from the largest tau, then the search's.
    const double least_time = least_largest_tau_s(model, true);
    const double time_floor =
        plan_time_floor_s(tables, model, proof.floor_s, root_bottleneck_floor_s(tables, model, true));
    EXPECT_LE(time_floor, least_time * (1 + 1e-12)) << "seed " << seed;
    const TimeProof time = prove_time_floor(tables, model, interchangeable_gpu_classes(model), proof.floor_s,
                                            time_floor, 2 * least_time, 1'000'000, Deadline());
    EXPECT_LE(time.time_floor_s, least_time * (1 + 1e-12)) << "seed " << seed;
    EXPECT_GE(time.time_floor_s, time_floor);
    raised_time += time.time_floor_s > time_floor * (1 + 1e-6);
    for (const Plan& plan : proof.plans) {
      EXPECT_TRUE(model.evaluate(plan).feasible) << "seed " << seed;
      EXPECT_GE(plan.size(), 2u);
    }
  }
  EXPECT_GT(checked, 100);
  EXPECT_GT(raised, 0);  // the searches add to the relaxations somewhere
  EXPECT_GT(raised_time, 0);
}

// Exact with the floors (forced from the start) finds the brute-force
// optimum and, stopped early, a gap that covers it.
TEST(BottleneckFloor, ExactStaysExactWithTheFloor) {
  int restarted = 0;
  for (std::uint64_t seed = 1; seed <= 120; ++seed) {
    // Half the pools time only, where plans of several stages win more often.
    const Problem p = testing::random_pool(seed, {3, 6, 4, 8, true, seed % 2 ? 1.0 : -1.0});
    const CostModel model(p);
    if (!any_feasible_plan(model)) continue;
    const SolveResult truth = brute_force(model);
    ExactSettings settings;
    settings.floor_check_nodes = 0;  // the floors from the first node on
    settings.floor_check_gap = -1;
    const SolveResult exact = solve_exact(model, settings);
    ASSERT_TRUE(exact.optimal.value_or(false)) << "seed " << seed;
    EXPECT_NEAR(exact.cost.objective, truth.cost.objective, 1e-9 * truth.cost.objective) << "seed " << seed;
    restarted += exact.plan.size() >= 2;
    settings.max_nodes = 3;
    const SolveResult stopped = solve_exact(model, settings);
    EXPECT_LE(stopped.cost.objective * (1 - stopped.gap.value_or(0)), truth.cost.objective * (1 + 1e-9))
        << "seed " << seed;
  }
  EXPECT_GT(restarted, 20);  // optima of two or more stages, where the floors apply
}

}  // namespace
}  // namespace geotrain
