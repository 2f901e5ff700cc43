// The FlashFlex target (issue 22): stages of different tensor degrees in one
// pipeline, a plan's data shards as parallel pipelines of one stage template
// in FlashFlex's rank order, each rank on the plan's GPU, and what FlashFlex
// cannot run.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/launch_request.hpp"
#include "launch/flashflex_args.hpp"
#include "launch/rank_map.hpp"
#include "launch/torchrun_lines.hpp"
#include "model/plan_json.hpp"
#include "model/problem_json.hpp"

namespace geotrain {
namespace {

using json = nlohmann::json;

// n0 = a0..a3 (host ha), n1 = b0..b3 (host hb); H = 4096 (llama-7b, 32
// heads), L = 8, T = 4096, u = 2, B = 16 (M = 8), fp16.
const char* kPool = R"({
  "name": "flashflex",
  "model": {"hidden_size": 4096, "num_layers": 8, "seq_length": 4096, "vocab_size": 32000,
            "micro_batch_size": 2, "global_batch_size": 16, "precision": "fp16"},
  "gpus": [
    {"id": "a0", "node": "n0", "host": "ha", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
    {"id": "a1", "node": "n0", "host": "ha", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
    {"id": "a2", "node": "n0", "host": "ha", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
    {"id": "a3", "node": "n0", "host": "ha", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
    {"id": "b0", "node": "n1", "host": "hb", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
    {"id": "b1", "node": "n1", "host": "hb", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
    {"id": "b2", "node": "n1", "host": "hb", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
    {"id": "b3", "node": "n1", "host": "hb", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250}
  ],
  "network": {"default": {"bandwidth_gbps": 10, "latency_ms": 1}}
})";

Problem pool() { return parse_problem_text(kPool).problem; }
GroupPlan plan_of(const Problem& problem, const char* text) { return parse_group_plan(json::parse(text), problem); }

std::string argument(const FlashFlexLaunch& f, const std::string& flag) {
  for (const auto& [name, value] : f.arguments)
    if (name == flag) return value.empty() ? "(switch)" : value;
  return "";
}

TEST(LaunchFlashFlex, StagesOfDifferentTensorDegreesAreOnePipeline) {
  // Stage 1: n0 as one 4-way group, 5 layers; stage 2: b2, b3 as a 2-way
  // group, 3 layers. One shard each: one pipeline, hetero config [4, 2].
  const Problem p = pool();
  const GroupPlan plan = plan_of(p, R"({"stages": [
      {"gpus": ["a0", "a1", "a2", "a3"], "tensor_parallel": 4, "layers": 5},
      {"gpus": ["b2", "b3"], "tensor_parallel": 2, "layers": 3}]})");
  const FlashFlexLaunch f = flashflex_launch(p, plan, build_rank_map(p, plan));
  ASSERT_TRUE(f.expressible);
  EXPECT_EQ(python_list(f.hetero_configs), "[[4, 2]]");
  EXPECT_EQ(python_list(f.layer_partitions), "[[5, 3]]");
  EXPECT_EQ(f.global_batch_sizes, (std::vector<std::int64_t>{16}));
  EXPECT_EQ(f.micro_batches, (std::vector<std::int64_t>{8}));
  EXPECT_EQ(argument(f, "--model_size"), "llama-7b");
  EXPECT_EQ(argument(f, "--mixed_precision"), "fp16");
  EXPECT_EQ(argument(f, "--fp16"), "(switch)");
  EXPECT_EQ(argument(f, "--total-layer-num"), "8");
  // Ranks 0-3 on ha's devices 0-3, ranks 4-5 on hb's devices 2 and 3.
  ASSERT_EQ(f.ranks.size(), 6u);
  EXPECT_EQ(f.ranks[4].host, "hb");
  EXPECT_EQ(f.ranks[4].device, 2);
  EXPECT_EQ(f.ranks[5].tensor_rank, 1);
  EXPECT_EQ(f.devices_id, (std::vector<std::vector<std::vector<int>>>{{{0, 0, 0, 0}, {1, 1}}}));
  const std::string script = flashflex_script(f, kRendezvousPort);
  for (const char* text : {"MASTER_ADDR=ha MASTER_PORT=29500 WORLD_SIZE=6 RANK=$1 CUDA_VISIBLE_DEVICES=$2 python3 "
                           "llama_train.py",
                           "--hetero_configs '[[4, 2]]'", "--global_bsz_size 16 \\", "  1)  # host hb (node n1)\n"
                           "    rank 4 2  # pipeline 0, stage 2, tensor rank 0\n    rank 5 3"})
    EXPECT_NE(script.find(text), std::string::npos) << text << "\n" << script;
}

TEST(LaunchFlashFlex, DataShardsArePipelinesOfOneStageTemplate) {
  // Both stages have d = 2 shards (t = 2 on n0, t = 1 on n1): two pipelines,
  // [2, 1] each; pipeline j's stage 1 is shard j of n0's group, so pipeline 0
  // = a0 a1 -> b0 and pipeline 1 = a2 a3 -> b1, each taking 8 samples.
  const Problem p = pool();
  const GroupPlan plan = plan_of(p, R"({"stages": [
      {"gpus": ["a0", "a1", "a2", "a3"], "tensor_parallel": 2, "layers": 4},
      {"gpus": ["b0", "b1"], "tensor_parallel": 1, "layers": 4}]})");
  const FlashFlexLaunch f = flashflex_launch(p, plan, build_rank_map(p, plan));
  ASSERT_TRUE(f.expressible);
  EXPECT_EQ(python_list(f.hetero_configs), "[[2, 1], [2, 1]]");
  EXPECT_EQ(f.global_batch_sizes, (std::vector<std::int64_t>{8, 8}));
  EXPECT_EQ(f.micro_batches, (std::vector<std::int64_t>{8, 8}));
  std::vector<std::string> order;
  for (const FlashFlexRank& r : f.ranks) order.push_back(p.gpus[static_cast<std::size_t>(r.gpu)].id);
  EXPECT_EQ(order, (std::vector<std::string>{"a0", "a1", "b0", "a2", "a3", "b1"}));
}

TEST(LaunchFlashFlex, WhatItCannotRunIsRefusedWithTheNearestPlan) {
  const Problem p = pool();
  // Different shard counts: a GPU serves one FlashFlex pipeline.
  const char* mixed = R"({"stages": [{"gpus": ["a0", "a1"], "tensor_parallel": 1, "layers": 4},
                                     {"gpus": ["b0", "b1", "b2", "b3"], "tensor_parallel": 4, "layers": 4}]})";
  const auto bundle = launch_request(kPool, mixed, "flashflex");
  const json& part = bundle["flashflex"];
  EXPECT_FALSE(part["expressible"].get<bool>());
  EXPECT_EQ(part["cannot"][0].get<std::string>().rfind("cannot express because stage 1 has data_parallel 2, stage 2 "
                                                         "has 1: FlashFlex runs one pipeline per data shard",
                                                         0),
            0u);
  // Nearest: one shard per stage, each keeping its tensor degree.
  EXPECT_EQ(part["nearest_plan"]["stages"].dump(),
            R"([{"gpu":"a0","layers":4},{"gpus":["b0","b1","b2","b3"],"layers":4,"tensor_parallel":4}])");
  EXPECT_TRUE(part["nearest_plan"]["runs"].get<bool>());
  EXPECT_EQ(part["versions"]["checked_against"][0], "5ee1726 (2025-03-13)");
  // H = 6656 is llama-30b's (52 heads): t = 8 does not divide them.
  Problem thirty = p;
  thirty.model.hidden_size = 6656;
  const GroupPlan eight = plan_of(thirty, R"({"stages": [{"gpus": ["a0", "a1", "a2", "a3", "b0", "b1", "b2", "b3"],
      "tensor_parallel": 8, "layers": 8}]})");
  EXPECT_FALSE(flashflex_launch(thirty, eight, build_rank_map(thirty, eight)).expressible);
}

TEST(LaunchFlashFlex, OtherSequenceLengthsAreNoted) {
  // FlashFlex's update_args fixes seq_length at 4096.
  Problem p = pool();
  p.model.seq_length = 1024;
  const GroupPlan plan = plan_of(p, R"({"stages": [{"gpu": "a0", "layers": 8}]})");
  const FlashFlexLaunch f = flashflex_launch(p, plan, build_rank_map(p, plan));
  bool noted = false;
  for (const std::string& n : f.notes) noted = noted || n.find("sequence length 4096") != std::string::npos;
  EXPECT_TRUE(noted);
}

}  // namespace
}  // namespace geotrain
