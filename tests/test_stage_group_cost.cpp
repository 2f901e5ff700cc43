// The stage-group cost model (stage-groups.md), every term worked out by
// hand, and the promise that one-GPU devices give the paper's figures bit for
// bit on every example.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "model/cost_model.hpp"
#include "model/plan_report.hpp"
#include "model/problem_json.hpp"
#include "search/baselines/baselines.hpp"
#include "search/random.hpp"

namespace geotrain {
namespace {

// H = T = V = 1000, fp16 (kappa 2), u = 2, B = 8 (M = 4). Node n0: g0..g3 at
// 100 TFLOPS (idle 50 W, active 250 W); g4 on its own at 50 TFLOPS (10 W, 60 W).
// intra_node: 800 Gbps = 1e11 B/s, 0.001 ms; every other link 10 Gbps =
// 1.25e9 B/s, 1 ms.
Problem node_pool(int layers) {
  Problem p;
  p.model.hidden_size = 1000, p.model.num_layers = layers, p.model.seq_length = 1000, p.model.vocab_size = 1000;
  p.model.micro_batch_size = 2, p.model.global_batch_size = 8, p.model.precision = Precision::fp16;
  for (int i = 0; i < 5; ++i) {
    Gpu g;
    g.id = "g" + std::to_string(i);
    g.site = "A";
    g.node = i < 4 ? "n0" : "";
    g.peak_tflops = i < 4 ? 100 : 50;
    g.memory_gib = 80;
    g.idle_w = i < 4 ? 50 : 10;
    g.active_w = i < 4 ? 250 : 60;
    p.gpus.push_back(g);
  }
  p.network.default_link = LinkSpec{10, 1, 1};
  p.network.intra_node = LinkSpec{800, 0.001, 1};
  p.objective.lambda = 1, p.objective.t_ref_ms = 1, p.objective.e_ref_j = 1;
  return p;
}

TEST(StageGroupCost, TensorAndDataParallelStageThenOneGpu) {
  // Stage 0: {g0, g1, g2, g3}, t = 2, so d = 2 shards ({g0, g1}, {g2, g3}) of
  // u_d = 1 sample, 3 layers. Stage 1: g4, 1 layer and the head.
  const Problem p = node_pool(4);
  CostModel model(p, GroupLayout{DeviceGroup{{0, 1, 2, 3}, 2}, DeviceGroup{{4}, 1}});
  const PlanReport r = report_plan(model, Plan{{0, 3}, {1, 1}}, p);
  ASSERT_EQ(r.stages.size(), 2u);
  // comp_0 = 3 * n * 24 H^2 * u_d * T / (t F) = 3 * 3 * 24e6 * 1 * 1000 / (2 * 1e14) = 1.08 ms.
  EXPECT_NEAR(r.stages[0].compute_s, 1.08e-3, 1e-15);
  // Shard ring {g0, g1}: AR(X) = 2 (p - 1) (Lat + X / (p Bw)) with X = kappa u_d T H = 2e6 B:
  // 2 * (1e-6 + 2e6 / 2e11) = 2.2e-5 s; four per layer: tp_0 = 4 * 3 * 2.2e-5 = 0.264 ms.
  EXPECT_NEAR(r.stages[0].tensor_parallel_s, 0.264e-3, 1e-15);
  // The full activation S = kappa u T H = 4e6 B, g0 -> g4 over the default
  // link: 1e-3 + 4e6 / 1.25e9 = 4.2 ms (and back g4 -> g0 the same).
  EXPECT_NEAR(r.stages[0].send_forward_s, 4.2e-3, 1e-15);
  EXPECT_NEAR(r.stages[1].send_backward_s, 4.2e-3, 1e-15);
  // tau_0 = 1.08 + 0.264 + 4.2 = 5.544 ms.
  EXPECT_NEAR(r.stages[0].stage_s, 5.544e-3, 1e-15);
  // comp_1 = 3 * 1 * 24e6 * 2 * 1000 / 5e13 = 2.88 ms plus the head
  // 3 * 2 * u T H V / F = 3 * 2 * 2e9 / 5e13 = 0.24 ms: 3.12 ms; tau_1 = 7.32 ms.
  EXPECT_NEAR(r.stages[1].compute_s, 3.12e-3, 1e-15);
  EXPECT_NEAR(r.stages[1].stage_s, 7.32e-3, 1e-15);
  // Gradient sync of stage 0: tensor rank i's ring {gpus[i], gpus[2 + i]}
  // all-reduces n P kappa / t = 3 * 12e6 * 2 / 2 = 36e6 B over the intra-node
  // link: 2 * (1e-6 + 36e6 / 2e11) = 0.362 ms. Stage 1 has one shard: 0.
  EXPECT_NEAR(r.stages[0].data_parallel_sync_s, 0.362e-3, 1e-15);
  EXPECT_EQ(r.stages[1].data_parallel_sync_s, 0.0);
  // T_pipe = 5.544 + 7.32 + 3 * 7.32 = 34.824 ms; T_iter = 34.824 + 0.362 = 35.186 ms.
  EXPECT_NEAR(r.cost.iteration_s, 35.186e-3, 1e-14);
  // Memory per GPU, Q = 2: stage 0: n (4 P kappa + (Q + 1) alpha kappa u_d T H) / t
  // = 3 (96e6 + 3 * 10 * 2 * 1e6) / 2 = 234e6 B; stage 1: 96e6 + 3 * 10 * 2 * 2e6
  // + 4 H V kappa + 2 kappa u T V = 216e6 + 8e6 + 8e6 = 232e6 B.
  EXPECT_NEAR(r.stages[0].memory_bytes, 234e6, 1e-6);
  EXPECT_NEAR(r.stages[1].memory_bytes, 232e6, 1e-6);
  // Energy: idle of all five GPUs (210 W) over T_iter = 7.38906 J, plus M = 4
  // times the active extra: 4 GPUs * 200 W * 1.08 ms + 50 W * 3.12 ms = 1.02 J,
  // so 4.08 J: E = 11.46906 J.
  EXPECT_NEAR(r.cost.energy_j, 11.46906, 1e-12);
  EXPECT_TRUE(r.cost.feasible);
}

TEST(StageGroupCost, SlowestShardSetsThePaceAndFasterShardsIdle) {
  // One stage, L = 1, {g0 (100 TFLOPS), g4 (50 TFLOPS)} as two data shards (t = 1),
  // each of u_d = 1 sample. The link between them is the default one (they are
  // not one node): 1.25e9 B/s, 1 ms.
  const Problem p = node_pool(1);
  CostModel model(p, GroupLayout{DeviceGroup{{0, 4}, 1}});
  const PlanReport r = report_plan(model, Plan{{0, 1}}, p);
  // Shard g0: 3 * 24e6 * 1000 / 1e14 + 3 * 2 * 1e9 / 1e14 = 0.72 + 0.06 = 0.78 ms;
  // shard g4 takes twice that, 1.56 ms, and sets comp_q.
  EXPECT_NEAR(r.stages[0].compute_s, 1.56e-3, 1e-15);
  EXPECT_EQ(r.stages[0].tensor_parallel_s, 0.0);
  // T_pipe = M tau = 4 * 1.56 = 6.24 ms. Sync: n P kappa + H V kappa = 24e6 + 2e6 =
  // 26e6 B over the ring g0 -> g4 -> g0: 2 * (1e-3 + 26e6 / 2.5e9) = 22.8 ms.
  EXPECT_NEAR(r.stages[0].data_parallel_sync_s, 22.8e-3, 1e-14);
  EXPECT_NEAR(r.cost.iteration_s, 29.04e-3, 1e-14);
  // Energy: idle 60 W * 29.04 ms = 1.7424 J; active: M * (200 W * 0.78 ms + 50 W * 1.56 ms)
  // = 4 * 0.234 = 0.936 J: E = 2.6784 J.
  EXPECT_NEAR(r.cost.energy_j, 2.6784, 1e-12);
  // Memory per GPU, Q = 1: 96e6 + 2 * 10 * 2 * 1e6 + 4e6 * 2 + 2 * 2 * 1 * 1e6 = 148e6 B.
  EXPECT_NEAR(r.stages[0].memory_bytes, 148e6, 1e-6);
}

TEST(StageGroupCost, TensorParallelRingOfFour) {
  // {g0..g3}, t = 4, one shard of u_d = u = 2 samples, L = 2 on one stage.
  const Problem p = node_pool(2);
  CostModel model(p, GroupLayout{DeviceGroup{{0, 1, 2, 3}, 4}});
  const PlanReport r = report_plan(model, Plan{{0, 2}}, p);
  // X = kappa u_d T H = 4e6 B; AR = 2 * 3 * (1e-6 + 4e6 / (4 * 1e11)) = 6 * 1.1e-5 = 6.6e-5 s;
  // tp = 4 * 2 * 6.6e-5 = 0.528 ms.
  EXPECT_NEAR(r.stages[0].tensor_parallel_s, 0.528e-3, 1e-15);
  // comp = 3 * 2 * 24e6 * 2 * 1000 / (4 * 1e14) + 3 * 2 * 2e9 / (4 * 1e14) = 0.72 + 0.03 = 0.75 ms.
  EXPECT_NEAR(r.stages[0].compute_s, 0.75e-3, 1e-15);
  EXPECT_EQ(r.stages[0].data_parallel_sync_s, 0.0);
  // T_iter = 4 * (0.75 + 0.528) = 5.112 ms.
  EXPECT_NEAR(r.cost.iteration_s, 5.112e-3, 1e-15);
  // Memory, Q = 1: [2 (96e6 + 2 * 10 * 2 * 2e6) + 4 H V kappa + 2 kappa u_d T V] / t
  // = [2 * 176e6 + 8e6 + 8e6] / 4 = 368e6 / 4 = 92e6 B.
  EXPECT_NEAR(r.stages[0].memory_bytes, 92e6, 1e-6);
}

TEST(StageGroupCost, GroupsDivideMemorySoMoreLayersFit) {
  Problem p = node_pool(8);
  for (Gpu& g : p.gpus) g.memory_gib = 0.5;  // 536.9e6 B
  CostModel single(p);
  CostModel grouped(p, GroupLayout{DeviceGroup{{0, 1, 2, 3}, 4}});
  // One stage: a GPU alone needs per layer 96e6 + 2 * 10 * 2 * 2e6 = 176e6 B: 3 layers
  // (minus the 16e6 B head: (536.9e6 - 16e6) / 176e6 = 2.96, so 2 as the last stage);
  // the 4-way group needs a quarter of it per GPU: 44e6 B, so (536.9e6 - 4e6) / 44e6 = 12.1.
  EXPECT_EQ(single.max_layers(0, 1, true), 2);
  EXPECT_EQ(grouped.max_layers(0, 1, true), 8);  // capped at L
}

// A layout whose first N devices are the GPUs one by one and whose last is a
// real group: plans over the first N use the group-aware evaluation, which
// must give the paper's figures bit for bit.
void expect_same_bits_as_pipeline(const Problem& problem) {
  const int n = static_cast<int>(problem.gpus.size());
  GroupLayout layout = single_gpu_layout(n);
  layout.push_back(DeviceGroup{{0, n > 1 ? 1 : 0}, n > 1 ? 2 : 1});
  if (n == 1) layout.back().gpus = {0, 0};  // only its presence matters: plans never use it
  CostModel pipeline(problem), grouped(problem, layout);
  ASSERT_FALSE(pipeline.has_groups());
  ASSERT_TRUE(grouped.has_groups());
  grouped.set_references(pipeline.t_ref_s(), pipeline.e_ref_j());
  Rng rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    const int L = pipeline.num_layers();
    const int stages = 1 + static_cast<int>(rng.below(static_cast<std::uint64_t>(std::min(n, L))));
    std::vector<int> gpus(n);
    for (int g = 0; g < n; ++g) gpus[g] = g;
    for (int g = n - 1; g > 0; --g) std::swap(gpus[g], gpus[rng.below(static_cast<std::uint64_t>(g + 1))]);
    Plan plan;
    int left = L;
    for (int q = 0; q < stages; ++q) {
      const int most = left - (stages - q - 1);
      const int layers = q + 1 == stages ? left : 1 + static_cast<int>(rng.below(static_cast<std::uint64_t>(most)));
      plan.push_back(Stage{gpus[q], layers});
      left -= layers;
    }
    const PlanCost a = pipeline.evaluate(plan), b = grouped.evaluate(plan);
    ASSERT_EQ(a.iteration_s, b.iteration_s);
    ASSERT_EQ(a.energy_j, b.energy_j);
    ASSERT_EQ(a.objective, b.objective);
    ASSERT_EQ(a.feasible, b.feasible);
    ASSERT_EQ(a.bottleneck, b.bottleneck);
  }
}

TEST(StageGroupCost, OneGpuDevicesGiveThePaperFiguresBitForBitOnEveryExample) {
  int examples = 0;
  for (const auto& entry : std::filesystem::directory_iterator(GEOTRAIN_EXAMPLES_DIR)) {
    if (entry.path().extension() != ".json") continue;
    SCOPED_TRACE(entry.path().filename().string());
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    Problem problem = parse_problem_text(text.str()).problem;
    problem.objective.t_ref_ms = 1000, problem.objective.e_ref_j = 1000;
    expect_same_bits_as_pipeline(problem);
    ++examples;
  }
  EXPECT_GE(examples, 6);
}

}  // namespace
}  // namespace geotrain
