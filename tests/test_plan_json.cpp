// Plan files: {"stages": [{"gpu": id, "layers": n}, ...]}, first stage first.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "api/api.hpp"
#include "model/input_error.hpp"
#include "model/plan_json.hpp"
#include "model/problem_json.hpp"
#include "problem_doc.hpp"

namespace geotrain {
namespace {

using json = nlohmann::json;

// Three GPUs, L = 4: the shared hand pool.
Problem three_gpus() { return parse_problem(testing::hand_problem()).problem; }

std::vector<std::string> plan_errors(const std::string& text) {
  try {
    parse_plan(json::parse(text), three_gpus());
  } catch (const InputError& e) {
    return e.messages();
  }
  return {};
}

TEST(PlanJson, ReadsStagesInOrder) {
  const Plan plan = parse_plan(json::parse(R"({"stages": [{"gpu": "g2", "layers": 1}, {"gpu": "g0", "layers": 3}]})"),
                               three_gpus());
  ASSERT_EQ(plan.size(), 2u);
  EXPECT_EQ(plan[0].gpu, 2);
  EXPECT_EQ(plan[0].layers, 1);
  EXPECT_EQ(plan[1].gpu, 0);
  EXPECT_EQ(plan[1].layers, 3);
}

TEST(PlanJson, WritesWhatItReads) {
  const Problem problem = three_gpus();
  const Plan plan = {{1, 2}, {0, 1}, {2, 1}};
  const json written = plan_to_json(plan, problem);
  EXPECT_EQ(written, json::parse(R"({"stages": [{"gpu": "g1", "layers": 2}, {"gpu": "g0", "layers": 1},
                                                {"gpu": "g2", "layers": 1}]})"));
  const Plan back = parse_plan(written, problem);
  ASSERT_EQ(back.size(), 3u);
  for (int q = 0; q < 3; ++q) {
    EXPECT_EQ(back[q].gpu, plan[q].gpu);
    EXPECT_EQ(back[q].layers, plan[q].layers);
  }
}

TEST(PlanJson, UnknownGpuId) {
  EXPECT_EQ(plan_errors(R"({"stages": [{"gpu": "g9", "layers": 4}]})"),
            std::vector<std::string>{"stages[0].gpu: unknown GPU id \"g9\""});
}

TEST(PlanJson, GpuUsedTwice) {
  EXPECT_EQ(plan_errors(R"({"stages": [{"gpu": "g1", "layers": 2}, {"gpu": "g1", "layers": 2}]})"),
            std::vector<std::string>{
                "stages[1].gpu: GPU \"g1\" already holds stages[0]; each GPU serves at most one stage"});
}

TEST(PlanJson, LayersMustBeAtLeastOne) {
  EXPECT_EQ(plan_errors(R"({"stages": [{"gpu": "g0", "layers": 0}, {"gpu": "g1", "layers": 4}]})"),
            std::vector<std::string>{"stages[0].layers: must be in [1, 4], got 0"});
  EXPECT_EQ(plan_errors(R"({"stages": [{"gpu": "g0", "layers": 1.5}, {"gpu": "g1", "layers": 2.5}]})"),
            (std::vector<std::string>{"stages[0].layers: must be an integer, got 1.5",
                                      "stages[1].layers: must be an integer, got 2.5"}));
}

TEST(PlanJson, LayersMustSumToL) {
  EXPECT_EQ(plan_errors(R"({"stages": [{"gpu": "g0", "layers": 1}, {"gpu": "g1", "layers": 2}]})"),
            std::vector<std::string>{"stages: layers sum to 3, must equal model.num_layers (4)"});
  EXPECT_EQ(plan_errors(R"({"stages": [{"gpu": "g0", "layers": 3}, {"gpu": "g1", "layers": 2}]})"),
            std::vector<std::string>{"stages: layers sum to 5, must equal model.num_layers (4)"});
}

TEST(PlanJson, MustBeAnObjectWithStages) {
  EXPECT_EQ(plan_errors(R"([{"gpu": "g0", "layers": 4}])"),
            std::vector<std::string>{"plan: must be an object with a `stages` array"});
  EXPECT_EQ(plan_errors("null"), std::vector<std::string>{"plan: must be an object with a `stages` array"});
  EXPECT_EQ(plan_errors("{}"), std::vector<std::string>{"stages: required"});
  EXPECT_EQ(plan_errors(R"({"stages": {"gpu": "g0"}})"),
            std::vector<std::string>{"stages: must be an array, got an object"});
  EXPECT_EQ(plan_errors(R"({"stages": ["g0"]})"),
            std::vector<std::string>{"stages[0]: must be an object {\"gpu\": id, \"layers\": n} or {\"gpus\": [ids], "
                                     "\"tensor_parallel\": t, \"layers\": n}"});
}

TEST(PlanJson, StagesMustNotBeEmpty) {
  EXPECT_EQ(plan_errors(R"({"stages": []})"), std::vector<std::string>{"stages: must hold at least one stage"});
}

TEST(PlanJson, EveryFaultIsListed) {
  const auto errors = plan_errors(R"({"stages": [{"gpu": "g7", "layers": 1}, {"layers": 1}, {"gpu": 3}]})");
  EXPECT_EQ(errors, (std::vector<std::string>{"stages[0].gpu: unknown GPU id \"g7\"", "stages[1].gpu: required",
                                               "stages[2].gpu: must be a string, got a number 3",
                                               "stages[2].layers: required"}));
}

TEST(PlanJson, TheOutputOfSolveIsAPlan) {
  // solve's JSON carries many more fields (method, iteration_ms, stage_metrics...);
  // parse_plan reads `stages` and ignores the rest.
  const std::string problem_text = problem_to_json(three_gpus()).dump();
  SolveOptions options;
  options.method = Method::brute_force;
  const nlohmann::ordered_json solved = solve_request(problem_text, options);
  ASSERT_TRUE(solved.contains("iteration_ms"));
  const Plan plan = parse_plan(json::parse(solved.dump()), three_gpus());
  EXPECT_EQ(plan_to_json(plan, three_gpus())["stages"], json::parse(solved["stages"].dump()));
  // and evaluating it gives solve's own figures
  const auto evaluated = evaluate_request(problem_text, solved.dump());
  EXPECT_DOUBLE_EQ(evaluated["iteration_ms"].get<double>(), solved["iteration_ms"].get<double>());
  EXPECT_DOUBLE_EQ(evaluated["objective"].get<double>(), solved["objective"].get<double>());
}

}  // namespace
}  // namespace geotrain
