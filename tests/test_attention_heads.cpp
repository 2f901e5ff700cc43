// model.num_attention_heads (issue 24 point 2): a tensor rank holds whole
// heads, so only tensor degrees that divide the head count (and H) are
// planned, validated or launched; a file without the field plans as before.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/planner.hpp"
#include "launch/megatron_args.hpp"
#include "model/input_error.hpp"
#include "model/plan_json.hpp"
#include "model/problem_json.hpp"
#include "search/space/node_shapes.hpp"

namespace geotrain {
namespace {

using json = nlohmann::json;

// The issue's pool: two 3-GPU nodes on one site, LLaMA-7B-like (H = 4096,
// 32 heads), u = 3 so that 3 data shards also divide the micro-batch.
json two_three_gpu_nodes(bool with_heads) {
  json doc = json::parse(R"({
    "name": "two 3-GPU nodes",
    "model": {"hidden_size": 4096, "num_layers": 8, "seq_length": 512, "vocab_size": 32000,
              "micro_batch_size": 3, "global_batch_size": 12, "precision": "bf16"},
    "gpus": [
      {"id": "a0", "site": "A", "node": "n0", "type": "A100-SXM-80GB"},
      {"id": "a1", "site": "A", "node": "n0", "type": "A100-SXM-80GB"},
      {"id": "a2", "site": "A", "node": "n0", "type": "A100-SXM-80GB"},
      {"id": "b0", "site": "A", "node": "n1", "type": "A100-SXM-80GB"},
      {"id": "b1", "site": "A", "node": "n1", "type": "A100-SXM-80GB"},
      {"id": "b2", "site": "A", "node": "n1", "type": "A100-SXM-80GB"}
    ],
    "network": {"default": {"bandwidth_gbps": 10, "latency_ms": 5},
                "intra_node": {"bandwidth_gbps": 2400, "latency_ms": 0.005}},
    "search": {"parallelism": "hybrid", "time_limit_s": 10, "max_generations": 30}
  })");
  if (with_heads) doc["model"]["num_attention_heads"] = 32;
  return doc;
}

Problem problem_of(const json& doc) { return parse_problem(doc).problem; }

std::vector<std::pair<int, int>> shapes_of(const PoolNode& node) {
  std::vector<std::pair<int, int>> out;
  for (const GroupShape& s : node.shapes) out.emplace_back(s.size, s.tensor_parallel);
  return out;
}

std::vector<std::string> problem_errors(const json& doc) {
  try {
    parse_problem(doc);
  } catch (const InputError& e) {
    return e.messages();
  }
  return {};
}

TEST(AttentionHeads, ReadWrittenBackAndCheckedAgainstTheHiddenSize) {
  const Problem p = problem_of(two_three_gpu_nodes(true));
  EXPECT_EQ(p.model.num_attention_heads, 32);
  EXPECT_EQ(problem_to_json(p)["model"]["num_attention_heads"], 32);
  // Without the field nothing is written: old files round-trip as before.
  EXPECT_FALSE(problem_to_json(problem_of(two_three_gpu_nodes(false)))["model"].contains("num_attention_heads"));
  json bad = two_three_gpu_nodes(true);
  bad["model"]["num_attention_heads"] = 3;  // 4096 / 3 is no whole head size
  EXPECT_EQ(problem_errors(bad), std::vector<std::string>{
                                     "model.num_attention_heads: must divide model.hidden_size (4096) into whole "
                                     "heads, got 3"});
  bad["model"]["num_attention_heads"] = 0;
  ASSERT_EQ(problem_errors(bad).size(), 1u);
  EXPECT_EQ(problem_errors(bad)[0].rfind("model.num_attention_heads: ", 0), 0u);
}

TEST(AttentionHeads, TensorDegreeDividesHeadsAndHiddenSizeOnlyWhenGiven) {
  ModelConfig m;
  m.hidden_size = 4096;
  for (int t : {1, 2, 3, 5, 64}) EXPECT_TRUE(m.allows_tensor_parallel(t)) << t;  // no field: as before
  m.num_attention_heads = 32;
  for (int t : {1, 2, 4, 8, 16, 32}) EXPECT_TRUE(m.allows_tensor_parallel(t)) << t;
  for (int t : {3, 5, 6, 64}) EXPECT_FALSE(m.allows_tensor_parallel(t)) << t;
  // 40 heads of 128 (LLaMA-13B-like, H = 5120): 5 divides both, 3 neither.
  m.hidden_size = 5120, m.num_attention_heads = 40;
  EXPECT_TRUE(m.allows_tensor_parallel(5));
  EXPECT_FALSE(m.allows_tensor_parallel(3));
}

TEST(AttentionHeads, NodeShapesKeepOnlyDegreesThatSplitTheHeads) {
  // u = 3: d = s / t in {1, 3}. Without heads a 3-GPU node takes (1, 1),
  // (3, 1) and (3, 3); with 32 heads t = 3 goes, leaving (1, 1) and (3, 1).
  const auto before = pool_nodes(problem_of(two_three_gpu_nodes(false)));
  ASSERT_EQ(before.size(), 2u);
  EXPECT_EQ(shapes_of(before[0]), (std::vector<std::pair<int, int>>{{1, 1}, {3, 1}, {3, 3}}));
  const auto after = pool_nodes(problem_of(two_three_gpu_nodes(true)));
  EXPECT_EQ(shapes_of(after[0]), (std::vector<std::pair<int, int>>{{1, 1}, {3, 1}}));
  // The whole node as one group: t = 3 before, t = 1 (three data shards) with the heads.
  EXPECT_EQ(before[0].shapes[static_cast<std::size_t>(widest_tensor_shape(before[0]))], (GroupShape{3, 3}));
  EXPECT_EQ(after[0].shapes[static_cast<std::size_t>(widest_tensor_shape(after[0]))], (GroupShape{3, 1}));
}

std::vector<int> tensor_degrees(const SolveResult& r) {
  std::vector<int> out;
  for (const Stage& s : r.plan)
    out.push_back(r.layout.empty() ? 1 : r.layout[static_cast<std::size_t>(s.gpu)].tensor_parallel);
  return out;
}

TEST(AttentionHeads, EveryMethodPlansOnlyAllowedDegrees) {
  for (Method method : {Method::memetic, Method::exact, Method::metis, Method::metis_improved, Method::uniform}) {
    SolveOptions options;
    options.method = method;
    const SolveResult with = run_method(prepare_problem(problem_of(two_three_gpu_nodes(true)), options), options);
    ASSERT_FALSE(with.plan.empty()) << method_name(method);
    for (int t : tensor_degrees(with)) EXPECT_EQ(t, 1) << method_name(method);  // 1 is the only degree left
  }
  // Without the field the uniform baseline still makes each node one 3-way group, as before.
  SolveOptions uniform;
  uniform.method = Method::uniform;
  const SolveResult old = run_method(prepare_problem(problem_of(two_three_gpu_nodes(false)), uniform), uniform);
  EXPECT_EQ(tensor_degrees(old), (std::vector<int>{3, 3}));
}

TEST(AttentionHeads, PlanFilesWithADegreeThatSplitsHeadsAreRefused) {
  const Problem p = problem_of(two_three_gpu_nodes(true));
  const json plan = json::parse(R"({"stages": [
      {"gpus": ["a0", "a1", "a2"], "tensor_parallel": 3, "layers": 4},
      {"gpus": ["b0", "b1", "b2"], "tensor_parallel": 1, "layers": 4}]})");
  try {
    parse_group_plan(plan, p);
    FAIL() << "a tensor degree of 3 with 32 heads was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.messages(), std::vector<std::string>{
                                "stages[0].tensor_parallel: must divide model.num_attention_heads (32) and "
                                "model.hidden_size (4096), got 3"});
  }
  // The same plan stands for the file without heads (as before).
  EXPECT_EQ(parse_group_plan(plan, problem_of(two_three_gpu_nodes(false))).size(), 2u);
}

TEST(AttentionHeads, MegatronGetsTheModelsOwnHeadCount) {
  // Two stages of one 3-GPU group each, t = 1, d = 3: Megatron is told the
  // file's 32 heads, and no note says they are assumed.
  const Problem p = problem_of(two_three_gpu_nodes(true));
  const GroupPlan plan = parse_group_plan(json::parse(R"({"stages": [
      {"gpus": ["a0", "a1", "a2"], "layers": 4}, {"gpus": ["b0", "b1", "b2"], "layers": 4}]})"), p);
  const MegatronArguments m = megatron_arguments(p, plan);
  ASSERT_TRUE(m.expressible);
  const auto has = [&](const std::string& flag) {
    return std::any_of(m.arguments.begin(), m.arguments.end(), [&](const auto& a) { return a.first + " " + a.second == flag; });
  };
  EXPECT_TRUE(has("--num-attention-heads 32"));
  for (const std::string& note : m.notes) EXPECT_EQ(note.find("is assumed"), std::string::npos) << note;
  // Without the field: 4096 / 128 = 32 assumed, and said so.
  const Problem old = problem_of(two_three_gpu_nodes(false));
  const MegatronArguments assumed = megatron_arguments(old, parse_group_plan(json::parse(R"({"stages": [
      {"gpus": ["a0", "a1", "a2"], "tensor_parallel": 3, "layers": 8}]})"), old));
  ASSERT_TRUE(assumed.expressible);
  // t = 3 divides neither 32 nor 64 heads: one head per rank, 3, is what the old assumption gives.
  EXPECT_NE(std::find(assumed.arguments.begin(), assumed.arguments.end(),
                      std::pair<std::string, std::string>{"--num-attention-heads", "3"}),
            assumed.arguments.end());
  EXPECT_TRUE(std::any_of(assumed.notes.begin(), assumed.notes.end(),
                          [](const std::string& n) { return n.find("is assumed") != std::string::npos; }));
}

}  // namespace
}  // namespace geotrain
