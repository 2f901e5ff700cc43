// The replica cost model (replicas.md), every term worked out by hand, and the
// promise that a plan of one replica without shared pipes has exactly the
// figures of the one-pipeline model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>

#include "model/cost_model.hpp"
#include "model/replica_cost_model.hpp"
#include "model/replica_report.hpp"
#include "search/random.hpp"
#include "test_support.hpp"

namespace geotrain {
namespace {

// round_model(4): H = T = V = 1000, u = 1, B = 4 (M = 4), fp16 (kappa 2).
// GPUs a0, a1 at site A and b0, b1 at site B, 100 TFLOPS, 80 GiB, 50 W idle,
// 250 W active. intra_site 100 Gbps = 1.25e10 B/s, 0.1 ms; inter_site
// 10 Gbps = 1.25e9 B/s, 10 ms.
//   a layer: 3 * 24 H^2 * u T / 1e14 = 7.2e10 / 1e14 = 0.72 ms; the head 3 * 2 u T H V / 1e14 = 0.06 ms;
//   an activation S = kappa u T H = 2e6 B: inside a site 0.1 + 2e6 / 1.25e10 s = 0.26 ms;
//   a layer's gradient P kappa = 12 H^2 * 2 = 2.4e7 B; the head's H V kappa = 2e6 B.
// testing::four_gpus_on_two_sites(), with lambda = 1 and references 10 ms and 2 J.
Problem two_sites() {
  Problem p = testing::four_gpus_on_two_sites();
  p.objective.lambda = 1, p.objective.t_ref_ms = 10, p.objective.e_ref_j = 2;
  return p;
}

GroupStage one(int gpu, int layers) { return testing::one_gpu_stage(gpu, layers); }

// Replica 0 on site A (a0, a1), replica 1 on site B (b0, b1), two layers per stage, m = 2 each.
ReplicaPlan per_site() {
  return {Replica{2, {one(0, 2), one(1, 2)}}, Replica{2, {one(2, 2), one(3, 2)}}};
}

// Each replica crosses from A to B: replica 0 a0 -> b0, replica 1 a1 -> b1.
ReplicaPlan across_sites() {
  return {Replica{2, {one(0, 2), one(2, 2)}}, Replica{2, {one(1, 2), one(3, 2)}}};
}

ReplicaBreakdown breakdown(const Problem& p, const ReplicaPlan& plan) {
  CostModel objective(p);
  const ReplicaPlanModel m(p, plan, objective);
  return m.model.breakdown(m.view());
}

TEST(ReplicaCost, OneReplicaPerSite) {
  const ReplicaBreakdown b = breakdown(two_sites(), per_site());
  // tau_0 = 2 * 0.72 + 0.26 = 1.70 ms; tau_1 = 2 * 0.72 + 0.06 + 0.26 = 1.76 ms;
  // T_pipe = 1.70 + 1.76 + (2 - 1) * 1.76 = 5.22 ms for each replica.
  ASSERT_EQ(b.pipeline_s.size(), 2u);
  EXPECT_NEAR(b.pipeline_s[0], 5.22e-3, 1e-15);
  EXPECT_NEAR(b.pipeline_s[1], 5.22e-3, 1e-15);
  // Across replicas (R = 2), stage 0: X_0 = 2 * 2.4e7 = 4.8e7 B over hops a0 -> b0 and
  // b0 -> a0 (10 ms, 1.25e9 B/s, k = 1): AR_0 = 2 (R - 1) (0.01 + X / (R Bw))
  // = 2 * (0.01 + 4.8e7 / 2.5e9) = 58.4 ms. Stage 1 adds the head: X_1 = 5e7 B, AR_1 = 60 ms.
  ASSERT_EQ(b.all_reduce_s.size(), 2u);
  EXPECT_NEAR(b.all_reduce_s[0], 58.4e-3, 1e-15);
  EXPECT_NEAR(b.all_reduce_s[1], 60e-3, 1e-15);
  // Pipe A -> B carries 2 (R - 1) / R * (X_0 + X_1) = 9.8e7 B at the link's 1.25e9 B/s
  // (no capacity given) plus 2 (R - 1) latencies: 0.0784 + 0.02 = 98.4 ms; B -> A the same.
  ASSERT_EQ(b.pipes.size(), 2u);
  EXPECT_NEAR(b.pipes[0].bytes, 9.8e7, 1e-6);
  EXPECT_NEAR(b.pipes[0].time_s, 98.4e-3, 1e-15);
  EXPECT_NEAR(b.cross_replica_sync_s, 98.4e-3, 1e-15);
  // T_iter = max T_pipe + T_xsync / H = 5.22 + 98.4 = 103.62 ms.
  EXPECT_NEAR(b.cost.iteration_s, 103.62e-3, 1e-15);
  // E = T * 4 * 50 W + sum_r m_r * sum_q 200 W * comp_q
  //   = 0.10362 * 200 + 2 replicas * 2 * 200 * (1.44 + 1.50) ms = 20.724 + 2.352 = 23.076 J.
  EXPECT_NEAR(b.cost.energy_j, 23.076, 1e-12);
  // lambda 1, T_ref 10 ms: objective = 10.362.
  EXPECT_NEAR(b.cost.objective, 10.362, 1e-12);
  EXPECT_TRUE(b.cost.feasible);
}

TEST(ReplicaCost, SyncEveryAndCompression) {
  Problem p = two_sites();
  p.training.sync_every = 4;
  // T_xsync / H: 5.22 + 98.4 / 4 = 29.82 ms.
  EXPECT_NEAR(breakdown(p, per_site()).cost.iteration_s, 29.82e-3, 1e-15);
  p.training.sync_every = 1;
  p.training.sync_compression = 0.5;
  // c = 0.5 halves the bytes between replicas, not the latencies: pipe 4.9e7 / 1.25e9 + 0.02
  // = 59.2 ms; AR_1 = 2 (0.01 + 0.5 * 5e7 / 2.5e9) = 40 ms. T = 5.22 + 59.2 = 64.42 ms.
  const ReplicaBreakdown b = breakdown(p, per_site());
  EXPECT_NEAR(b.all_reduce_s[1], 40e-3, 1e-15);
  EXPECT_NEAR(b.cross_replica_sync_s, 59.2e-3, 1e-15);
  EXPECT_NEAR(b.cost.iteration_s, 64.42e-3, 1e-15);
}

TEST(ReplicaCost, PipeCapacityBoundsTheAllReduce) {
  Problem p = two_sites();
  p.network.inter_site->capacity_gbps = 4;  // 5e8 B/s, shared
  // The pipe: 9.8e7 / 5e8 + 0.02 = 216 ms; T = 5.22 + 216 = 221.22 ms.
  const ReplicaBreakdown b = breakdown(p, per_site());
  EXPECT_NEAR(b.cross_replica_sync_s, 216e-3, 1e-15);
  EXPECT_NEAR(b.cost.iteration_s, 221.22e-3, 1e-15);
}

TEST(ReplicaCost, SendsShareAPipesCapacity) {
  Problem p = two_sites();
  p.network.inter_site->capacity_gbps = 4;
  // Both replicas send A -> B forward and B -> A backward: two sends share each
  // direction, min(1.25e9, 5e8 / 2) = 2.5e8 B/s, so 10 ms + 2e6 / 2.5e8 = 18 ms each.
  const ReplicaBreakdown b = breakdown(p, across_sites());
  EXPECT_NEAR(b.send_forward_s[0], 18e-3, 1e-15);
  EXPECT_NEAR(b.send_backward_s[1], 18e-3, 1e-15);
  // tau_0 = 1.44 + 18 = 19.44, tau_1 = 1.50 + 18 = 19.50; T_pipe = 19.44 + 19.50 + 19.50 = 58.44 ms.
  EXPECT_NEAR(b.pipeline_s[0], 58.44e-3, 1e-15);
  // The all-reduce stays inside each site: stage 0 ring a0 -> a1 -> a0 (0.1 ms, 1.25e10 B/s):
  // 2 * (1e-4 + 4.8e7 / 2.5e10) = 4.04 ms; stage 1 on b0, b1: 2 * (1e-4 + 5e7 / 2.5e10) = 4.2 ms.
  // No pipe is loaded. T = 58.44 + 4.2 = 62.64 ms; E = 0.06264 * 200 + 2.352 = 14.88 J.
  EXPECT_TRUE(b.pipes.empty());
  EXPECT_NEAR(b.cross_replica_sync_s, 4.2e-3, 1e-15);
  EXPECT_NEAR(b.cost.iteration_s, 62.64e-3, 1e-15);
  EXPECT_NEAR(b.cost.energy_j, 14.88, 1e-12);
  // One replica alone on the pipe gets min(1.25e9, 5e8): 10 + 4 = 14 ms per send,
  // as the one-pipeline model charges (the capacity folded into its sends).
  const ReplicaPlan alone = {Replica{4, {one(0, 2), one(2, 2)}}};
  const ReplicaBreakdown single = breakdown(p, alone);
  EXPECT_NEAR(single.send_forward_s[0], 14e-3, 1e-15);
  CostModel pipeline(p);
  EXPECT_NEAR(pipeline.send_s(0, 2), 14e-3, 1e-15);
}

TEST(ReplicaCost, HopsRunOnePairPerGpuOfTheSmallerGroup) {
  // A 4-layer, 1-stage template: replica 0 is the group {a0, a1} (d = 1, t = 2),
  // replica 1 the single GPU b0. M = 4 split 3 + 1.
  Problem p = two_sites();
  const ReplicaPlan plan = {Replica{3, {GroupStage{{0, 1}, 2, 4}}}, Replica{1, {one(2, 4)}}};
  const ReplicaBreakdown b = breakdown(p, plan);
  // k = min(2, 1) = 1 pair per hop: AR_0 = 2 * (0.01 + X / (2 * 1.25e9)) with
  // X = 4 * 2.4e7 + 2e6 = 9.8e7: 2 * (0.01 + 0.0392) = 98.4 ms.
  EXPECT_NEAR(b.all_reduce_s[0], 98.4e-3, 1e-15);
  // With b0 a group {b0, b1} too, k = 2 doubles each hop's bandwidth:
  // 2 * (0.01 + 9.8e7 / (2 * 2.5e9)) = 59.2 ms (the pipe, 9.8e7 / 1.25e9 + 0.02 = 98.4 ms, then binds).
  const ReplicaPlan pairs = {Replica{3, {GroupStage{{0, 1}, 2, 4}}}, Replica{1, {GroupStage{{2, 3}, 2, 4}}}};
  const ReplicaBreakdown c = breakdown(p, pairs);
  EXPECT_NEAR(c.all_reduce_s[0], 59.2e-3, 1e-15);
  EXPECT_NEAR(c.cross_replica_sync_s, 98.4e-3, 1e-15);
}

TEST(ReplicaCost, MemoryUsesTheCommonStageCount) {
  // Q + 1 micro-batches of activations per layer, the same for every replica:
  // a GPU too small for its stage makes the plan infeasible whichever replica holds it.
  Problem p = two_sites();
  // b1, the last stage of replica 1, holds 2 layers of 4 P kappa + (Q + 1) alpha kappa u T H
  // = 9.6e7 + 3 * 10 * 2e6 = 1.56e8 B, plus the head's 4 H V kappa + 2 kappa u T V = 1.2e7 B:
  // 3.24e8 B, more than 0.25 GiB = 2.68e8 B.
  p.gpus[3].memory_gib = 0.25;
  CostModel objective(p);
  EXPECT_FALSE(breakdown(p, per_site()).cost.feasible);
  p.gpus[3].memory_gib = 80;
  EXPECT_TRUE(breakdown(p, per_site()).cost.feasible);
}

// A plan of one replica, no capacities: bit for bit CostModel's figures, on
// random pipeline and group plans of a priced pool.
TEST(ReplicaCost, OneReplicaIsTheOnePipelineModelBitForBit) {
  Problem p = two_sites();
  p.gpus[1].peak_tflops = 60, p.gpus[2].compute_util = 0.7, p.gpus[3].idle_w = 20;
  p.gpus[0].node = p.gpus[1].node = "nA";
  p.network.intra_node = LinkSpec{800, 0.001, 1};
  p.sites["A"] = SiteFigures{300, 1.2, 0.1};
  p.gpus[2].price_per_hour = 2;
  p.objective.weights = ObjectiveWeights{0.5, 0.2, 0.2, 0.1};
  p.objective.c_ref_g = 1, p.objective.m_ref = 1;
  p.model.micro_batch_size = 2, p.model.global_batch_size = 8;
  Rng rng(7);
  // Pipelines over these GPU orders; where a0 leads and a1 is unused, a0's stage
  // may become the group {a0, a1} (t = 1 or 2).
  const std::vector<std::vector<int>> orders = {{0, 1, 2, 3}, {3, 2, 1, 0}, {0, 2, 3}, {1, 3}, {0}};
  for (int trial = 0; trial < 200; ++trial) {
    const auto& order = orders[static_cast<std::size_t>(trial) % orders.size()];
    // A random composition of L = 4 layers into order.size() stages of >= 1.
    std::vector<int> layers(order.size(), 1);
    for (int extra = 4 - static_cast<int>(order.size()); extra > 0; --extra)
      ++layers[rng.below(static_cast<std::uint64_t>(layers.size()))];
    GroupPlan plan;
    for (std::size_t k = 0; k < order.size(); ++k) plan.push_back(one(order[k], layers[k]));
    if (trial % 3 == 0 && order[0] == 0 && std::find(order.begin(), order.end(), 1) == order.end())
      plan[0] = GroupStage{{0, 1}, trial % 2 ? 2 : 1, plan[0].layers};
    CostModel objective(p);
    objective.set_references(0.01, 2, 1, 1);
    const ReplicaPlanModel replica(p, {Replica{p.model.micro_batches(), plan}}, objective);
    CostModel direct(p, layout_of(plan));
    direct.copy_objective_from(objective);
    const PlanCost a = replica.model.evaluate(replica.view());
    const PlanCost b = direct.evaluate(device_plan(plan));
    EXPECT_EQ(a.iteration_s, b.iteration_s) << trial;
    EXPECT_EQ(a.energy_j, b.energy_j) << trial;
    EXPECT_EQ(a.carbon_g, b.carbon_g) << trial;
    EXPECT_EQ(a.cost, b.cost) << trial;
    EXPECT_EQ(a.objective, b.objective) << trial;
    EXPECT_EQ(a.feasible, b.feasible) << trial;
    EXPECT_EQ(a.bottleneck, b.bottleneck) << trial;
  }
}

}  // namespace
}  // namespace geotrain
