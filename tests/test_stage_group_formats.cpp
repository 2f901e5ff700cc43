// Stage-group formats (stage-groups.md): gpus[].node, network.intra_node and
// its place in the link precedence, search.parallelism, and group plans with
// every rule a group must meet, each refused with a message naming the field.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "api/api.hpp"
#include "model/input_error.hpp"
#include "model/network.hpp"
#include "model/plan_json.hpp"
#include "model/problem_json.hpp"
#include "problem_doc.hpp"

namespace geotrain {
namespace {

using json = nlohmann::json;

// Two 2-GPU nodes on site A, one GPU on site B; u = 4 so 1, 2 and 4 shards divide it.
json grouped_doc() {
  return json::parse(R"({
    "name": "grouped",
    "model": {"hidden_size": 1000, "num_layers": 4, "seq_length": 1000, "vocab_size": 1000,
              "micro_batch_size": 4, "global_batch_size": 8},
    "gpus": [
      {"id": "a0", "site": "A", "node": "n0", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
      {"id": "a1", "site": "A", "node": "n0", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
      {"id": "a2", "site": "A", "node": "n1", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
      {"id": "a3", "site": "A", "node": "n1", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
      {"id": "b0", "site": "B", "peak_tflops": 50, "memory_gib": 80, "idle_w": 10, "active_w": 60}
    ],
    "network": {"default": {"bandwidth_gbps": 10, "latency_ms": 1},
                "intra_node": {"bandwidth_gbps": 800, "latency_ms": 0.001},
                "intra_site": {"bandwidth_gbps": 100, "latency_ms": 0.01}},
    "search": {"parallelism": "hybrid"}
  })");
}

std::vector<std::string> plan_errors(const std::string& plan) {
  try {
    parse_group_plan(json::parse(plan), parse_problem(grouped_doc()).problem);
  } catch (const InputError& e) {
    return e.messages();
  }
  return {};
}

TEST(StageGroupFormats, ReadsNodesIntraNodeAndParallelism) {
  const Problem p = parse_problem(grouped_doc()).problem;
  EXPECT_EQ(p.gpus[0].node_name(), "n0");
  EXPECT_EQ(p.gpus[4].node_name(), "b0");  // no node: a node of its own, named by its id
  ASSERT_TRUE(p.network.intra_node);
  EXPECT_EQ(p.network.intra_node->bandwidth_gbps, 800);
  EXPECT_EQ(p.search.parallelism, Parallelism::hybrid);
  EXPECT_EQ(parse_problem(testing::base_doc()).problem.search.parallelism, Parallelism::pipeline);
}

TEST(StageGroupFormats, IntraNodeComesRightAfterPerGpuLinks) {
  json doc = grouped_doc();
  doc["network"]["links"] = json::parse(R"([{"from": "a0", "to": "a1", "bandwidth_gbps": 5, "latency_ms": 2}])");
  doc["network"]["site_links"] = json::parse(R"([{"from": "A", "to": "A", "bandwidth_gbps": 40, "latency_ms": 0.5}])");
  const Problem p = parse_problem(doc).problem;
  const auto links = resolve_links(p.network, p.gpus);
  const std::size_t n = p.gpus.size();
  EXPECT_EQ(links[0 * n + 1]->source, LinkSource::gpu_link);    // a0 -> a1: the explicit link wins
  EXPECT_EQ(links[1 * n + 0]->source, LinkSource::intra_node);  // a1 -> a0: same node, over site_links
  EXPECT_EQ(links[1 * n + 0]->link.bandwidth_gbps, 800);
  EXPECT_EQ(links[0 * n + 2]->source, LinkSource::site_link);   // a0 -> a2: another node of site A
  EXPECT_EQ(links[0 * n + 4]->source, LinkSource::default_link);
}

TEST(StageGroupFormats, NodeSpanningTwoSitesIsRefused) {
  json doc = grouped_doc();
  doc["gpus"][4]["node"] = "n0";
  const auto errors = testing::errors_of(doc);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "gpus[4].site: node \"n0\" is on site \"A\" (gpus[0]); every GPU of a node must share its site, got \"B\"");
  EXPECT_NE(errors[0].find("must share its site"), std::string::npos) << errors[0];
}

TEST(StageGroupFormats, BadParallelismAndIntraNodeAreNamed) {
  json doc = grouped_doc();
  doc["search"]["parallelism"] = "tensor";
  EXPECT_ERROR(doc, "search.parallelism: must be \"pipeline\" or \"hybrid\", got \"tensor\"");
  doc = grouped_doc();
  doc["network"]["intra_node"]["bandwidth_gbps"] = 0;
  const auto errors = testing::errors_of(doc);
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(errors[0].rfind("network.intra_node.bandwidth_gbps", 0), 0u) << errors[0];
  doc = grouped_doc();
  doc["gpus"][0]["node"] = "";
  EXPECT_ERROR(doc, "gpus[0].node: must not be empty (leave it out for a node of its own)");
}

TEST(StageGroupFormats, ReadsAGroupPlan) {
  const GroupPlan plan = parse_group_plan(
      json::parse(R"({"stages": [{"gpus": ["a0", "a1", "a2", "a3"], "tensor_parallel": 2, "layers": 3},
                                 {"gpu": "b0", "layers": 1}]})"),
      parse_problem(grouped_doc()).problem);
  ASSERT_EQ(plan.size(), 2u);
  EXPECT_EQ(plan[0].gpus, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(plan[0].tensor_parallel, 2);
  EXPECT_EQ(plan[0].data_parallel(), 2);
  EXPECT_EQ(plan[0].layers, 3);
  EXPECT_TRUE(plan[1].single());
  EXPECT_FALSE(is_pipeline(plan));
}

TEST(StageGroupFormats, GroupOfOneIsTheSameAsGpu) {
  const Problem p = parse_problem(grouped_doc()).problem;
  const GroupPlan a = parse_group_plan(json::parse(R"({"stages": [{"gpus": ["a0"], "layers": 4}]})"), p);
  const GroupPlan b = parse_group_plan(json::parse(R"({"stages": [{"gpu": "a0", "layers": 4}]})"), p);
  EXPECT_TRUE(is_pipeline(a));
  EXPECT_EQ(a[0].gpus, b[0].gpus);
  // And it prints as before stage groups.
  EXPECT_EQ(plan_to_json(a, p), json::parse(R"({"stages": [{"gpu": "a0", "layers": 4}]})"));
}

TEST(StageGroupFormats, GroupSpanningSitesIsRefused) {
  EXPECT_EQ(plan_errors(R"({"stages": [{"gpus": ["a0", "b0"], "layers": 4}]})"),
            std::vector<std::string>{"stages[0].gpus: a group stays on one site: \"b0\" is on site \"B\", \"a0\" on \"A\""});
}

TEST(StageGroupFormats, GpuUsedTwiceAcrossOrWithinGroups) {
  EXPECT_EQ(plan_errors(R"({"stages": [{"gpus": ["a0", "a1"], "layers": 2}, {"gpus": ["a1", "a2"], "layers": 2}]})"),
            std::vector<std::string>{
                "stages[1].gpus[0]: GPU \"a1\" already holds stages[0]; each GPU serves at most one stage"});
  EXPECT_EQ(plan_errors(R"({"stages": [{"gpus": ["a0", "a0"], "layers": 4}]})"),
            std::vector<std::string>{
                "stages[0].gpus[1]: GPU \"a0\" already holds stages[0]; each GPU serves at most one stage"});
}

TEST(StageGroupFormats, TensorDegreeMustDivideTheGroup) {
  EXPECT_EQ(plan_errors(R"({"stages": [{"gpus": ["a0", "a1", "a2"], "tensor_parallel": 2, "layers": 4}]})"),
            std::vector<std::string>{"stages[0].tensor_parallel: must divide the group's 3 GPUs, got 2"});
  EXPECT_EQ(plan_errors(R"({"stages": [{"gpu": "a0", "tensor_parallel": 2, "layers": 4}]})"),
            std::vector<std::string>{"stages[0].tensor_parallel: must divide the group's 1 GPU, got 2"});
}

TEST(StageGroupFormats, DataShardsMustDivideTheMicroBatch) {
  // Three shards of one GPU each cannot split u = 4 samples evenly.
  EXPECT_EQ(plan_errors(R"({"stages": [{"gpus": ["a0", "a1", "a2"], "layers": 4}]})"),
            std::vector<std::string>{
                "stages[0].gpus: 3 data shards (3 GPUs / tensor_parallel 1) must divide model.micro_batch_size (4)"});
}

TEST(StageGroupFormats, EmptyAmbiguousAndOversizedGroups) {
  EXPECT_EQ(plan_errors(R"({"stages": [{"gpus": [], "layers": 4}]})"),
            std::vector<std::string>{"stages[0].gpus: must list at least one GPU"});
  EXPECT_EQ(plan_errors(R"({"stages": [{"gpu": "a0", "gpus": ["a1"], "layers": 4}]})"),
            std::vector<std::string>{"stages[0]: give either `gpu` (one GPU) or `gpus` (a group), not both"});
  EXPECT_EQ(plan_errors(R"({"stages": [{"gpus": ["a0", 7], "layers": 4}]})"),
            std::vector<std::string>{"stages[0].gpus[1]: must be a GPU id (a string), got 7"});
  EXPECT_EQ(plan_errors(R"({"stages": [{"gpus": ["a0", "a1"], "tensor_parallel": 0, "layers": 4}]})").size(), 1u);
}

TEST(StageGroupFormats, EvaluatePrintsGroupsAndSolvePrintsThemBack) {
  const std::string problem = grouped_doc().dump();
  const auto out = evaluate_request(
      problem, R"({"stages": [{"gpus": ["a0", "a1", "a2", "a3"], "tensor_parallel": 2, "layers": 3},
                              {"gpu": "b0", "layers": 1}]})");
  EXPECT_EQ(out["gpus_used"], 5);
  EXPECT_EQ(out["stage_count"], 2);
  const auto& s0 = out["stages"][0];
  EXPECT_EQ(s0["gpus"].dump(), R"(["a0","a1","a2","a3"])");
  EXPECT_EQ(s0["tensor_parallel"], 2);
  EXPECT_EQ(s0["data_parallel"], 2);
  EXPECT_GT(s0["tensor_parallel_ms"].get<double>(), 0);
  EXPECT_GT(s0["data_parallel_sync_ms"].get<double>(), 0);
  EXPECT_GT(out["data_parallel_sync_ms"].get<double>(), 0);

  // A hybrid solve's plan is a plan file evaluate reads back to the same figures.
  const auto solved = solve_request(problem, parse_solve_options(json::parse(R"({"method": "memetic"})")));
  EXPECT_EQ(solved["parallelism"], "hybrid");
  const auto again = evaluate_request(problem, "{\"stages\": " + solved["stages"].dump() + "}");
  EXPECT_DOUBLE_EQ(again["iteration_ms"].get<double>(), solved["iteration_ms"].get<double>());
  EXPECT_DOUBLE_EQ(again["energy_j"].get<double>(), solved["energy_j"].get<double>());
  EXPECT_DOUBLE_EQ(again["objective"].get<double>(), solved["objective"].get<double>());
  EXPECT_EQ(again["gpus_used"], solved["gpus_used"]);
}

}  // namespace
}  // namespace geotrain

namespace geotrain {
namespace {

TEST(StageGroupFormats, SolveOptionsOverrideParallelism) {
  EXPECT_EQ(parse_solve_options(json::parse(R"({"parallelism": "hybrid"})")).parallelism,
            std::optional<Parallelism>(Parallelism::hybrid));
  EXPECT_FALSE(parse_solve_options(json::parse("{}")).parallelism);
  try {
    parse_solve_options(json::parse(R"({"parallelism": "tensor"})"));
    FAIL() << "accepted a bad parallelism";
  } catch (const InputError& e) {
    EXPECT_EQ(e.messages(), std::vector<std::string>{"options.parallelism: must be \"pipeline\" or \"hybrid\", got \"tensor\""});
  }
  // The override turns a pipeline problem file into a hybrid search.
  json doc = grouped_doc();
  doc["search"].erase("parallelism");
  const auto solved = solve_request(doc.dump(), parse_solve_options(json::parse(R"({"parallelism": "hybrid"})")));
  EXPECT_EQ(solved["parallelism"], "hybrid");
}

}  // namespace
}  // namespace geotrain
