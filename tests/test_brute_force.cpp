// Brute force on pools small enough to argue by hand, the size of the plan
// space against the paper's Table 6, and the pools that make the paper's
// points: leaving a slow GPU out (Fig. 2a) and an asymmetric link deciding
// the stage order.
//
// Every pool here uses H = T = V = 1000, u = 1, B = 4 (M = 4), fp16, so (see
// test_cost_model.cpp for the arithmetic):
//   per layer: 7.2e10 FLOP -> 7.2e-4 s at 100 TFLOPS;   LM head: 6e9 FLOP -> 6e-5 s at 100 TFLOPS
//   S = 2e6 bytes: 10 Gbps + 1 ms -> 2.6e-3 s;  100 Gbps + 0.5 ms -> 6.6e-4 s;  100 Gbps + 0 ms -> 1.6e-4 s
//   memory per layer 9.6e7 + (Q + 1) * 2e7 bytes; the last stage adds 1.2e7
#include "search/exact/brute_force.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "model/input_error.hpp"
#include "search/space/plan_space.hpp"
#include "test_support.hpp"

namespace geotrain {
namespace {

using testing::same_plan;
using testing::show;

#define EXPECT_REL(actual, expected) EXPECT_NEAR((actual), (expected), 1e-9 * std::fabs(expected))

constexpr double kGiB = 1073741824.0;

Gpu make_gpu(const std::string& id, double tflops, double idle_w, double active_w, double memory_bytes = 80 * kGiB) {
  Gpu g;
  g.id = id;
  g.peak_tflops = tflops;
  g.memory_gib = memory_bytes / kGiB;
  g.idle_w = idle_w;
  g.active_w = active_w;
  return g;
}

Problem small_model(int layers) {
  Problem p;
  p.model = testing::round_model(layers);
  return p;
}


// ---- Size of the plan space ---------------------------------------------------------

TEST(PlanSpace, MatchesTable6) {
  // f(N, L) = sum_k C(L-1, k-1) P(N, k), L = 12, C(11, k-1) = 1, 11, 55, 165, 330, 462, 462, 330, ...
  // N = 2:  1*2 + 11*2 = 24
  EXPECT_EQ(plan_space_size(2, 12), 24.0);
  // N = 4:  1*4 + 11*12 + 55*24 + 165*24 = 4 + 132 + 1320 + 3960 = 5416 ("5.4K")
  EXPECT_EQ(plan_space_size(4, 12), 5416.0);
  // N = 6:  6 + 11*30 + 55*120 + 165*360 + 330*720 + 462*720
  //       = 6 + 330 + 6600 + 59400 + 237600 + 332640 = 636576 ("637K")
  EXPECT_EQ(plan_space_size(6, 12), 636576.0);
  // N = 8:  8 + 616 + 18480 + 277200 + 2217600 + 9313920 + 18627840 + 13305600 = 43761264 ("43.8M")
  EXPECT_EQ(plan_space_size(8, 12), 43761264.0);
  // N = 10: 10 + 990 + 39600 + 831600 + 9979200 + 69854400 + 279417600 + 598752000 + 598752000
  //         + 199584000 = 1757211400 ("1.8B")
  EXPECT_REL(plan_space_size(10, 12), 1757211400.0);
  // N = 12: ... + 13172544000 + 13172544000 + 5269017600 + 479001600 = 40864292184 ("40.9B")
  EXPECT_REL(plan_space_size(12, 12), 40864292184.0);
}

TEST(PlanSpace, SmallCases) {
  EXPECT_EQ(plan_space_size(1, 1), 1.0);
  EXPECT_EQ(plan_space_size(1, 12), 1.0);   // one GPU, one stage
  EXPECT_EQ(plan_space_size(2, 2), 4.0);    // [a:2] [b:2] [a:1,b:1] [b:1,a:1]
  EXPECT_EQ(plan_space_size(5, 1), 5.0);    // one layer: one stage on any GPU
  EXPECT_EQ(plan_space_size(3, 5), 63.0);   // 3 + 4*6 + 6*6
  EXPECT_EQ(plan_space_size(4, 4), 136.0);  // 4 + 3*12 + 3*24 + 1*24
}

TEST(PlanSpace, NeverOverflowsAtTheLimits) {
  const double f = plan_space_size(kMaxGpus, kMaxLayers);
  EXPECT_FALSE(std::isnan(f));
  EXPECT_GT(f, 1e100);
}

// ---- Two GPUs, two layers: all four plans by hand -------------------------------------
//
// g0: 100 TFLOPS, idle 50 W, active 250 W    c0 = 7.2e-4, h0 = 6e-5
// g1:  50 TFLOPS, idle 10 W, active  60 W    c1 = 1.44e-3, h1 = 1.2e-4
// g0 -> g1: default 10 Gbps, 1 ms = 2.6e-3;  g1 -> g0: 100 Gbps, 0.5 ms = 6.6e-4
//
//   [g0:2]       tau = 1.44e-3 + 6e-5 = 1.5e-3          T = 4 * 1.5e-3 = 6e-3
//                E = 6e-3 * 50 + 4 * 200 * 1.5e-3 = 0.3 + 1.2 = 1.5
//   [g1:2]       tau = 2.88e-3 + 1.2e-4 = 3e-3          T = 12e-3
//                E = 12e-3 * 10 + 4 * 50 * 3e-3 = 0.12 + 0.6 = 0.72
//   [g0:1,g1:1]  tau = 7.2e-4 + 2.6e-3 = 3.32e-3, 1.44e-3 + 1.2e-4 + 6.6e-4 = 2.22e-3
//                T = 5.54e-3 + 3 * 3.32e-3 = 15.5e-3
//                E = 15.5e-3 * 60 + 4 * (200 * 7.2e-4 + 50 * 1.56e-3) = 0.93 + 0.888 = 1.818
//   [g1:1,g0:1]  tau = 1.44e-3 + 6.6e-4 = 2.1e-3, 7.2e-4 + 6e-5 + 2.6e-3 = 3.38e-3
//                T = 5.48e-3 + 3 * 3.38e-3 = 15.62e-3
//                E = 15.62e-3 * 60 + 4 * (50 * 1.44e-3 + 200 * 7.8e-4) = 0.9372 + 0.912 = 1.8492
// With T_ref = 6 ms and E_ref = 1.5 J, objective = lambda T/6e-3 + (1 - lambda) E/1.5:
//   lambda 1:    1,    2,    2.583, 2.603  -> [g0:2]
//   lambda 0.5:  1,    1.24, 1.898, 1.918  -> [g0:2]
//   lambda 0.25: 1,    0.86, ...    (> 1)  -> [g1:2]
//   lambda 0:    1,    0.48, 1.212, 1.233  -> [g1:2]
Problem two_gpus_two_layers(double lambda) {
  Problem p = small_model(2);
  p.gpus = {make_gpu("g0", 100, 50, 250), make_gpu("g1", 50, 10, 60)};
  p.network.default_link = LinkSpec{10, 1, 1};
  p.network.links = {{"g1", "g0", LinkSpec{100, 0.5, 1}}};
  p.objective.lambda = lambda;
  p.objective.t_ref_ms = 6;
  p.objective.e_ref_j = 1.5;
  return p;
}

TEST(BruteForce, TwoGpusTwoLayersTimeOptimumIsTheFastGpuAlone) {
  const SolveResult r = brute_force(CostModel(two_gpus_two_layers(1)));
  EXPECT_PLAN(r.plan, {0, 2});
  EXPECT_REL(r.cost.iteration_s, 6e-3);
  EXPECT_REL(r.cost.energy_j, 1.5);
  EXPECT_REL(r.cost.objective, 1.0);
  EXPECT_EQ(r.evaluations, 4);  // f(2, 2)
  EXPECT_EQ(r.optimal, std::optional<bool>(true));
  EXPECT_EQ(r.method, "brute-force");
}

TEST(BruteForce, TwoGpusTwoLayersAcrossLambda) {
  EXPECT_PLAN(brute_force(CostModel(two_gpus_two_layers(0.5))).plan, {0, 2});
  EXPECT_PLAN(brute_force(CostModel(two_gpus_two_layers(0.25))).plan, {1, 2});
  const SolveResult energy = brute_force(CostModel(two_gpus_two_layers(0)));
  EXPECT_PLAN(energy.plan, {1, 2});
  EXPECT_REL(energy.cost.energy_j, 0.72);
  EXPECT_REL(energy.cost.objective, 0.48);
}

TEST(BruteForce, EveryHandPlanCostsWhatTheCommentSays) {
  const CostModel cm(two_gpus_two_layers(1));
  EXPECT_REL(cm.evaluate(Plan{{1, 2}}).iteration_s, 12e-3);
  EXPECT_REL(cm.evaluate(Plan{{0, 1}, {1, 1}}).iteration_s, 15.5e-3);
  EXPECT_REL(cm.evaluate(Plan{{0, 1}, {1, 1}}).energy_j, 1.818);
  EXPECT_REL(cm.evaluate(Plan{{1, 1}, {0, 1}}).iteration_s, 15.62e-3);
  EXPECT_REL(cm.evaluate(Plan{{1, 1}, {0, 1}}).energy_j, 1.8492);
}

// ---- Fig. 2a: leaving a slow GPU out wins ----------------------------------------------
//
// Four GPUs on one site, linked at 100 Gbps with no latency (a send is 1.6e-4 s):
// g0, g2, g3 at 100 TFLOPS (c = 7.2e-4) and g1 at 10 TFLOPS (c = 7.2e-3), L = 6.
// Every GPU has 4e8 bytes, so memory forces at least three stages:
//   Q = 1: 1.36e8 per layer, at most 2 layers;  Q = 2: 1.56e8 per layer, at most 2 each -> 4 < 6
//   Q = 3: 1.76e8 per layer, at most 2 each (2 + head: 3.64e8 fits)     -> only [2, 2, 2]
//   Q = 4: 1.96e8 per layer, 2 fit (3.92e8), but the last holds 1 (2 + head = 4.04e8 > 4e8)
// Three fast GPUs, [2, 2, 2]: tau = 1.44e-3 + 1.6e-4 = 1.6e-3, 1.44e-3 + 3.2e-4 = 1.76e-3,
//   1.44e-3 + 6e-5 + 1.6e-4 = 1.66e-3; T = 5.02e-3 + 3 * 1.76e-3 = 10.3e-3 (any order: all alike).
// Any plan with g1 has a stage with tau >= 7.2e-3, and T = sum tau + (M - 1) max tau >= M max tau
//   >= 4 * 7.2e-3 = 28.8e-3 > 10.3e-3. So the optimum leaves g1 out although it adds compute.
Problem slow_gpu_pool() {
  Problem p = small_model(6);
  const double memory = 4e8;
  p.gpus = {make_gpu("g0", 100, 50, 250, memory), make_gpu("g1", 10, 50, 250, memory),
            make_gpu("g2", 100, 50, 250, memory), make_gpu("g3", 100, 50, 250, memory)};
  p.network.intra_site = LinkSpec{100, 0, 1};
  return p;
}

TEST(BruteForce, ExcludingASlowGpuWins) {
  const CostModel cm(slow_gpu_pool());
  const SolveResult r = brute_force(cm);
  // Of the equal three-fast plans the first enumerated: GPUs in index order.
  EXPECT_PLAN(r.plan, {0, 2}, {2, 2}, {3, 2});
  EXPECT_REL(r.cost.iteration_s, 10.3e-3);
  EXPECT_EQ(r.evaluations, 544);  // f(4, 6) = 4 + C(5,1)*12 + C(5,2)*24 + C(5,3)*24 = 4 + 60 + 240 + 240
}

TEST(BruteForce, EveryPlanUsingAllFourGpusIsWorse) {
  const CostModel cm(slow_gpu_pool());
  const double best = brute_force(cm).cost.iteration_s;
  int plans = 0;
  std::vector<int> order = {0, 1, 2, 3};
  do {
    for (int a = 1; a <= 3; ++a)
      for (int b = 1; a + b <= 4; ++b)
        for (int c = 1; a + b + c <= 5; ++c) {
          const Plan plan = {{order[0], a}, {order[1], b}, {order[2], c}, {order[3], 6 - a - b - c}};
          const double t = cm.evaluate(plan).iteration_s;
          EXPECT_GE(t, 28.8e-3 * (1 - 1e-12)) << show(plan);
          EXPECT_GT(t, best) << show(plan);
          ++plans;
        }
  } while (std::next_permutation(order.begin(), order.end()));
  EXPECT_EQ(plans, 24 * 10);  // 4! orders times C(5, 3) = 10 compositions of 6 into 4
}

// ---- An asymmetric link decides the stage order -------------------------------------
//
// Two identical 100 TFLOPS GPUs; g0 -> g1 is slow (10 Gbps, 1 ms: 2.6e-3),
// g1 -> g0 fast (100 Gbps, 0.5 ms: 6.6e-4). Each GPU pays its own outgoing
// direction: g0's stage always sends on the slow link, g1's on the fast one.
// Layers fixed by position, 3 then 1:
//   [g0:3, g1:1]: tau = 2.16e-3 + 2.6e-3 = 4.76e-3 (forward on the slow link),
//                       7.2e-4 + 6e-5 + 6.6e-4 = 1.44e-3
//                 T = 6.2e-3 + 3 * 4.76e-3 = 20.48e-3
//   [g1:3, g0:1]: tau = 2.16e-3 + 6.6e-4 = 2.82e-3 (forward on the fast link),
//                       7.2e-4 + 6e-5 + 2.6e-3 = 3.38e-3
//                 T = 6.2e-3 + 3 * 3.38e-3 = 16.34e-3      -> the heavy stage must own the fast direction
// With 5e8 bytes per GPU one GPU cannot hold all 4 layers (4 * 1.36e8 + 1.2e7 = 5.56e8) but two can
// (3 * 1.56e8 + 1.2e7 = 4.8e8), so brute force chooses among the six two-stage plans:
//   [g0:1,g1:3] max tau = max(7.2e-4 + 2.6e-3, 2.16e-3 + 6e-5 + 6.6e-4) = 3.32e-3 -> T = 16.16e-3
//   [g0:2,g1:2] 4.04e-3 -> 18.32e-3     [g0:3,g1:1] 4.76e-3 -> 20.48e-3
//   [g1:1,g0:3] 4.82e-3 -> 20.66e-3     [g1:2,g0:2] 4.1e-3  -> 18.5e-3     [g1:3,g0:1] 3.38e-3 -> 16.34e-3
// (sum tau is 6.2e-3 for all six; T = 6.2e-3 + 3 max tau).
Problem asymmetric_pair() {
  Problem p = small_model(4);
  p.gpus = {make_gpu("g0", 100, 50, 250, 5e8), make_gpu("g1", 100, 50, 250, 5e8)};
  p.network.links = {{"g0", "g1", LinkSpec{10, 1, 1}}, {"g1", "g0", LinkSpec{100, 0.5, 1}}};
  return p;
}

TEST(BruteForce, AsymmetricLinkDecidesTheOrderWithLayersFixed) {
  const CostModel cm(asymmetric_pair());
  EXPECT_REL(cm.evaluate(Plan{{0, 3}, {1, 1}}).iteration_s, 20.48e-3);
  EXPECT_REL(cm.evaluate(Plan{{1, 3}, {0, 1}}).iteration_s, 16.34e-3);
}

TEST(BruteForce, AsymmetricLinkOptimum) {
  const SolveResult r = brute_force(CostModel(asymmetric_pair()));
  EXPECT_PLAN(r.plan, {0, 1}, {1, 3});
  EXPECT_REL(r.cost.iteration_s, 16.16e-3);
  // Swapping the two links swaps the GPUs' roles.
  Problem swapped = asymmetric_pair();
  std::swap(swapped.network.links[0].link, swapped.network.links[1].link);
  EXPECT_PLAN(brute_force(CostModel(swapped)).plan, {1, 1}, {0, 3});
}

// ---- Single-stage plans ---------------------------------------------------------------

TEST(BruteForce, SingleBestGpuIsOptimalWhenCommunicationIsDear) {
  // Three GPUs (100, 50, 100 TFLOPS), slow links everywhere, L = 4. Any split pays
  // at least 2.6e-3 on the stage before the cut, plus compute, so its max tau
  // exceeds the best single stage [g0:4] or [g2:4]: tau = 4 * 7.2e-4 + 6e-5 = 2.94e-3.
  Problem p = small_model(4);
  p.gpus = {make_gpu("g0", 100, 50, 250), make_gpu("g1", 50, 10, 60), make_gpu("g2", 100, 20, 120)};
  p.network.default_link = LinkSpec{10, 1, 1};
  const SolveResult r = brute_force(CostModel(p));
  EXPECT_PLAN(r.plan, {0, 4});  // first of the two equal fast GPUs
  EXPECT_REL(r.cost.iteration_s, 4 * 2.94e-3);
  EXPECT_EQ(r.evaluations, 3 + 3 * 6 + 3 * 6);  // f(3, 4) = 3 + C(3,1) P(3,2) + C(3,2) P(3,3) = 39
}

TEST(BruteForce, OneGpuOneLayer) {
  Problem p = small_model(1);
  p.gpus = {make_gpu("only", 100, 50, 250)};
  const SolveResult r = brute_force(CostModel(p));
  EXPECT_PLAN(r.plan, {0, 1});
  EXPECT_REL(r.cost.iteration_s, 4 * (7.2e-4 + 6e-5));  // M * tau_1 = 4 * 7.8e-4
  EXPECT_EQ(r.evaluations, 1);
}

// ---- Counting, limits, infeasibility ----------------------------------------------------

TEST(BruteForce, EvaluationsEqualThePlanSpace) {
  for (int n = 1; n <= 4; ++n) {
    for (int layers = 1; layers <= 6; ++layers) {
      Problem p = small_model(layers);
      for (int g = 0; g < n; ++g) p.gpus.push_back(make_gpu("g" + std::to_string(g), 100, 50, 250));
      p.network.default_link = LinkSpec{10, 1, 1};
      const SolveResult r = brute_force(CostModel(p));
      EXPECT_EQ(static_cast<double>(r.evaluations), plan_space_size(n, layers)) << n << " GPUs, " << layers;
    }
  }
}

TEST(BruteForce, RefusesAboveItsLimitWithAClearMessage) {
  const CostModel cm(slow_gpu_pool());  // f(4, 6) = 4 + 5*12 + 10*24 + 10*24 = 544 plans
  try {
    brute_force(cm, 543);
    FAIL() << "brute force ran above its limit";
  } catch (const PlanningError& e) {
    EXPECT_EQ(std::string(e.what()),
              "brute force refused: 4 GPUs and 6 layers give 544 plans, more than its limit of 543; "
              "use --method exact or memetic");
  }
  EXPECT_NO_THROW(brute_force(cm, 544));  // exactly at the limit is allowed
}

TEST(BruteForce, RefusesTwelveGpusAndTwelveLayersByDefault) {
  Problem p = small_model(12);
  for (int g = 0; g < 12; ++g) p.gpus.push_back(make_gpu("g" + std::to_string(g), 100, 50, 250));
  p.network.default_link = LinkSpec{10, 1, 1};
  EXPECT_THROW(brute_force(CostModel(p)), PlanningError);  // 4.09e10 > 1e8
}

TEST(BruteForce, ThrowsWhenNothingFits) {
  Problem p = small_model(2);
  p.gpus = {make_gpu("tiny", 100, 50, 250, 1e8)};  // one layer alone needs 1.36e8 + 1.2e7
  EXPECT_THROW(brute_force(CostModel(p)), PlanningError);
}

TEST(BruteForce, ProgressCanCancel) {
  // The callback fires every 2^20 evaluations: 12 GPUs and 7 layers give
  // f(12, 7) = 12 + 6*132 + 15*1320 + 20*11880 + 15*95040 + 6*665280 + 3991680 = 9.7e6 plans.
  Problem p = small_model(7);
  for (int g = 0; g < 12; ++g) p.gpus.push_back(make_gpu("g" + std::to_string(g), 100, 50, 250));
  p.network.default_link = LinkSpec{10, 1, 1};
  int calls = 0;
  const SolveResult r = brute_force(CostModel(p), kBruteForceMaxPlans, [&](const Progress& progress) {
    ++calls;
    EXPECT_TRUE(progress.has_plan);
    return false;
  });
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(r.evaluations, 1 << 20);
  EXPECT_EQ(r.stop_reason, "cancelled");
  EXPECT_EQ(r.optimal, std::optional<bool>(false));
}

}  // namespace
}  // namespace geotrain
