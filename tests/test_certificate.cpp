// The certificate every solve carries: a proven lower bound on the objective
// of every plan, and the plan's gap to it.
#include "search/bounds/certificate.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "model/feasibility.hpp"
#include "search/exact/brute_force.hpp"
#include "search/memetic/memetic.hpp"
#include "random_pool.hpp"
#include "test_support.hpp"

namespace geotrain {
namespace {

#define EXPECT_REL(actual, expected) EXPECT_NEAR((actual), (expected), 1e-9 * std::fabs(expected))

// H = T = V = 1000, u = 1, B = 4 (M = 4), fp16 (test_cost_model.cpp has the
// arithmetic): a layer is 7.2e-4 s at 100 TFLOPS, the head 6e-5 s, and one
// activation over 100 Gbps with no latency 1.6e-4 s.
Problem two_equal_gpus() {
  Problem p = testing::two_equal_gpus_problem();
  p.objective.lambda = 1;
  p.objective.t_ref_ms = 1000;  // objective = T_iter in seconds
  p.objective.e_ref_j = 1;
  return p;
}

TEST(Certificate, BoundIsTightOnTwoEqualGpus) {
  // One stage: 4 * (2 * 7.2e-4 + 6e-5) = 6.0e-3. Two stages of a layer each:
  // tau = 7.2e-4 + 1.6e-4 = 8.8e-4 and 7.2e-4 + 6e-5 + 1.6e-4 = 9.4e-4, so
  // T = 1.82e-3 + 3 * 9.4e-4 = 4.64e-3, the optimum. The bound with Q = 2:
  // compute 2 * 7.2e-4 + 6e-5 = 1.5e-3, one round trip 3.2e-4 (sum 1.82e-3),
  // largest tau at least the cheapest send 1.6e-4 plus the bottleneck curve
  // (1 layer + head on one GPU, 1 layer on the other: 7.8e-4) = 9.4e-4, so
  // 1.82e-3 + 3 * 9.4e-4 = 4.64e-3 as well: tight.
  const CostModel model(two_equal_gpus());
  EXPECT_REL(objective_lower_bound(model), 4.64e-3);
  EXPECT_REL(brute_force(model).cost.objective, 4.64e-3);
}

TEST(Certificate, OneGpuIsSolvedOutright) {
  Problem p = two_equal_gpus();
  p.gpus.resize(1);
  const CostModel model(p);
  EXPECT_REL(objective_lower_bound(model), 6.0e-3);  // the only plan: 4 * 1.5e-3
}

TEST(Certificate, NeverAboveTheBruteForceOptimum) {
  testing::PoolShape shape;
  shape.min_gpus = 2, shape.max_gpus = 5, shape.min_layers = 2, shape.max_layers = 8;
  int pools = 0;
  for (std::uint64_t seed = 1; pools < 300; ++seed) {
    const CostModel model(testing::random_pool(77000 + seed, shape));
    if (!any_feasible_plan(model)) continue;
    ++pools;
    const SolveResult optimum = brute_force(model);
    const double bound = objective_lower_bound(model);
    EXPECT_LE(bound, optimum.cost.objective * (1 + 1e-12)) << "pool " << 77000 + seed;
    EXPECT_GT(bound, 0) << "pool " << 77000 + seed;
    // A proven optimum certifies itself; any other plan's gap covers the optimum.
    const Certificate proven = certify(model, optimum);
    EXPECT_EQ(proven.gap, 0.0);
    SearchSettings quick;
    quick.seed = seed, quick.population = 10, quick.max_generations = 3, quick.time_limit_s = 3600;
    const SolveResult found = MemeticAlgorithm(quick).evolve(model);
    const Certificate c = certify(model, found);
    EXPECT_GE(c.gap, 0.0);
    EXPECT_LE(c.gap, 1.0);
    EXPECT_LE(c.lower_bound, optimum.cost.objective * (1 + 1e-12)) << "pool " << 77000 + seed;
  }
}

}  // namespace
}  // namespace geotrain

namespace geotrain {
namespace {

// The certificate with the crossing-flow floors (issue 23): on the two
// equal GPUs, now at two sites, the floors reach the optimum's own figures
// (largest tau 9.4e-4 s, T 4.64e-3 s), so the bound is the optimum.
TEST(Certificate, FlowFloorsStayTightOnTwoSites) {
  Problem p = two_equal_gpus();
  p.gpus[0].site = "A", p.gpus[1].site = "B";
  const CostModel model(p);
  const SolveResult optimum = brute_force(model);
  EXPECT_REL(objective_lower_bound(model, optimum.plan, Deadline{}), 4.64e-3);
}

// Never above the optimum, whichever plan the floors are searched up to
// (the optimum's, a quick memetic run's), on pools of one to three sites.
TEST(Certificate, FlowFloorsNeverAboveTheBruteForceOptimum) {
  testing::PoolShape shape;
  shape.min_gpus = 3, shape.max_gpus = 6, shape.min_layers = 2, shape.max_layers = 8;
  int pools = 0, raised = 0;
  for (std::uint64_t seed = 1; pools < 150; ++seed) {
    const CostModel model(testing::random_pool(91000 + seed, shape));
    if (!any_feasible_plan(model)) continue;
    ++pools;
    const SolveResult optimum = brute_force(model);
    SearchSettings quick;
    quick.seed = seed, quick.population = 10, quick.max_generations = 3, quick.time_limit_s = 3600;
    const SolveResult found = MemeticAlgorithm(quick).evolve(model);
    const double root = objective_lower_bound(model);
    for (const Plan& plan : {optimum.plan, found.plan}) {
      const double bound = objective_lower_bound(model, plan, Deadline{});
      EXPECT_LE(bound, optimum.cost.objective * (1 + 1e-9)) << "pool " << 91000 + seed;
      EXPECT_GE(bound, root * (1 - 1e-12)) << "pool " << 91000 + seed;  // the root is kept
      raised += bound > root * (1 + 1e-9);
    }
  }
  EXPECT_GT(raised, 10);  // the floors do raise it
}

}  // namespace
}  // namespace geotrain

namespace geotrain {
namespace {

// Memory at the stage count (issue 23). Two 100-TFLOPS GPUs a, b with 0.2 GiB
// (214.7e6 bytes) and a 50-TFLOPS c with 80 GiB, three layers, plans of two
// stages only. A layer needs 96e6 + 3 * 2e7 = 156e6 bytes at Q = 2, the head
// 12e6 more: a and b hold one layer each, so c holds two. On c a layer takes
// 1.44e-3 s and the head 1.2e-4 s (twice a's). The best plan is [c:2, a:1]:
// tau 2 * 1.44e-3 + 1.6e-4 = 3.04e-3 and 7.2e-4 + 6e-5 + 1.6e-4 = 9.4e-4,
// T = 3.98e-3 + 3 * 3.04e-3 = 1.31e-2 s. The bound: two stages hold at most
// the two largest middle counts (one each after two sends, up to 4.64e-3 s)
// plus a first stage's gain (c holds two after one send from 2 * 1.44e-3 +
// 1.6e-4 = 3.04e-3 s) and a last one's (none below 4.64e-3 s), so no plan
// keeps every tau below 3.04e-3 s; the stages' sum is at least the two
// fastest first layers 1.44e-3, the one more layer on c 1.44e-3 (a and b are
// full), a's head 6e-5 and a round trip 3.2e-4: 3.26e-3. T >= 3.26e-3 +
// 3 * 3.04e-3 = 1.238e-2 s (8.06e-3 without memory at the stage count).
TEST(Certificate, MemoryAtTheStageCount) {
  Problem p = two_equal_gpus();
  p.model = testing::round_model(3);
  p.model.precision = Precision::fp16;
  p.gpus[0].memory_gib = p.gpus[1].memory_gib = 0.2;
  Gpu c = p.gpus[0];
  c.id = "c", c.peak_tflops = 50, c.memory_gib = 80;
  p.gpus.push_back(c);
  CostModel model(p);
  model.set_stage_count_range(2, 2);
  EXPECT_NEAR(brute_force(model).cost.objective, 1.31e-2, 1e-12);
  EXPECT_NEAR(objective_lower_bound(model), 1.238e-2, 1e-6 * 1.238e-2);
}

// Every stage count on its own, where memory at that count binds hardest.
TEST(Certificate, NeverAboveTheOptimumOfEachStageCount) {
  testing::PoolShape shape;
  shape.min_gpus = 2, shape.max_gpus = 5, shape.min_layers = 2, shape.max_layers = 7;
  int counts = 0;
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    CostModel model(testing::random_pool(93000 + seed, shape));
    for (int q = 1; q <= std::min(model.num_gpus(), model.num_layers()); ++q) {
      model.set_stage_count_range(q, q);
      if (!any_feasible_plan(model)) continue;
      ++counts;
      const SolveResult optimum = brute_force(model);
      EXPECT_LE(objective_lower_bound(model), optimum.cost.objective * (1 + 1e-12)) << "pool " << 93000 + seed << " Q " << q;
      EXPECT_LE(objective_lower_bound(model, optimum.plan, Deadline{}), optimum.cost.objective * (1 + 1e-9))
          << "pool " << 93000 + seed << " Q " << q;
    }
  }
  EXPECT_GT(counts, 100);
}

}  // namespace
}  // namespace geotrain
