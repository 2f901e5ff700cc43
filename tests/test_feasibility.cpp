// Whether any plan fits in memory, the most layers Q stages can hold, and the
// reason given when nothing fits. Model: H = T = V = 1000, u = 1, fp16:
//   bytes per layer 9.6e7 + (Q + 1) * 2e7: Q = 1 -> 1.36e8, Q = 2 -> 1.56e8, Q = 3 -> 1.76e8
//   the last stage also holds the head, 1.2e7
#include "model/feasibility.hpp"

#include <gtest/gtest.h>

#include <string>

#include "search/exact/brute_force.hpp"
#include "model/input_error.hpp"
#include "search/space/plan_space.hpp"
#include "test_support.hpp"

namespace geotrain {
namespace {

constexpr double kGiB = 1073741824.0;

// GPUs with the given memory in bytes, L layers.
Problem memory_pool(int layers, std::vector<double> memory_bytes) {
  Problem p;
  p.model = testing::round_model(layers);
  for (std::size_t i = 0; i < memory_bytes.size(); ++i) {
    Gpu g;
    g.id = "g" + std::to_string(i);
    g.peak_tflops = 100;
    g.memory_gib = memory_bytes[i] / kGiB;
    g.idle_w = 50;
    g.active_w = 250;
    p.gpus.push_back(g);
  }
  p.network.default_link = LinkSpec{10, 1, 1};
  return p;
}

// g0 1e9, g1 5e8, g2 2e8 bytes. Capacities in layers, floor(bytes / per-layer), the last stage
// first taking 1.2e7 for the head:
//   Q = 1, last:     g0 9.88e8 / 1.36e8 = 7.26 -> 7;  g1 4.88e8 / 1.36e8 = 3.59 -> 3;  g2 1.88e8 / 1.36e8 -> 1
//   Q = 2, not last: g0 1e9 / 1.56e8 = 6.41 -> 6;     g1 5e8 / 1.56e8 = 3.21 -> 3;     g2 2e8 / 1.56e8 -> 1
//   Q = 2, last:     g0 9.88e8 / 1.56e8 = 6.33 -> 6;  g1 4.88e8 / 1.56e8 = 3.13 -> 3;  g2 1.88e8 / 1.56e8 -> 1
//   Q = 3, not last: g0 1e9 / 1.76e8 = 5.68 -> 5;     g1 5e8 / 1.76e8 = 2.84 -> 2;     g2 2e8 / 1.76e8 -> 1
//   Q = 3, last:     g0 9.88e8 / 1.76e8 = 5.61 -> 5;  g1 4.88e8 / 1.76e8 = 2.77 -> 2;  g2 1.88e8 / 1.76e8 -> 1
// Most layers: Q = 1: 7 (g0 alone); Q = 2: 6 + 3 = 9 (g0 and g1, either last); Q = 3: 5 + 2 + 1 = 8.
const std::vector<double> kThreeSizes = {1e9, 5e8, 2e8};

TEST(Feasibility, MaxLayersWithStagesByHand) {
  const CostModel cm(memory_pool(10, kThreeSizes));
  EXPECT_EQ(max_layers_with_stages(cm, 1), 7);
  EXPECT_EQ(max_layers_with_stages(cm, 2), 9);
  EXPECT_EQ(max_layers_with_stages(cm, 3), 8);
  EXPECT_EQ(max_layers_with_stages(cm, 4), 0);  // more stages than GPUs
  EXPECT_EQ(max_layers_with_stages(cm, 0), 0);
}

TEST(Feasibility, EveryStageNeedsAGpuThatHoldsALayer) {
  // g0 1e9 bytes, g1 1e8 (not one layer at any Q: 1.36e8 at Q = 1). Q = 2 would need g1
  // to hold a layer: 0, although g0 alone holds 6 as either stage.
  EXPECT_EQ(max_layers_with_stages(CostModel(memory_pool(10, {1e9, 1e8})), 2), 0);
  // Q = 3 over 1e9, 5e8, 1e8: g2 again holds nothing -> 0 (not 5 + 2).
  EXPECT_EQ(max_layers_with_stages(CostModel(memory_pool(10, {1e9, 5e8, 1e8})), 3), 0);
}

TEST(Feasibility, MaxLayersIsCappedAtL) {
  const CostModel cm(memory_pool(5, kThreeSizes));
  EXPECT_EQ(max_layers_with_stages(cm, 1), 5);  // 7 would fit, but there are only 5
  EXPECT_EQ(max_layers_with_stages(cm, 2), 5);
}

TEST(Feasibility, NineLayersFitTenDoNot) {
  EXPECT_TRUE(any_feasible_plan(CostModel(memory_pool(9, kThreeSizes))));
  EXPECT_FALSE(any_feasible_plan(CostModel(memory_pool(10, kThreeSizes))));
  // brute force agrees: nine layers have a feasible plan, ten have none.
  EXPECT_NO_THROW(brute_force(CostModel(memory_pool(9, kThreeSizes))));
  EXPECT_THROW(brute_force(CostModel(memory_pool(10, kThreeSizes))), PlanningError);
}

TEST(Feasibility, TheLastStageMustHoldTheHead) {
  // Two GPUs of 1.6e8 bytes, L = 2, Q = 2: each holds floor(1.6e8 / 1.56e8) = 1 layer as a
  // middle stage but floor(1.48e8 / 1.56e8) = 0 as the last. One alone (Q = 1):
  // floor(1.48e8 / 1.36e8) = 1 < 2. Nothing fits.
  const CostModel tight(memory_pool(2, {1.6e8, 1.6e8}));
  EXPECT_EQ(max_layers_with_stages(tight, 2), 0);
  EXPECT_EQ(max_layers_with_stages(tight, 1), 1);
  EXPECT_FALSE(any_feasible_plan(tight));
  // Give one of them room for a layer and the head as the last stage (1.56e8 + 1.2e7 = 1.68e8):
  const CostModel enough(memory_pool(2, {1.6e8, 1.68e8}));
  EXPECT_EQ(max_layers_with_stages(enough, 2), 2);
  EXPECT_TRUE(any_feasible_plan(enough));
}

TEST(Feasibility, MaxLayersWithEqualCapacities) {
  // Four GPUs of 4e8 bytes, Q = 3: 2 layers each not last (4e8 / 1.76e8 = 2.27),
  // last floor(3.88e8 / 1.76e8) = 2: 6 layers. Equal capacities must not be skipped twice.
  const CostModel cm(memory_pool(12, {4e8, 4e8, 4e8, 4e8}));
  EXPECT_EQ(max_layers_with_stages(cm, 3), 6);
  // Q = 4: not last floor(4e8 / 1.96e8) = 2, last floor(3.88e8 / 1.96e8) = 1: 2 + 2 + 2 + 1 = 7.
  EXPECT_EQ(max_layers_with_stages(cm, 4), 7);
}

TEST(Feasibility, AgreesWithBruteForceOnSmallPools) {
  // any_feasible_plan is exact: compare with enumerating every plan.
  const std::vector<std::vector<double>> pools = {
      {1e8}, {1.5e8}, {1.6e8, 1.6e8}, {1.6e8, 1.68e8}, {2e8, 2e8, 2e8}, {1e9, 1e8, 1e8}, {3e8, 2e8, 1.7e8, 1.8e8}};
  for (const auto& sizes : pools) {
    for (int layers = 1; layers <= 6; ++layers) {
      const CostModel cm(memory_pool(layers, sizes));
      bool found = true;
      try {
        brute_force(cm);
      } catch (const PlanningError&) {
        found = false;
      }
      EXPECT_EQ(any_feasible_plan(cm), found) << sizes.size() << " GPUs, " << layers << " layers";
    }
  }
}

TEST(Feasibility, ReasonNamesTheLayersAndTheBestPlan) {
  const Problem p = memory_pool(10, kThreeSizes);
  const std::string reason = infeasibility_reason(CostModel(p), p);
  EXPECT_NE(reason.find("holds all 10 layers"), std::string::npos) << reason;
  EXPECT_NE(reason.find("can hold is 9 layers (with 2 stages)"), std::string::npos) << reason;
  // 9.6e7 / 2^30 = 0.089 -> 0.09 GiB; 2e7 / 2^30 = 0.019 -> 0.02; 1.2e7 / 2^30 = 0.011 -> 0.01;
  // largest memory 1e9 / 2^30 = 0.931 -> 0.93
  EXPECT_NE(reason.find("0.09 GiB of weights"), std::string::npos) << reason;
  EXPECT_NE(reason.find("(Q + 1) x 0.02 GiB"), std::string::npos) << reason;
  EXPECT_NE(reason.find("0.01 GiB for the LM head"), std::string::npos) << reason;
  EXPECT_NE(reason.find("0.93 GiB"), std::string::npos) << reason;
}

TEST(Feasibility, ReasonWhenNotEvenOneLayerFits) {
  const Problem p = memory_pool(3, {1e8, 1e8});
  const CostModel cm(p);
  EXPECT_FALSE(any_feasible_plan(cm));
  const std::string reason = infeasibility_reason(cm, p);
  EXPECT_NE(reason.find("all 3 layers"), std::string::npos) << reason;
  EXPECT_NE(reason.find("can hold is 0 layers"), std::string::npos) << reason;
}

}  // namespace
}  // namespace geotrain
