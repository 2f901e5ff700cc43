// Launch bundles (issue 12): rank maps and torchrun lines for hand-built plans,
// every expected value worked out by hand from the rule in rank_map.hpp:
// stage q's ranks follow those of stages 1..q-1; inside a stage a GPU's rank
// follows its position p in `gpus`, tensor rank = p % t, data rank = p / t
// (Megatron-Core's tp-dp-pp order: rank = tensor + data * t + stage * t * d).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "launch/rank_map.hpp"
#include "launch/torchrun_lines.hpp"
#include "model/input_error.hpp"
#include "model/plan_json.hpp"
#include "model/problem_json.hpp"

namespace geotrain {
namespace {

using json = nlohmann::json;

// Nodes n0 = a0..a3 and n1 = b0..b3 on site A, n2 = c0, c1 on site B, and x
// (site B) without a node: a machine of its own. L = 12, u = 4, B = 16.
json launch_doc() {
  json doc = json::parse(R"({
    "name": "launch pool",
    "model": {"hidden_size": 1024, "num_layers": 12, "seq_length": 512, "vocab_size": 1000,
              "micro_batch_size": 4, "global_batch_size": 16},
    "gpus": [],
    "network": {"default": {"bandwidth_gbps": 10, "latency_ms": 1}}
  })");
  auto add = [&](const char* id, const char* site, const char* node) {
    json g = {{"id", id}, {"site", site}, {"peak_tflops", 100}, {"memory_gib", 80}, {"idle_w", 50}, {"active_w", 250}};
    if (node) g["node"] = node;
    doc["gpus"].push_back(g);
  };
  for (const char* id : {"a0", "a1", "a2", "a3"}) add(id, "A", "n0");
  for (const char* id : {"b0", "b1", "b2", "b3"}) add(id, "A", "n1");
  add("c0", "B", "n2");
  add("c1", "B", "n2");
  add("x", "B", nullptr);
  return doc;
}

struct Built {
  Problem problem;
  RankMap map;
};

Built build(const json& doc, const char* plan_text) {
  Built b{parse_problem(doc).problem, {}};
  b.map = build_rank_map(b.problem, parse_group_plan(json::parse(plan_text), b.problem));
  return b;
}

// "gpu:stage/tensor/data@node#device" per rank, in rank order: one string to compare.
std::string describe(const Built& b) {
  std::string out;
  for (const RankEntry& e : b.map.ranks)
    out += (out.empty() ? "" : " ") + b.problem.gpus[e.gpu].id + ":" + std::to_string(e.stage) + "/" +
           std::to_string(e.tensor_rank) + "/" + std::to_string(e.data_rank) + "@" + e.node + "#" +
           std::to_string(e.device);
  return out;
}

TEST(LaunchRankMap, PipelineOnlyRanksFollowStagesAndDevicesFollowFileOrder) {
  // Stages c1, a2, x: ranks 0, 1, 2. c1 is n2's second GPU in file order
  // (c0, c1) -> device 1; a2 is n0's third (a0, a1, a2) -> device 2; x is a
  // node of its own -> device 0.
  const Built b = build(launch_doc(), R"({"stages": [{"gpu": "c1", "layers": 3}, {"gpu": "a2", "layers": 4},
                                                     {"gpu": "x", "layers": 5}]})");
  EXPECT_EQ(describe(b), "c1:0/0/0@n2#1 a2:1/0/0@n0#2 x:2/0/0@x#0");
  // Every rank on a different node: three torchrun agents of one process each.
  ASSERT_EQ(b.map.launch_groups.size(), 3u);
  const auto lines = torchrun_lines(b.map, "train.py");
  EXPECT_EQ(lines[0].command,
            "CUDA_VISIBLE_DEVICES=1 torchrun --nnodes=3 --node-rank=0 --nproc-per-node=1 --master-addr=n2 "
            "--master-port=29500 train.py");
  EXPECT_EQ(lines[1].command,
            "CUDA_VISIBLE_DEVICES=2 torchrun --nnodes=3 --node-rank=1 --nproc-per-node=1 --master-addr=n2 "
            "--master-port=29500 train.py");
  EXPECT_EQ(lines[2].command,
            "CUDA_VISIBLE_DEVICES=0 torchrun --nnodes=3 --node-rank=2 --nproc-per-node=1 --master-addr=n2 "
            "--master-port=29500 train.py");
  // Nothing in the file says where x lives, nor any device or host: all three said.
  ASSERT_EQ(b.map.assumptions.size(), 3u);
  EXPECT_NE(b.map.assumptions[0].find("No gpus[].node for x"), std::string::npos);
  EXPECT_NE(b.map.assumptions[1].find("No gpus[].device for c1, a2, x"), std::string::npos);
  EXPECT_NE(b.map.assumptions[2].find("No gpus[].host for node(s) n0, n2, x"), std::string::npos);
}

TEST(LaunchRankMap, TensorGroupsTakeConsecutiveRanksOnOneNode) {
  // Two stages of t = 4, d = 1: stage 0 ranks 0..3 = a0..a3 (tensor 0..3),
  // stage 1 ranks 4..7 = b0..b3. One agent per node, four processes, devices 0..3.
  const Built b = build(launch_doc(), R"({"stages": [
      {"gpus": ["a0", "a1", "a2", "a3"], "tensor_parallel": 4, "layers": 6},
      {"gpus": ["b0", "b1", "b2", "b3"], "tensor_parallel": 4, "layers": 6}]})");
  EXPECT_EQ(describe(b),
            "a0:0/0/0@n0#0 a1:0/1/0@n0#1 a2:0/2/0@n0#2 a3:0/3/0@n0#3 "
            "b0:1/0/0@n1#0 b1:1/1/0@n1#1 b2:1/2/0@n1#2 b3:1/3/0@n1#3");
  const auto lines = torchrun_lines(b.map, "train.py");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1].command,
            "CUDA_VISIBLE_DEVICES=0,1,2,3 torchrun --nnodes=2 --node-rank=1 --nproc-per-node=4 --master-addr=n0 "
            "--master-port=29500 train.py");
  EXPECT_EQ(lines[1].first_rank, 4);
  EXPECT_EQ(lines[1].last_rank, 7);
}

TEST(LaunchRankMap, DataShardsOrderDevicesAsThePlanListsThem) {
  // Stage 0: gpus [a3, a1, a0, a2], t = 2 -> shard 0 = (a3, a1), shard 1 = (a0, a2).
  // Ranks 0..3: a3 (t0 d0), a1 (t1 d0), a0 (t0 d1), a2 (t1 d1); Megatron's
  // rank = tensor + data * 2: a0 = 0 + 1 * 2 = 2. Devices in LOCAL_RANK order:
  // a3 = 3, a1 = 1, a0 = 0, a2 = 2, so CUDA_VISIBLE_DEVICES=3,1,0,2.
  const Built b = build(launch_doc(), R"({"stages": [
      {"gpus": ["a3", "a1", "a0", "a2"], "tensor_parallel": 2, "layers": 5},
      {"gpus": ["b0", "b1", "b2", "b3"], "tensor_parallel": 2, "layers": 7}]})");
  EXPECT_EQ(describe(b),
            "a3:0/0/0@n0#3 a1:0/1/0@n0#1 a0:0/0/1@n0#0 a2:0/1/1@n0#2 "
            "b0:1/0/0@n1#0 b1:1/1/0@n1#1 b2:1/0/1@n1#2 b3:1/1/1@n1#3");
  EXPECT_EQ(b.map.launch_groups[0].devices, (std::vector<int>{3, 1, 0, 2}));
  EXPECT_EQ(b.map.ranks[6].local_rank, 2);  // b2: third process of node n1's agent
}

TEST(LaunchRankMap, MixedGroupsAndANodeThatReturnsGetOneAgentPerRunOfRanks) {
  // Stage 0: a0..a3, t = 2, d = 2 -> ranks 0..3; stage 1: c0, c1, t = 2, d = 1
  // -> ranks 4, 5; stage 2: x -> rank 6; stage 3: b0 -> rank 7. Four nodes in
  // rank order, so four agents (n0, n2, x, n1), n2's starting at rank 4.
  const Built b = build(launch_doc(), R"({"stages": [
      {"gpus": ["a0", "a1", "a2", "a3"], "tensor_parallel": 2, "layers": 3},
      {"gpus": ["c0", "c1"], "tensor_parallel": 2, "layers": 3},
      {"gpu": "x", "layers": 3}, {"gpu": "b0", "layers": 3}]})");
  EXPECT_EQ(describe(b),
            "a0:0/0/0@n0#0 a1:0/1/0@n0#1 a2:0/0/1@n0#2 a3:0/1/1@n0#3 "
            "c0:1/0/0@n2#0 c1:1/1/0@n2#1 x:2/0/0@x#0 b0:3/0/0@n1#0");
  ASSERT_EQ(b.map.launch_groups.size(), 4u);
  EXPECT_EQ(b.map.launch_groups[1].first_rank, 4);
  EXPECT_EQ(b.map.launch_groups[3].node, "n1");

  // n0 holds stages 0 and 2, n2 stage 1: torchrun numbers ranks agent by
  // agent, so n0 runs two agents (node ranks 0 and 2), ranks 0 and 2.
  const Built back = build(launch_doc(), R"({"stages": [{"gpu": "a1", "layers": 4}, {"gpu": "c0", "layers": 4},
                                                        {"gpu": "a0", "layers": 4}]})");
  ASSERT_EQ(back.map.launch_groups.size(), 3u);
  EXPECT_EQ(back.map.launch_groups[2].node, "n0");
  EXPECT_EQ(back.map.launch_groups[2].first_rank, 2);
  EXPECT_EQ(back.map.launch_groups[2].devices, (std::vector<int>{0}));
  EXPECT_EQ(back.map.ranks[0].device, 1);  // a1: n0's second GPU
}

TEST(LaunchRankMap, HostsAndDevicesFromTheFileWin) {
  json doc = launch_doc();
  for (int i = 0; i < 4; ++i) {
    doc["gpus"][i]["host"] = "10.0.0.1";
    doc["gpus"][i]["device"] = 7 - i;  // a0 on cuda:7 ... a3 on cuda:4
  }
  const Built b = build(doc, R"({"stages": [{"gpus": ["a0", "a1"], "layers": 6}, {"gpu": "x", "layers": 6}]})");
  EXPECT_EQ(describe(b), "a0:0/0/0@n0#7 a1:0/0/1@n0#6 x:1/0/0@x#0");
  EXPECT_EQ(b.map.ranks[0].host, "10.0.0.1");
  EXPECT_EQ(torchrun_lines(b.map, "t.py")[1].command.find("--master-addr=10.0.0.1") != std::string::npos, true);
  // Only x is left to assumptions (its node and its device; its host).
  ASSERT_EQ(b.map.assumptions.size(), 3u);
  EXPECT_NE(b.map.assumptions[1].find("No gpus[].device for x:"), std::string::npos);
}

TEST(LaunchRankMap, ContradictoryHostsOrDevicesAreRefusedNamingTheField) {
  json doc = launch_doc();
  doc["gpus"][0]["host"] = "h1";
  doc["gpus"][1]["host"] = "h2";
  doc["gpus"][5]["device"] = 0;  // b1 on cuda:0, but b0 is cuda:0 by file order
  const Problem problem = parse_problem(doc).problem;
  const GroupPlan plan = parse_group_plan(json::parse(R"({"stages": [{"gpu": "a0", "layers": 12}]})"), problem);
  try {
    build_rank_map(problem, plan);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    ASSERT_EQ(e.messages().size(), 2u);
    EXPECT_EQ(e.messages()[0].rfind("gpus[1].host: node \"n0\" is host \"h1\" (gpus[0].host)", 0), 0u);
    EXPECT_EQ(e.messages()[1].rfind("gpus[5].device: node \"n1\" already has device 0 (b0)", 0), 0u);
  }
}

TEST(LaunchRankMap, ProblemFilesReadAndWriteHostAndDevice) {
  json doc = launch_doc();
  doc["gpus"][0]["host"] = "gpu-box-1";
  doc["gpus"][0]["device"] = 3;
  const Problem problem = parse_problem(doc).problem;
  EXPECT_EQ(problem.gpus[0].host, "gpu-box-1");
  EXPECT_EQ(problem.gpus[0].device, 3);
  EXPECT_EQ(problem.gpus[1].device, -1);  // not given
  const json written = problem_to_json(problem);
  EXPECT_EQ(written["gpus"][0]["host"], "gpu-box-1");
  EXPECT_EQ(written["gpus"][0]["device"], 3);
  EXPECT_FALSE(written["gpus"][1].contains("device"));
  doc["gpus"][1]["device"] = -1;
  doc["gpus"][2]["host"] = "";
  try {
    parse_problem(doc);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    ASSERT_EQ(e.messages().size(), 2u);
    EXPECT_EQ(e.messages()[0], "gpus[1].device: must be in [0, 1023], got -1");
    EXPECT_EQ(e.messages()[1], "gpus[2].host: must not be empty (leave it out when unknown)");
  }
}

TEST(LaunchRankMap, ShellWordsQuoteWhatTheShellWouldChange) {
  EXPECT_EQ(shell_word("10.0.0.1"), "10.0.0.1");
  EXPECT_EQ(shell_word("node one"), "'node one'");
  EXPECT_EQ(shell_word("it's;rm"), "'it'\\''s;rm'");
}

}  // namespace
}  // namespace geotrain
