// The parts of exact search (core/gpu_symmetry, core/lower_bounds,
// core/exact_incumbent) on pools worked out by hand (exact_hand_pools.hpp)
// and on random pools.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "exact_hand_pools.hpp"
#include "search/exact/exact_incumbent.hpp"
#include "model/feasibility.hpp"
#include "search/exact/gpu_symmetry.hpp"
#include "search/bounds/lower_bounds.hpp"
#include "random_pool.hpp"

namespace geotrain {
namespace {

using testing::hand_gpu;
using testing::hand_model;
using testing::PoolShape;
using testing::random_pool;

TEST(GpuSymmetry, ThreeIdenticalA30sOnOneSiteFormOneClass) {
  Problem p = hand_model(4, 4);
  for (const char* id : {"a30-0", "a30-1", "a30-2"}) p.gpus.push_back(hand_gpu(id, "A", 165, 24, 25, 165));
  p.gpus.push_back(hand_gpu("a100", "A", 312, 80, 60, 400));
  p.network.intra_site = LinkSpec{100, 0.1, 1};
  p.network.inter_site = LinkSpec{10, 10, 1};
  const GpuClasses classes = interchangeable_gpu_classes(CostModel(p));
  ASSERT_EQ(classes.members.size(), 2u);
  EXPECT_EQ(classes.members[0], (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(classes.members[1], (std::vector<int>{3}));
  EXPECT_EQ(classes.class_of, (std::vector<int>{0, 0, 0, 1}));

  // A slower link a30-0 -> a100 sets a30-0 apart; a30-1 and a30-2 stay alike.
  p.network.links.push_back({"a30-0", "a100", LinkSpec{10, 1, 1}});
  const GpuClasses split = interchangeable_gpu_classes(CostModel(p));
  ASSERT_EQ(split.members.size(), 3u);
  EXPECT_EQ(split.members[0], (std::vector<int>{0}));
  EXPECT_EQ(split.members[1], (std::vector<int>{1, 2}));
  EXPECT_EQ(split.members[2], (std::vector<int>{3}));
}

TEST(GpuSymmetry, OtherSitesAndOtherFiguresSetGpusApart) {
  Problem p = hand_model(4, 4);
  p.gpus.push_back(hand_gpu("x", "A", 165, 24, 25, 165));
  p.gpus.push_back(hand_gpu("y", "B", 165, 24, 25, 165));  // another site: other links to z
  p.gpus.push_back(hand_gpu("z", "A", 165, 24, 25, 165));
  p.gpus.push_back(hand_gpu("w", "A", 165, 24, 25, 170));  // other active power
  p.gpus.push_back(hand_gpu("v", "A", 165, 16, 25, 165));  // other memory
  p.gpus.push_back(hand_gpu("u", "A", 160, 24, 25, 165));  // other compute
  p.gpus.push_back(hand_gpu("s", "A", 165, 24, 20, 165));  // other idle power
  p.network.intra_site = LinkSpec{100, 0.1, 1};
  p.network.inter_site = LinkSpec{10, 10, 1};
  const CostModel model(p);
  EXPECT_TRUE(interchangeable(model, 0, 2));
  for (int other : {1, 3, 4, 5, 6}) EXPECT_FALSE(interchangeable(model, 0, other)) << other;
  EXPECT_EQ(interchangeable_gpu_classes(model).class_of, (std::vector<int>{0, 1, 0, 2, 3, 4, 5}));
}

// Three GPUs: g0 100 TFLOPS, g1 50, g2 25 -> 7.2e-4, 1.44e-3, 2.88e-3 s per layer;
// active - idle 200, 50, 20 W -> 0.144, 0.072, 0.0576 J per layer; idle 10, 20, 30 W.
// Capacities passed in: middle {2, 5, 5} (memory 40, 80, 80 GiB keeps that order), last {1, 1, 1}.
TEST(LowerBounds, RemainingStagesOnAHandPool) {
  Problem p = hand_model(8, 4);
  p.gpus = {hand_gpu("g0", "", 100, 40, 10, 210), hand_gpu("g1", "", 50, 80, 20, 70),
            hand_gpu("g2", "", 25, 80, 30, 50)};
  p.network.default_link = LinkSpec{10, 1, 1};  // every send 2e6 / 1.25e9 + 1e-3 = 2.6e-3 s
  const CostModel model(p);
  const PoolTables tables = make_pool_tables(model);
  EXPECT_NEAR(tables.head_in_layers, 6e9 / 7.2e10, 1e-15);
  const std::vector<int> middle = {2, 5, 5}, last = {1, 1, 1};
  RemainingBound b;
  RemainingCurves curves(8, 3);
  const std::vector<double>& extra_s = curves.extra_s;
  const std::vector<double>& extra_j = curves.extra_j;
  ASSERT_TRUE(bound_remaining(tables, middle, last, {0, 0, 0}, 2, 6, b, curves));
  EXPECT_EQ(b.capacity_layers, 10);                    // g1 and g2: 5 + 5
  EXPECT_NEAR(b.first_layers_s, 2.16e-3, 1e-15);       // g0 + g1: 7.2e-4 + 1.44e-3
  EXPECT_NEAR(b.min_layer_s, 7.2e-4, 1e-15);
  EXPECT_NEAR(b.first_layers_j, 0.1296, 1e-12);        // g2 + g1: 0.0576 + 0.072
  EXPECT_NEAR(b.min_layer_j, 0.0576, 1e-12);
  EXPECT_EQ(b.idle_w, 30);                             // g0 + g1: 10 + 20
  EXPECT_NEAR(b.min_send_s, 2.6e-3, 1e-15);
  // Fixed part of a later stage: cheapest send plus the lesser of the second
  // cheapest (2.6e-3) and the head (rho = 6e9 / 7.2e10 = 1/12 of a layer):
  // g0 2.6e-3 + 6e-5, g1 2.6e-3 + 1.2e-4, g2 2.6e-3 + 2.4e-4.
  EXPECT_NEAR(b.min_stage_fixed_s, 2.66e-3, 1e-15);
  // One-layer stages: g0 3.38e-3, g1 4.16e-3, g2 5.72e-3; the second least bounds the slower of two.
  EXPECT_NEAR(b.one_layer_stage_s, 4.16e-3, 1e-15);
  // Bottleneck on g0 (7.2e-4 per layer) and g1 (1.44e-3) with the head on either:
  //   2 layers: (2, 0) with the head on g1: max(1.44e-3, 1.2e-4) = 1.44e-3 (no split does better)
  //   3 layers: (2 + head, 1): max(2.0833 * 7.2e-4 = 1.5e-3, 1.44e-3) = 1.5e-3
  //   4 layers: (3, 1 + head): max(2.16e-3, 1.0833 * 1.44e-3 = 1.56e-3) = 2.16e-3
  EXPECT_NEAR(curves.bottleneck_s[0], 1.44e-3, 1e-15);
  EXPECT_NEAR(curves.bottleneck_s[1], 1.5e-3, 1e-15);
  EXPECT_NEAR(curves.bottleneck_s[2], 2.16e-3, 1e-15);
  // Beyond one layer each: g0 has room for 1 more, g1 and g2 for 4 more each.
  EXPECT_EQ(extra_s[0], 0);
  EXPECT_NEAR(extra_s[1], 7.2e-4, 1e-15);              // g0
  EXPECT_NEAR(extra_s[2], 2.16e-3, 1e-15);             // + g1
  EXPECT_NEAR(extra_s[5], 6.48e-3, 1e-15);             // 7.2e-4 + 4 * 1.44e-3
  EXPECT_NEAR(extra_s[6], 9.36e-3, 1e-15);             // + g2 2.88e-3
  EXPECT_NEAR(extra_j[4], 0.2304, 1e-12);              // 4 * 0.0576 on g2
  EXPECT_NEAR(extra_j[6], 0.3744, 1e-12);              // + 2 * 0.072 on g1

  // Without g2: capacity 5 + 2 = 7, and only 1 + 4 = 5 extra layers fit.
  ASSERT_TRUE(bound_remaining(tables, middle, last, {0, 0, 1}, 2, 6, b, curves));
  EXPECT_EQ(b.capacity_layers, 7);
  EXPECT_NEAR(extra_s[5], 6.48e-3, 1e-15);
  EXPECT_EQ(extra_s[6], INFINITY);
  // Two stages cannot come from one GPU; and none can be last when no GPU holds the head.
  EXPECT_FALSE(bound_remaining(tables, middle, last, {1, 0, 1}, 2, 6, b, curves));
  EXPECT_FALSE(bound_remaining(tables, middle, {0, 0, 0}, {0, 0, 0}, 2, 6, b, curves));
}

TEST(LowerBounds, CheapestLinksAreDirected) {
  Problem p = hand_model(4, 4);
  p.gpus = {hand_gpu("g0", "", 100, 80, 10, 100), hand_gpu("g1", "", 100, 80, 10, 100),
            hand_gpu("g2", "", 100, 80, 10, 100)};
  p.network.default_link = LinkSpec{10, 1, 1};                // 2.6e-3 s
  p.network.links = {{"g0", "g1", LinkSpec{100, 0, 1}},       // 2e6 / 1.25e10 = 1.6e-4 s
                     {"g2", "g0", LinkSpec{20, 0, 1}}};       // 2e6 / 2.5e9 = 8e-4 s
  const CostModel model(p);
  const NeighbourLinks links = cheapest_neighbour_links(model, 0, {0, 0, 0});
  EXPECT_NEAR(links.forward_s, 1.6e-4, 1e-15);       // g0 -> g1
  EXPECT_NEAR(links.backward_s, 8e-4, 1e-15);        // g2 -> g0
  EXPECT_NEAR(links.round_trip_s, 2.76e-3, 1e-15);   // g0 <-> g1: 1.6e-4 + 2.6e-3 (g2: 2.6e-3 + 8e-4 = 3.4e-3)
  EXPECT_NEAR(min_round_trip_s(make_pool_tables(model), {0, 0, 0}), 2.76e-3, 1e-15);
  EXPECT_NEAR(min_round_trip_s(make_pool_tables(model), {1, 0, 0}), 5.2e-3, 1e-15);  // g1 <-> g2
  EXPECT_EQ(min_round_trip_s(make_pool_tables(model), {1, 1, 0}), INFINITY);
}

TEST(ExactIncumbent, AMemoryFeasiblePlanExistsWheneverAnyDoes) {
  int feasible = 0;
  for (std::uint64_t seed = 6000; seed < 6300; ++seed) {
    const CostModel model(random_pool(seed, PoolShape{1, 8, 1, 16, true, -1}));
    const Plan plan = memory_feasible_plan(model);
    if (!any_feasible_plan(model)) {
      EXPECT_TRUE(plan.empty());
      continue;
    }
    ++feasible;
    EXPECT_TRUE(is_plan_of(model, plan)) << "seed " << seed;
    EXPECT_TRUE(model.evaluate(plan).feasible) << "seed " << seed;
  }
  EXPECT_GE(feasible, 200);
}

TEST(ExactIncumbent, HillClimbingKeepsPlansValidAndNeverWorse) {
  int improved = 0;
  for (std::uint64_t seed = 6500; seed < 6600; ++seed) {
    const CostModel model(random_pool(seed, PoolShape{2, 8, 2, 16, true, -1}));
    const Plan start = memory_feasible_plan(model);
    if (start.empty()) continue;
    std::int64_t evaluations = 0;
    const Plan better = improve_locally(model, start, evaluations);
    EXPECT_TRUE(is_plan_of(model, better)) << "seed " << seed;
    EXPECT_TRUE(model.evaluate(better).feasible) << "seed " << seed;
    EXPECT_LE(model.evaluate(better).objective, model.evaluate(start).objective);
    EXPECT_GT(evaluations, 0);
    improved += model.evaluate(better).objective < model.evaluate(start).objective;
  }
  EXPECT_GE(improved, 30);
}

TEST(ExactIncumbent, PlanShapeChecks) {
  Problem p = hand_model(4, 4);
  p.gpus = {hand_gpu("g0", "", 100, 80, 10, 100), hand_gpu("g1", "", 100, 80, 10, 100)};
  p.network.default_link = LinkSpec{10, 1, 1};
  const CostModel model(p);
  EXPECT_TRUE(is_plan_of(model, {{0, 3}, {1, 1}}));
  EXPECT_FALSE(is_plan_of(model, {}));
  EXPECT_FALSE(is_plan_of(model, {{0, 3}, {0, 1}}));  // GPU twice
  EXPECT_FALSE(is_plan_of(model, {{0, 4}, {1, 0}}));  // empty stage
  EXPECT_FALSE(is_plan_of(model, {{0, 2}, {1, 1}}));  // 3 of 4 layers
  EXPECT_FALSE(is_plan_of(model, {{2, 4}}));          // no GPU 2
}

}  // namespace
}  // namespace geotrain
