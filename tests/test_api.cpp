// The JSON-in, JSON-out layer shared by the CLI and the WebAssembly module.
//
// The hand pool of test_cost_model.cpp, as a file: H = T = V = 1000, u = 1, M = 4, L = 4, fp16;
// g0 100 TFLOPS (idle 50, active 250), g1 50 (10, 60), g2 100 (20, 120), 80 GiB each;
// default link 10 Gbps 1 ms, g1 -> g0 100 Gbps 0.5 ms, g2 -> g1 40 Gbps 0 ms.
// Plan [g0:1, g1:2, g2:1] (worked out in test_cost_model.cpp):
//   compute 7.2e-4, 2.88e-3, 7.8e-4 s;  forward 2.6e-3, 2.6e-3, 0;  backward 0, 6.6e-4, 4e-4
//   tau 3.32e-3, 6.14e-3, 1.18e-3;  T = 29.06e-3 s;  E = 3.7888 J;  bottleneck stage 1
//   memory 1.76e8, 3.52e8, 1.88e8 bytes (/ 2^30 GiB)
#include "api/api.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "model/input_error.hpp"
#include "problem_doc.hpp"

namespace geotrain {
namespace {

using json = nlohmann::json;
using testing::hand_problem;

#define EXPECT_REL(actual, expected) EXPECT_NEAR((actual), (expected), 1e-9 * std::fabs(expected))

constexpr double kGiB = 1073741824.0;


const char* kThreeStagePlan =
    R"({"stages": [{"gpu": "g0", "layers": 1}, {"gpu": "g1", "layers": 2}, {"gpu": "g2", "layers": 1}]})";

TEST(Api, EvaluateReportsTheCostModelFigures) {
  const auto out = evaluate_request(hand_problem().dump(), kThreeStagePlan);
  EXPECT_EQ(out["problem"], "hand pool");
  EXPECT_REL(out["iteration_ms"].get<double>(), 29.06);
  EXPECT_REL(out["energy_j"].get<double>(), 3.7888);
  // lambda 0.5: 0.5 * 29.06 / 10 + 0.5 * 3.7888 / 2 = 1.453 + 0.9472 = 2.4002
  EXPECT_REL(out["objective"].get<double>(), 2.4002);
  EXPECT_EQ(out["feasible"], true);
  EXPECT_EQ(out["bottleneck_stage"], 1);
  EXPECT_EQ(out["lambda"], 0.5);
  EXPECT_EQ(out["t_ref_ms"], 10.0);
  EXPECT_EQ(out["e_ref_j"], 2.0);
  EXPECT_EQ(out["references"], "problem");
  EXPECT_TRUE(out["violations"].empty());
  EXPECT_FALSE(out.contains("warnings"));

  const auto& stages = out["stages"];
  ASSERT_EQ(stages.size(), 3u);
  const char* gpus[] = {"g0", "g1", "g2"};
  const int layers[] = {1, 2, 1};
  const double compute_ms[] = {0.72, 2.88, 0.78}, forward_ms[] = {2.6, 2.6, 0}, backward_ms[] = {0, 0.66, 0.4};
  const double stage_ms[] = {3.32, 6.14, 1.18}, memory_bytes[] = {1.76e8, 3.52e8, 1.88e8};
  for (int q = 0; q < 3; ++q) {
    SCOPED_TRACE(q);
    EXPECT_EQ(stages[q]["gpu"], gpus[q]);
    EXPECT_EQ(stages[q]["layers"], layers[q]);
    EXPECT_REL(stages[q]["compute_ms"].get<double>(), compute_ms[q]);
    EXPECT_REL(stages[q]["send_forward_ms"].get<double>(), forward_ms[q]);
    EXPECT_REL(stages[q]["send_backward_ms"].get<double>(), backward_ms[q]);
    EXPECT_REL(stages[q]["stage_ms"].get<double>(), stage_ms[q]);
    EXPECT_REL(stages[q]["memory_gib"].get<double>(), memory_bytes[q] / kGiB);
    EXPECT_EQ(stages[q]["memory_limit_gib"], 80.0);
    EXPECT_EQ(stages[q]["fits"], true);
  }
}

TEST(Api, EvaluateReportsMemoryViolations) {
  json problem = hand_problem();
  problem["gpus"][1]["memory_gib"] = 0.25;  // 2^28 = 268435456 bytes < 3.52e8 for g1's 2 layers
  const auto out = evaluate_request(problem.dump(), kThreeStagePlan);
  EXPECT_EQ(out["feasible"], false);  // still exit 0 material: the plan is well formed
  EXPECT_EQ(out["stages"][1]["fits"], false);
  ASSERT_EQ(out["violations"].size(), 1u);
  // 3.52e8 / 2^30 = 0.3278 -> 0.33 GiB
  EXPECT_EQ(out["violations"][0], "stages[1] (g1): needs 0.33 GiB, 0.25 GiB usable");
}

TEST(Api, EvaluateFillsMissingReferencesFromTheBaseline) {
  json problem = hand_problem();
  problem["objective"].erase("e_ref_j");
  const auto out = evaluate_request(problem.dump(), kThreeStagePlan);
  EXPECT_EQ(out["references"], "problem+metis-improved");
  EXPECT_EQ(out["t_ref_ms"], 10.0);
  EXPECT_GT(out["e_ref_j"].get<double>(), 0.0);
}

TEST(Api, EvaluatePassesWarningsOn) {
  json problem = hand_problem();
  problem["colour"] = "blue";
  const auto out = evaluate_request(problem.dump(), kThreeStagePlan);
  ASSERT_TRUE(out.contains("warnings"));
  EXPECT_EQ(out["warnings"][0], "colour: unknown field, ignored");
}

TEST(Api, EvaluateRefusesMalformedInput) {
  EXPECT_THROW(evaluate_request("{", kThreeStagePlan), InputError);
  try {
    evaluate_request(hand_problem().dump(), "{\"stages\": [");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("plan: not valid JSON: ", 0), 0u) << e.what();
  }
  try {
    evaluate_request(hand_problem().dump(), R"({"stages": [{"gpu": "g0", "layers": 4}, {"gpu": "g0", "layers": 1}]})");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.messages().size(), 2u) << e.what();  // g0 twice; and 5 layers != 4
  }
}

SolveOptions with_method(Method method) {
  SolveOptions options;
  options.method = method;
  return options;
}

TEST(Api, SolveBruteForceFindsTheSingleStageOptimum) {
  // lambda 1 for this check: every split pays >= 2.6e-3 on its first stage (tau >= 3.32e-3),
  // while [g0:4] has tau = 4 * 7.2e-4 + 6e-5 = 2.94e-3 and T = 11.76 ms; g2 ties g0, g0 comes first.
  SolveOptions options = with_method(Method::brute_force);
  options.lambda = 1.0;
  const auto out = solve_request(hand_problem().dump(), options);
  EXPECT_EQ(out["method"], "brute-force");
  EXPECT_EQ(out["stages"], nlohmann::ordered_json::parse(R"([{"gpu": "g0", "layers": 4}])"));
  EXPECT_REL(out["iteration_ms"].get<double>(), 11.76);
  EXPECT_REL(out["energy_j"].get<double>(), 2.94);
  EXPECT_REL(out["objective"].get<double>(), 1.176);  // 11.76 / 10
  EXPECT_EQ(out["feasible"], true);
  EXPECT_EQ(out["optimal"], true);
  EXPECT_EQ(out["evaluations"], 39);  // f(3, 4)
  EXPECT_EQ(out["lambda"], 1.0);
  EXPECT_TRUE(out.contains("elapsed_ms"));
  EXPECT_EQ(out["stage_metrics"].size(), 1u);
}

TEST(Api, SolveUniformAndMetis) {
  const auto uniform = solve_request(hand_problem().dump(), with_method(Method::uniform));
  EXPECT_EQ(uniform["method"], "uniform");
  // N = 3, L = 4: [2, 1, 1] on g0, g1, g2
  EXPECT_EQ(uniform["stages"], nlohmann::ordered_json::parse(
                                   R"([{"gpu": "g0", "layers": 2}, {"gpu": "g1", "layers": 1},
                                       {"gpu": "g2", "layers": 1}])"));
  const auto metis = solve_request(hand_problem().dump(), with_method(Method::metis));
  EXPECT_EQ(metis["method"], "metis");
  EXPECT_EQ(metis["feasible"], true);
  int layers = 0;
  for (const auto& s : metis["stages"]) layers += s["layers"].get<int>();
  EXPECT_EQ(layers, 4);
}

TEST(Api, SolveRefusesAnInfeasiblePoolWithTheReason) {
  json problem = hand_problem();
  for (auto& g : problem["gpus"]) g["memory_gib"] = 0.1;  // 1.07e8 bytes: not one layer (1.36e8)
  try {
    solve_request(problem.dump(), with_method(Method::brute_force));
    FAIL();
  } catch (const PlanningError& e) {
    EXPECT_NE(std::string(e.what()).find("holds all 4 layers"), std::string::npos) << e.what();
  }
}

TEST(Api, ParseSolveOptions) {
  const SolveOptions o = parse_solve_options(
      json::parse(R"({"method": "metis-improved", "seed": 7, "lambda": 0.25, "time_limit_s": 2, "max_nodes": 1e7})"));
  EXPECT_EQ(o.method, Method::metis_improved);
  EXPECT_EQ(o.seed, std::optional<std::uint64_t>(7));
  EXPECT_EQ(o.lambda, std::optional<double>(0.25));
  EXPECT_EQ(o.time_limit_s, std::optional<double>(2));
  EXPECT_EQ(o.max_nodes, std::optional<std::int64_t>(10000000));
  EXPECT_EQ(parse_solve_options(nullptr).method, Method::memetic);
  EXPECT_EQ(parse_solve_options(json::object()).method, Method::memetic);
}

std::vector<std::string> option_errors(const json& options) {
  try {
    parse_solve_options(options);
  } catch (const InputError& e) {
    return e.messages();
  }
  return {};
}

TEST(Api, SolveOptionErrorsNameTheOption) {
  EXPECT_EQ(option_errors({{"method", "genetic"}}),
            std::vector<std::string>{"options.method: must be one of "
                                     "memetic|exact|brute-force|metis|metis-improved|uniform, got \"genetic\""});
  EXPECT_EQ(option_errors({{"seed", -1}}),
            std::vector<std::string>{"options.seed: must be in [0, 9007199254740991], got -1"});
  EXPECT_EQ(option_errors({{"seed", 1.5}}), std::vector<std::string>{"options.seed: must be an integer, got 1.5"});
  EXPECT_EQ(option_errors({{"lambda", 2}}), std::vector<std::string>{"options.lambda: must be in [0, 1], got 2"});
  EXPECT_EQ(option_errors({{"time_limit_s", 0}}),
            std::vector<std::string>{"options.time_limit_s: must be > 0, got 0"});
  EXPECT_EQ(option_errors({{"time_limit_s", 90000.5}}),
            std::vector<std::string>{"options.time_limit_s: must be at most 86400 (one day), got 90000.5"});
  EXPECT_EQ(option_errors({{"max_nodes", 0}}),
            std::vector<std::string>{"options.max_nodes: must be in [1, 1125899906842624], got 0"});
  EXPECT_EQ(option_errors(json::array()), std::vector<std::string>{"options: must be an object, got an array"});
  EXPECT_EQ(option_errors({{"method", 3}, {"lambda", "high"}}).size(), 2u);
}

TEST(Api, ErrorToJsonKinds) {
  const auto input = error_to_json(InputError(std::vector<std::string>{"a: bad", "b: worse"}));
  EXPECT_EQ(input, nlohmann::ordered_json::parse(R"({"error": {"kind": "input", "messages": ["a: bad", "b: worse"]}})"));
  const auto planning = error_to_json(PlanningError("no feasible plan"));
  EXPECT_EQ(planning,
            nlohmann::ordered_json::parse(R"({"error": {"kind": "planning", "messages": ["no feasible plan"]}})"));
  const auto internal = error_to_json(std::logic_error("oops"));
  EXPECT_EQ(internal, nlohmann::ordered_json::parse(R"({"error": {"kind": "internal", "messages": ["oops"]}})"));
}

TEST(Api, ProgressToJson) {
  const Problem problem = [] {
    Problem p;
    Gpu g;
    g.id = "g0";
    p.gpus = {g};
    return p;
  }();
  Progress progress;
  progress.generation = 3;
  progress.evaluations = 120;
  progress.elapsed_ms = 5;
  EXPECT_FALSE(progress_to_json(progress, problem).contains("stages"));
  progress.has_plan = true;
  progress.best_plan = {{0, 4}};
  progress.best_cost.iteration_s = 0.01176;
  const auto out = progress_to_json(progress, problem);
  EXPECT_EQ(out["generation"], 3);
  EXPECT_EQ(out["evaluations"], 120);
  EXPECT_EQ(out["stages"], nlohmann::ordered_json::parse(R"([{"gpu": "g0", "layers": 4}])"));
  EXPECT_REL(out["iteration_ms"].get<double>(), 11.76);
}

}  // namespace
}  // namespace geotrain
