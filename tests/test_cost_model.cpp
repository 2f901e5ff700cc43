// The cost model against figures worked out by hand (contract: Time, Memory,
// Energy, Objective in shared/spec/cost-model.md).
//
// The hand pool (used throughout this file):
//   model: H = 1000, L = 4, T = 1000, V = 1000, u = 1, B = 4 -> M = 4, fp16 (kappa = 2)
//   g0: 100 TFLOPS (F = 1e14), idle 50 W, active 250 W
//   g1:  50 TFLOPS (F = 5e13), idle 10 W, active  60 W
//   g2: 100 TFLOPS (F = 1e14), idle 20 W, active 120 W       (all 80 GiB)
//   network: default 10 Gbps, 1 ms; links g1 -> g0 100 Gbps 0.5 ms, g2 -> g1 40 Gbps 0 ms
//
// Building blocks, by hand:
//   C u T (1 + gamma) = 24 H^2 * u T * 3 = 2.4e7 * 1e6 * 3 = 7.2e10 FLOP per layer and micro-batch
//     per layer: g0, g2 7.2e10 / 1e14 = 7.2e-4 s;  g1 7.2e10 / 5e13 = 1.44e-3 s
//   LM head: (1 + gamma) 2 u T H V = 3 * 2 * 1e3 * 1e3 * 1e3 = 6e9 FLOP
//     g0, g2 6e9 / 1e14 = 6e-5 s;  g1 6e9 / 5e13 = 1.2e-4 s
//   S = kappa u T H = 2 * 1 * 1000 * 1000 = 2e6 bytes
//   default link: 10 Gbps = 1.25e9 B/s: 2e6 / 1.25e9 = 1.6e-3 s, + 1 ms = 2.6e-3 s
//   g1 -> g0: 100 Gbps = 1.25e10 B/s: 2e6 / 1.25e10 = 1.6e-4 s, + 0.5 ms = 6.6e-4 s
//   g2 -> g1:  40 Gbps = 5e9 B/s:     2e6 / 5e9 = 4e-4 s, + 0 ms = 4e-4 s
//   memory: 4 P kappa = 4 * 12 H^2 * 2 = 9.6e7 bytes per layer;
//           alpha kappa u T H = 10 * 2 * 1e6 = 2e7 bytes per layer and retained micro-batch
//           head: 4 H V kappa + 2 kappa u T V = 8e6 + 4e6 = 1.2e7 bytes
#include "model/cost_model.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "model/plan_report.hpp"

namespace geotrain {
namespace {

#define EXPECT_REL(actual, expected) EXPECT_NEAR((actual), (expected), 1e-9 * std::fabs(expected))

constexpr double kGiB = 1073741824.0;

Gpu make_gpu(const char* id, double tflops, double idle_w, double active_w) {
  Gpu g;
  g.id = id;
  g.peak_tflops = tflops;
  g.memory_gib = 80;
  g.idle_w = idle_w;
  g.active_w = active_w;
  return g;
}

Problem hand_pool() {
  Problem p;
  p.name = "hand pool";
  p.model.hidden_size = 1000;
  p.model.num_layers = 4;
  p.model.seq_length = 1000;
  p.model.vocab_size = 1000;
  p.model.micro_batch_size = 1;
  p.model.global_batch_size = 4;
  p.model.precision = Precision::fp16;
  p.gpus = {make_gpu("g0", 100, 50, 250), make_gpu("g1", 50, 10, 60), make_gpu("g2", 100, 20, 120)};
  p.network.default_link = LinkSpec{10, 1, 1};
  p.network.links = {{"g1", "g0", LinkSpec{100, 0.5, 1}}, {"g2", "g1", LinkSpec{40, 0, 1}}};
  return p;
}

// The three-stage plan used below: g0 one layer, g1 two, g2 one (and the head).
const Plan kThreeStages = {{0, 1}, {1, 2}, {2, 1}};

TEST(CostModel, LayerComputeIsThreeTimesTwentyFourHSquaredUTOverF) {
  const CostModel cm(hand_pool());
  EXPECT_REL(cm.layer_compute_s(0), 7.2e-4);  // 7.2e10 / 1e14
  EXPECT_REL(cm.layer_compute_s(1), 1.44e-3);  // 7.2e10 / 5e13
  EXPECT_REL(cm.layer_compute_s(2), 7.2e-4);
}

TEST(CostModel, HeadComputeIsThreeTimesTwoUTHVOverF) {
  const CostModel cm(hand_pool());
  EXPECT_REL(cm.head_compute_s(0), 6e-5);    // 6e9 / 1e14
  EXPECT_REL(cm.head_compute_s(1), 1.2e-4);  // 6e9 / 5e13
}

TEST(CostModel, StageComputeWithAndWithoutTheHead) {
  const CostModel cm(hand_pool());
  const PlanReport r = report_plan(cm, kThreeStages, hand_pool());
  ASSERT_EQ(r.stages.size(), 3u);
  EXPECT_REL(r.stages[0].compute_s, 7.2e-4);           // 1 layer on g0, no head
  EXPECT_REL(r.stages[1].compute_s, 2.88e-3);          // 2 * 1.44e-3 on g1, no head
  EXPECT_REL(r.stages[2].compute_s, 7.2e-4 + 6e-5);    // 1 layer on g2 plus the head = 7.8e-4
}

TEST(CostModel, ActivationSizeIsKappaUTH) {
  EXPECT_REL(CostModel(hand_pool()).activation_bytes(), 2e6);  // 2 * 1 * 1000 * 1000
}

TEST(CostModel, SendsAreDirected) {
  const CostModel cm(hand_pool());
  EXPECT_REL(cm.send_s(0, 1), 2.6e-3);  // default: 1e-3 + 2e6 / 1.25e9
  EXPECT_REL(cm.send_s(1, 0), 6.6e-4);  // links entry: 5e-4 + 2e6 / 1.25e10
  EXPECT_REL(cm.send_s(2, 1), 4e-4);    // links entry: 0 + 2e6 / 5e9
  EXPECT_REL(cm.send_s(1, 2), 2.6e-3);  // the reverse direction falls back to the default
}

TEST(CostModel, ForwardAndBackwardSendsPerStage) {
  const CostModel cm(hand_pool());
  const PlanReport r = report_plan(cm, kThreeStages, hand_pool());
  // Stage 0 (g0): forward g0 -> g1 = 2.6e-3, no backward (first stage).
  EXPECT_REL(r.stages[0].send_forward_s, 2.6e-3);
  EXPECT_EQ(r.stages[0].send_backward_s, 0.0);
  // Stage 1 (g1): forward g1 -> g2 = default 2.6e-3; backward g1 -> g0 = 6.6e-4.
  EXPECT_REL(r.stages[1].send_forward_s, 2.6e-3);
  EXPECT_REL(r.stages[1].send_backward_s, 6.6e-4);
  // Stage 2 (g2): no forward (last stage); backward g2 -> g1 = 4e-4.
  EXPECT_EQ(r.stages[2].send_forward_s, 0.0);
  EXPECT_REL(r.stages[2].send_backward_s, 4e-4);
}

TEST(CostModel, StageTimeIsComputePlusBothSends) {
  const CostModel cm(hand_pool());
  const PlanReport r = report_plan(cm, kThreeStages, hand_pool());
  EXPECT_REL(r.stages[0].stage_s, 3.32e-3);  // 7.2e-4 + 2.6e-3
  EXPECT_REL(r.stages[1].stage_s, 6.14e-3);  // 2.88e-3 + 2.6e-3 + 6.6e-4
  EXPECT_REL(r.stages[2].stage_s, 1.18e-3);  // 7.8e-4 + 4e-4
}

TEST(CostModel, IterationTimeOfThreeStages) {
  // sum tau = 3.32e-3 + 6.14e-3 + 1.18e-3 = 10.64e-3; max tau = 6.14e-3 (stage 1)
  // T = 10.64e-3 + (4 - 1) * 6.14e-3 = 10.64e-3 + 18.42e-3 = 29.06e-3 s
  const PlanCost c = CostModel(hand_pool()).evaluate(kThreeStages);
  EXPECT_REL(c.iteration_s, 29.06e-3);
  EXPECT_EQ(c.bottleneck, 1);
}

TEST(CostModel, IterationTimeOfOneStageIsMTimesTau) {
  const CostModel cm(hand_pool());
  // [g0: 4]: tau = 4 * 7.2e-4 + 6e-5 = 2.94e-3, no sends; T = 4 * 2.94e-3 = 11.76e-3
  EXPECT_REL(cm.evaluate(Plan{{0, 4}}).iteration_s, 11.76e-3);
  // [g1: 4]: tau = 4 * 1.44e-3 + 1.2e-4 = 5.88e-3; T = 4 * 5.88e-3 = 23.52e-3
  EXPECT_REL(cm.evaluate(Plan{{1, 4}}).iteration_s, 23.52e-3);
  EXPECT_EQ(cm.evaluate(Plan{{1, 4}}).bottleneck, 0);
}

TEST(CostModel, IterationTimeOfTwoStages) {
  // [g0: 3, g1: 1]: tau_0 = 3 * 7.2e-4 + 2.6e-3 = 4.76e-3;
  //                 tau_1 = 1.44e-3 + 1.2e-4 + 6.6e-4 = 2.22e-3
  // T = 4.76e-3 + 2.22e-3 + 3 * 4.76e-3 = 6.98e-3 + 14.28e-3 = 21.26e-3
  const PlanCost c = CostModel(hand_pool()).evaluate(Plan{{0, 3}, {1, 1}});
  EXPECT_REL(c.iteration_s, 21.26e-3);
  EXPECT_EQ(c.bottleneck, 0);
}

TEST(CostModel, BottleneckIsTheFirstOfEqualStages) {
  // Two identical GPUs and symmetric links: [g0: 2, g2: 2] has
  // tau_0 = 2 * 7.2e-4 + 2.6e-3 = 4.04e-3 and tau_1 = 1.44e-3 + 6e-5 + 2.6e-3 = 4.1e-3: stage 1.
  // [g0: 3, g2: 1] has tau_0 = 4.76e-3, tau_1 = 7.2e-4 + 6e-5 + 2.6e-3 = 3.38e-3: stage 0.
  const CostModel cm(hand_pool());
  EXPECT_EQ(cm.evaluate(Plan{{0, 2}, {2, 2}}).bottleneck, 1);
  EXPECT_EQ(cm.evaluate(Plan{{0, 3}, {2, 1}}).bottleneck, 0);
  // With a zero-size head (V cannot be 0 in a file, but the model takes it) the
  // two stages of [g0: 2, g2: 2] tie at 4.04e-3 and the first one is reported.
  Problem p = hand_pool();
  p.model.vocab_size = 0;
  EXPECT_EQ(CostModel(p).evaluate(Plan{{0, 2}, {2, 2}}).bottleneck, 0);
}

TEST(CostModel, MemoryPerLayerGrowsWithQPlusOne) {
  const CostModel cm(hand_pool());
  EXPECT_REL(cm.layer_param_bytes(), 9.6e7);
  EXPECT_REL(cm.layer_activation_bytes(), 2e7);
  EXPECT_REL(cm.layer_memory_bytes(1), 1.36e8);  // 9.6e7 + 2 * 2e7
  EXPECT_REL(cm.layer_memory_bytes(2), 1.56e8);  // 9.6e7 + 3 * 2e7
  EXPECT_REL(cm.layer_memory_bytes(3), 1.76e8);  // 9.6e7 + 4 * 2e7
  EXPECT_REL(cm.head_memory_bytes(), 1.2e7);     // 8e6 + 4e6
}

TEST(CostModel, MemoryNeedPerStageWithTheLastStageExtra) {
  const CostModel cm(hand_pool());
  const PlanReport r = report_plan(cm, kThreeStages, hand_pool());
  EXPECT_REL(r.stages[0].memory_bytes, 1.76e8);        // 1 * 1.76e8
  EXPECT_REL(r.stages[1].memory_bytes, 3.52e8);        // 2 * 1.76e8
  EXPECT_REL(r.stages[2].memory_bytes, 1.88e8);        // 1 * 1.76e8 + 1.2e7
  EXPECT_REL(r.stages[2].memory_limit_bytes, 80 * kGiB);
  // Single stage: 4 * 1.36e8 + 1.2e7 = 5.56e8
  EXPECT_REL(cm.stage_memory_bytes(0, 4, 1, true), 5.56e8);
}

TEST(CostModel, FeasibleExactlyAtTheMemoryLimitAndNotOneByteOver) {
  // 2^30 is a power of two, so need / 2^30 * 2^30 == need exactly.
  Problem p = hand_pool();
  p.gpus[2].memory_gib = 1.88e8 / kGiB;  // the last stage of kThreeStages needs 1.88e8 bytes
  EXPECT_TRUE(CostModel(p).evaluate(kThreeStages).feasible);
  p.gpus[2].memory_gib = (1.88e8 - 1) / kGiB;
  EXPECT_FALSE(CostModel(p).evaluate(kThreeStages).feasible);

  p = hand_pool();
  p.gpus[1].memory_gib = 3.52e8 / kGiB;  // the middle stage needs 3.52e8 bytes
  EXPECT_TRUE(CostModel(p).evaluate(kThreeStages).feasible);
  p.gpus[1].memory_gib = (3.52e8 - 1) / kGiB;
  EXPECT_FALSE(CostModel(p).evaluate(kThreeStages).feasible);
}

TEST(CostModel, MaxLayersPerGpu) {
  Problem p = hand_pool();
  p.gpus[0].memory_gib = 5e8 / kGiB;
  const CostModel cm(p);
  // Not last, Q = 2: floor(5e8 / 1.56e8) = floor(3.2) = 3
  EXPECT_EQ(cm.max_layers(0, 2, false), 3);
  // Last, Q = 2: floor((5e8 - 1.2e7) / 1.56e8) = floor(3.13) = 3
  EXPECT_EQ(cm.max_layers(0, 2, true), 3);
  // Last, Q = 1: floor(4.88e8 / 1.36e8) = floor(3.59) = 3; Q = 3: floor(4.88e8 / 1.76e8) = 2
  EXPECT_EQ(cm.max_layers(0, 1, true), 3);
  EXPECT_EQ(cm.max_layers(0, 3, true), 2);
  // 80 GiB holds far more than L = 4: capped at L.
  EXPECT_EQ(cm.max_layers(1, 1, true), 4);
}

TEST(CostModel, EnergyOfThreeStages) {
  // E = T * (50 + 10 + 20) + M * sum (active - idle) comp
  //   = 29.06e-3 * 80 + 4 * (200 * 7.2e-4 + 50 * 2.88e-3 + 100 * 7.8e-4)
  //   = 2.3248 + 4 * (0.144 + 0.144 + 0.078) = 2.3248 + 1.464 = 3.7888 J
  EXPECT_REL(CostModel(hand_pool()).evaluate(kThreeStages).energy_j, 3.7888);
}

TEST(CostModel, EnergyCountsOnlyTheGpusInThePlan) {
  const CostModel cm(hand_pool());
  // [g0: 4]: E = 11.76e-3 * 50 + 4 * 200 * 2.94e-3 = 0.588 + 2.352 = 2.94 J (g1, g2 draw nothing)
  EXPECT_REL(cm.evaluate(Plan{{0, 4}}).energy_j, 2.94);
  // [g0: 3, g1: 1]: E = 21.26e-3 * 60 + 4 * (200 * 2.16e-3 + 50 * 1.56e-3)
  //               = 1.2756 + 4 * (0.432 + 0.078) = 1.2756 + 2.04 = 3.3156 J
  EXPECT_REL(cm.evaluate(Plan{{0, 3}, {1, 1}}).energy_j, 3.3156);
}

TEST(CostModel, StageEnergiesAddUpToTheIterationEnergy) {
  const PlanReport r = report_plan(CostModel(hand_pool()), kThreeStages, hand_pool());
  // g0: 29.06e-3 * 50 + 4 * 200 * 7.2e-4 = 1.453 + 0.576 = 2.029
  // g1: 29.06e-3 * 10 + 4 * 50 * 2.88e-3 = 0.2906 + 0.576 = 0.8666
  // g2: 29.06e-3 * 20 + 4 * 100 * 7.8e-4 = 0.5812 + 0.312 = 0.8932      sum 3.7888
  EXPECT_REL(r.stages[0].energy_j, 2.029);
  EXPECT_REL(r.stages[1].energy_j, 0.8666);
  EXPECT_REL(r.stages[2].energy_j, 0.8932);
}

TEST(CostModel, ObjectiveWeighsTimeAndEnergyByLambda) {
  Problem p = hand_pool();
  p.objective.t_ref_ms = 10;
  p.objective.e_ref_j = 2;
  // [g0: 4]: T = 11.76e-3 s, E = 2.94 J; T / T_ref = 1.176, E / E_ref = 1.47
  for (auto [lambda, expected] : {std::pair{1.0, 1.176}, std::pair{0.0, 1.47}, std::pair{0.5, 0.588 + 0.735}}) {
    p.objective.lambda = lambda;
    EXPECT_REL(CostModel(p).evaluate(Plan{{0, 4}}).objective, expected) << "lambda " << lambda;
  }
  CostModel cm(p);
  cm.set_lambda(0.25);  // 0.25 * 1.176 + 0.75 * 1.47 = 0.294 + 1.1025 = 1.3965
  EXPECT_REL(cm.evaluate(Plan{{0, 4}}).objective, 1.3965);
  cm.set_references(0.02, 4);  // 0.25 * 0.588 + 0.75 * 0.735 = 0.147 + 0.55125 = 0.69825
  EXPECT_REL(cm.evaluate(Plan{{0, 4}}).objective, 0.69825);
}

TEST(CostModel, ReferencesDefaultToOneUntilBothAreGiven) {
  Problem p = hand_pool();
  p.objective.t_ref_ms = 10;  // e_ref_j missing: the model keeps 1 and 1 (references.hpp fills them)
  const CostModel cm(p);
  EXPECT_EQ(cm.t_ref_s(), 1.0);
  EXPECT_EQ(cm.e_ref_j(), 1.0);
  EXPECT_REL(cm.evaluate(Plan{{0, 4}}).objective, 11.76e-3);  // lambda 1: T / 1 s
}

TEST(CostModel, EvaluateGenesEqualsEvaluateStages) {
  const CostModel cm(hand_pool());
  const std::vector<std::pair<std::vector<int>, Plan>> cases = {
      {{0, 1, 1, 2}, kThreeStages},
      {{0, 0, 0, 0}, Plan{{0, 4}}},
      {{2, 1, 1, 1}, Plan{{2, 1}, {1, 3}}},
      {{1, 0, 2, 2}, Plan{{1, 1}, {0, 1}, {2, 2}}},
  };
  for (const auto& [genes, plan] : cases) {
    const PlanCost a = cm.evaluate_genes(genes.data()), b = cm.evaluate(plan);
    EXPECT_EQ(a.iteration_s, b.iteration_s);
    EXPECT_EQ(a.energy_j, b.energy_j);
    EXPECT_EQ(a.objective, b.objective);
    EXPECT_EQ(a.feasible, b.feasible);
    EXPECT_EQ(a.bottleneck, b.bottleneck);
  }
  EXPECT_REL(cm.evaluate_genes(cases[0].first.data()).iteration_s, 29.06e-3);
}

TEST(CostModel, Fp32DoublesKappa) {
  Problem p = hand_pool();
  p.model.precision = Precision::fp32;
  const CostModel cm(p);
  EXPECT_REL(cm.activation_bytes(), 4e6);         // 4 * 1 * 1000 * 1000
  EXPECT_REL(cm.send_s(0, 1), 4.2e-3);            // 1e-3 + 4e6 / 1.25e9 = 1e-3 + 3.2e-3
  EXPECT_REL(cm.layer_param_bytes(), 1.92e8);     // 4 * 1.2e7 * 4
  EXPECT_REL(cm.layer_activation_bytes(), 4e7);   // 10 * 4 * 1e6
  EXPECT_REL(cm.head_memory_bytes(), 2.4e7);      // 4 * 1e6 * 4 + 2 * 4 * 1e6
  EXPECT_REL(cm.layer_compute_s(0), 7.2e-4);      // compute follows peak_tflops, not kappa
}

TEST(CostModel, Bf16AndFp16AreTwoBytes) {
  EXPECT_EQ(bytes_per_element(Precision::fp16), 2);
  EXPECT_EQ(bytes_per_element(Precision::bf16), 2);
  EXPECT_EQ(bytes_per_element(Precision::fp32), 4);
  Problem p = hand_pool();
  p.model.precision = Precision::bf16;
  const CostModel cm(p);
  EXPECT_REL(cm.activation_bytes(), 2e6);
  EXPECT_REL(cm.layer_memory_bytes(3), 1.76e8);
}

TEST(CostModel, ComputeUtilScalesEffectiveCompute) {
  Problem p = hand_pool();
  p.gpus[1].peak_tflops = 200;
  p.gpus[1].compute_util = 0.25;  // F = 200e12 * 0.25 = 5e13, as before
  const CostModel cm(p);
  EXPECT_REL(cm.layer_compute_s(1), 1.44e-3);
  EXPECT_REL(cm.head_compute_s(1), 1.2e-4);
}

TEST(CostModel, MemoryUtilScalesEffectiveMemory) {
  Problem p = hand_pool();
  p.gpus[0].memory_gib = 2;
  p.gpus[0].memory_util = 0.5;  // 2 * 2^30 * 0.5 = 2^30 bytes
  EXPECT_REL(CostModel(p).memory_limit_bytes(0), kGiB);
}

TEST(CostModel, LinkUtilScalesBandwidth) {
  Problem p = hand_pool();
  // 20 Gbps at util 0.5 = 1.25e9 B/s: 2e6 / 1.25e9 = 1.6e-3, + 1 ms = 2.6e-3
  p.network.links.push_back({"g0", "g2", LinkSpec{20, 1, 0.5}});
  const CostModel cm(p);
  EXPECT_REL(cm.send_s(0, 2), 2.6e-3);
  // and util 0.25 on 100 Gbps: 3.125e9 B/s: 2e6 / 3.125e9 = 6.4e-4, + 0 = 6.4e-4
  p.network.links.back().link = LinkSpec{100, 0, 0.25};
  EXPECT_REL(CostModel(p).send_s(0, 2), 6.4e-4);
}

}  // namespace
}  // namespace geotrain
