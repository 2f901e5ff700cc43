// Replicas on an engine (search/replicas/engine_replicas.hpp): the rules,
// the replica search and brute force held to them, and FlashFlex running
// replicas that differ as pipelines of their own.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "api/launch_request.hpp"
#include "api/planner.hpp"
#include "launch/flashflex_args.hpp"
#include "launch/rank_map.hpp"
#include "model/input_error.hpp"
#include "model/problem_json.hpp"
#include "search/replicas/engine_replicas.hpp"
#include "test_support.hpp"

namespace geotrain {
namespace {

// testing::two_sites_of_two_nodes() with B = 16: M = 16.
Problem two_sites() {
  Problem p = testing::two_sites_of_two_nodes();
  p.model.global_batch_size = 16;
  return p;
}

SolveResult solve(Problem p, Method method = Method::memetic) {
  SolveOptions options;
  options.method = method;
  const PreparedProblem prepared = prepare_problem(std::move(p), options);
  return run_method(prepared, options);
}

bool mentions(const std::vector<std::string>& texts, const std::string& part) {
  for (const std::string& t : texts)
    if (t.find(part) != std::string::npos) return true;
  return false;
}

TEST(EngineReplicas, DataParallelEnginesWantIdenticalReplicas) {
  const Problem p = two_sites();
  const ReplicaPlan same = {Replica{8, {GroupStage{{0}, 1, 3}, GroupStage{{1}, 1, 1}}},
                            Replica{8, {GroupStage{{4}, 1, 3}, GroupStage{{5}, 1, 1}}}};
  for (Engine e : {Engine::megatron_core, Engine::deepspeed, Engine::torch, Engine::flashflex, Engine::any})
    EXPECT_TRUE(engine_replica_faults(e, p, same).empty()) << engine_name(e);
  // Joined: stage 1 is g0 and g4 (replica by replica), data-parallel size 2.
  const GroupPlan joined = join_replicas(same);
  EXPECT_EQ(joined[0].gpus, (std::vector<int>{0, 4}));
  EXPECT_EQ(joined[1].gpus, (std::vector<int>{1, 5}));

  // Shares 10 and 6: DP gives every replica the same share; FlashFlex takes a share per pipeline.
  ReplicaPlan unequal = same;
  unequal[0].micro_batches = 10, unequal[1].micro_batches = 6;
  EXPECT_TRUE(mentions(engine_replica_faults(Engine::megatron_core, p, unequal), "the same share"));
  EXPECT_TRUE(engine_replica_faults(Engine::flashflex, p, unequal).empty());

  // Replica 0's first stage is the node n0 as a 2-way tensor group: different groups.
  const ReplicaPlan shapes = {Replica{8, {GroupStage{{0, 1}, 2, 3}, GroupStage{{2}, 1, 1}}},
                              Replica{8, {GroupStage{{4}, 1, 3}, GroupStage{{5}, 1, 1}}}};
  EXPECT_TRUE(mentions(engine_replica_faults(Engine::megatron_core, p, shapes), "the same groups everywhere"));
  EXPECT_TRUE(engine_replica_faults(Engine::flashflex, p, shapes).empty());
  // DeepSpeed has no tensor parallelism of its own: replica 0's 2-way group is beyond it.
  EXPECT_FALSE(engine_replica_faults(Engine::deepspeed, p, shapes).empty());

  // A replica whose stages have 2 and 1 data shards: FlashFlex runs a GPU in one pipeline only.
  const ReplicaPlan mixed = {Replica{8, {GroupStage{{0, 1}, 1, 3}, GroupStage{{2}, 1, 1}}},
                             Replica{8, {GroupStage{{4}, 1, 3}, GroupStage{{5}, 1, 1}}}};
  EXPECT_TRUE(mentions(engine_replica_faults(Engine::flashflex, p, mixed), "replicas[0]: cannot express"));
}

TEST(EngineReplicas, TorchCountsEachReplicasShareAgainstItsStages) {
  // Joined, each micro-batch of the engine is one of every replica's: M' = m = 2 < 3 stages.
  Problem p = two_sites();
  p.model.num_layers = 3, p.model.global_batch_size = 4;
  const ReplicaPlan three = {
      Replica{2, {GroupStage{{0}, 1, 1}, GroupStage{{1}, 1, 1}, GroupStage{{2}, 1, 1}}},
      Replica{2, {GroupStage{{4}, 1, 1}, GroupStage{{5}, 1, 1}, GroupStage{{6}, 1, 1}}}};
  EXPECT_TRUE(mentions(engine_replica_faults(Engine::torch, p, three), "3 stages and only 2 micro-batches"));
  EXPECT_TRUE(engine_replica_faults(Engine::megatron_core, p, three).empty());
}

TEST(EngineReplicas, LocalSgdAndCompressionAreBeyondEveryEngine) {
  Problem p = two_sites();
  p.training.sync_every = 10;
  const ReplicaPlan same = {Replica{8, {GroupStage{{0}, 1, 4}}}, Replica{8, {GroupStage{{4}, 1, 4}}}};
  for (Engine e : {Engine::megatron_core, Engine::deepspeed, Engine::torch, Engine::flashflex})
    EXPECT_TRUE(mentions(engine_replica_faults(e, p, same), "training.sync_every is 10")) << engine_name(e);
  EXPECT_TRUE(engine_replica_faults(Engine::any, p, same).empty());
  // One pipeline never syncs between replicas: the settings do not matter.
  EXPECT_TRUE(engine_replica_faults(Engine::megatron_core, p, {same[0]}).empty());
}

TEST(EngineReplicas, SearchGivesMegatronIdenticalReplicasWithEqualShares) {
  Problem p = two_sites();
  // One GPU per site: each replica is one GPU holding every layer, A's twice as fast.
  p.gpus = {p.gpus[0], p.gpus[4]};
  p.search.replicas = 2;
  const SolveResult free = solve(p, Method::brute_force);
  ASSERT_EQ(free.replicas.size(), 2u);
  // The best free plan's shares follow the speeds (about 11 and 5 of 16).
  EXPECT_NE(free.replicas[0].micro_batches, free.replicas[1].micro_batches);
  p.search.engine = Engine::megatron_core;
  for (Method method : {Method::memetic, Method::brute_force}) {
    const SolveResult r = solve(p, method);
    ASSERT_EQ(r.replicas.size(), 2u) << method_name(method);
    EXPECT_EQ(r.replicas[0].micro_batches, 8);
    EXPECT_EQ(r.replicas[1].micro_batches, 8);
    EXPECT_TRUE(engine_replica_faults(Engine::megatron_core, p, r.replicas).empty()) << method_name(method);
    // The constraint costs something: above the free optimum, and the engine's price says so.
    EXPECT_GT(r.cost.objective, free.cost.objective) << method_name(method);
    ASSERT_TRUE(r.unconstrained) << method_name(method);
    EXPECT_LE(r.unconstrained->cost.objective, r.cost.objective) << method_name(method);
  }
}

TEST(EngineReplicas, SyncPeriodOnAnEngineLeavesOnePipeline) {
  Problem p = two_sites();
  p.training.sync_every = 10;
  p.search.engine = Engine::megatron_core;
  p.search.replicas = 2;
  try {
    solve(p);
    FAIL() << "two replicas with a sync period on Megatron-Core were planned";
  } catch (const PlanningError& e) {
    EXPECT_NE(std::string(e.what()).find("search.replicas: 2 replicas on search.engine \"megatron-core\""),
              std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("training.sync_every"), std::string::npos);
  }
  p.search.replicas = 1, p.search.replicas_auto = true;
  EXPECT_TRUE(solve(p).replicas.empty());  // one pipeline, printed as one
}

TEST(EngineReplicas, FlashFlexRunsReplicasThatDifferAsPipelinesOfTheirOwn) {
  // Replica 0: n0 as a 2-way tensor group (3 layers), g2 (1 layer), 10 of
  // the 16 micro-batches; replica 1: g4 (3 layers), g5 (1 layer), 6. H = 4096
  // is FlashFlex's llama-7b config (32 heads, which 2 divides).
  Problem p = two_sites();
  p.model.hidden_size = 4096, p.model.vocab_size = 32000;
  const ReplicaPlan plan = {Replica{10, {GroupStage{{0, 1}, 2, 3}, GroupStage{{2}, 1, 1}}},
                            Replica{6, {GroupStage{{4}, 1, 3}, GroupStage{{5}, 1, 1}}}};
  GroupPlan every;
  for (const Replica& r : plan) every.insert(every.end(), r.stages.begin(), r.stages.end());
  const FlashFlexLaunch f = flashflex_replica_launch(p, plan, build_rank_map(p, every));
  ASSERT_TRUE(f.expressible) << (f.cannot.empty() ? "" : f.cannot.front());
  EXPECT_EQ(f.hetero_configs, (std::vector<std::vector<int>>{{2, 1}, {1, 1}}));
  EXPECT_EQ(f.layer_partitions, (std::vector<std::vector<int>>{{3, 1}, {3, 1}}));
  // u = 1, one shard each: 10 x 1 and 6 x 1 samples in 10 and 6 micro-batches.
  EXPECT_EQ(f.global_batch_sizes, (std::vector<std::int64_t>{10, 6}));
  EXPECT_EQ(f.micro_batches, (std::vector<std::int64_t>{10, 6}));
  // FlashFlex's rank order: pipeline 0's stage 1 (g0, g1), stage 2 (g2), then pipeline 1's g4, g5.
  ASSERT_EQ(f.ranks.size(), 5u);
  const std::vector<int> gpus = {f.ranks[0].gpu, f.ranks[1].gpu, f.ranks[2].gpu, f.ranks[3].gpu, f.ranks[4].gpu};
  EXPECT_EQ(gpus, (std::vector<int>{0, 1, 2, 4, 5}));
  EXPECT_EQ(f.ranks[3].pipeline, 1);
  EXPECT_EQ(f.ranks[1].tensor_rank, 1);
  // Local SGD: FlashFlex averages every step.
  p.training.sync_every = 4;
  EXPECT_FALSE(flashflex_replica_launch(p, plan, build_rank_map(p, every)).expressible);
}

TEST(EngineReplicas, LaunchGivesReplicasThatDifferToFlashFlexOnly) {
  Problem p = two_sites();
  p.model.hidden_size = 4096, p.model.vocab_size = 32000;
  const std::string problem_text = problem_to_json(p).dump();
  const std::string plan_text = R"({"replicas": [
      {"micro_batches": 10, "stages": [{"gpus": ["g0", "g1"], "tensor_parallel": 2, "layers": 3},
                                      {"gpus": ["g2"], "tensor_parallel": 1, "layers": 1}]},
      {"micro_batches": 6, "stages": [{"gpus": ["g4"], "tensor_parallel": 1, "layers": 3},
                                     {"gpus": ["g5"], "tensor_parallel": 1, "layers": 1}]}]})";
  const auto bundle = launch_request(problem_text, plan_text, "all");
  for (const char* engine : {"megatron", "torch", "deepspeed"}) {
    EXPECT_FALSE(bundle[engine]["expressible"].get<bool>()) << engine;
    EXPECT_NE(bundle[engine]["cannot"].dump().find("the same share"), std::string::npos) << engine;
  }
  ASSERT_TRUE(bundle["flashflex"]["expressible"].get<bool>()) << bundle["flashflex"].dump();
  EXPECT_EQ(bundle["flashflex"]["global_bsz_size"].dump(), "[10,6]");
  EXPECT_EQ(bundle["flashflex"]["hetero_configs"].dump(), "[[2,1],[1,1]]");
  EXPECT_EQ(bundle["world_size"].get<int>(), 5);
}

}  // namespace
}  // namespace geotrain
