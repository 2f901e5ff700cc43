// Studies: options, a fixed stage count in every exact or searching method,
// job lists, summaries (hand-worked on the hand pool) and whole runs on the
// paper's examples.
//
// Hand pool (tests/test_api.cpp): H = T = V = 1000, u = 1, M = 4, L = 4;
// g0 100 TFLOPS (idle 50 W, active 250 W), g1 50 (10, 60), g2 100 (20, 120);
// per layer 0.72 ms at 100 TFLOPS, 1.44 ms at 50; LM head 0.06 / 0.12 ms;
// default link 10 Gbps 1 ms (2.6 ms a send), g1 -> g0 0.66 ms, g2 -> g1 0.4 ms;
// lambda 0.5, T_ref 10 ms, E_ref 2 J.
//   [g2:4]: tau = 4 * 0.72 + 0.06 = 2.94 ms, T = 4 * 2.94 = 11.76 ms,
//           E = 0.01176 * 20 + 4 * 100 * 2.94e-3 = 0.2352 + 1.176 = 1.4112 J,
//           objective 0.5 * 1.176 + 0.5 * 0.7056 = 0.9408
//   [g0:4]: T = 11.76 ms, E = 0.01176 * 50 + 4 * 200 * 2.94e-3 = 0.588 + 2.352 = 2.94 J
//   [g1:4]: tau = 5.88 ms, T = 23.52 ms, E = 0.2352 + 4 * 50 * 5.88e-3 = 1.4112 J, objective 1.5288
#include "studies/studies.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <sstream>

#include "api/api.hpp"
#include "search/exact/brute_force.hpp"
#include "search/exact/exact.hpp"
#include "model/feasibility.hpp"
#include "model/input_error.hpp"
#include "search/memetic/memetic.hpp"
#include "studies/pareto.hpp"
#include "model/problem_json.hpp"
#include "random_pool.hpp"
#include "problem_doc.hpp"

namespace geotrain {
namespace {

using json = nlohmann::json;
using testing::PoolShape;
using testing::random_pool;

#define EXPECT_REL(actual, expected) EXPECT_NEAR((actual), (expected), 1e-9 * std::fabs(expected))

// The shared hand pool with g0 on site X and g1, g2 on site Y.
json hand_problem() {
  json problem = testing::hand_problem();
  for (std::size_t g = 0; g < problem["gpus"].size(); ++g) problem["gpus"][g]["site"] = g == 0 ? "X" : "Y";
  return problem;
}

std::string read_example(const std::string& name) {
  std::ifstream in(std::string(GEOTRAIN_EXAMPLES_DIR) + "/" + name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> errors_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const InputError& e) {
    return e.messages();
  }
  return {};
}

std::vector<std::string> option_errors(const json& options) {
  return errors_of([&] { parse_study_options(options); });
}

json plan_result(std::initializer_list<std::pair<const char*, int>> stages) {
  json list = json::array();
  for (const auto& [gpu, layers] : stages) list.push_back({{"gpu", gpu}, {"layers", layers}});
  return {{"stages", list}};
}

// ---- options ----

TEST(StudyOptions, DefaultsPerStudy) {
  const StudyOptions pareto = parse_study_options({{"study", "pareto"}});
  ASSERT_EQ(pareto.lambdas.size(), 11u);
  for (int k = 0; k <= 10; ++k) EXPECT_EQ(pareto.lambdas[k], k / 10.0);
  EXPECT_EQ(pareto.seeds, 3);
  EXPECT_EQ(pareto.method, Method::memetic);
  EXPECT_EQ(parse_study_options({{"study", "subset"}}).seeds, 1);
  EXPECT_EQ(parse_study_options({{"study", "split"}}).seeds, 1);
  const StudyOptions latency = parse_study_options({{"study", "latency"}, {"method", "exact"}});
  EXPECT_EQ(latency.values, (std::vector<double>{0.1, 1, 5, 10, 50, 100}));
  EXPECT_EQ(latency.seeds, 1);  // exact is deterministic
  EXPECT_EQ(parse_study_options({{"study", "bandwidth"}}).values, (std::vector<double>{0.5, 2, 5, 10, 50, 100}));
  EXPECT_EQ(parse_study_options({{"study", "bandwidth"}}).seeds, 3);
}

TEST(StudyOptions, FaultsNameTheirField) {
  using V = std::vector<std::string>;
  EXPECT_EQ(option_errors({{"study", "pareto"}, {"lambdas", {0, 0.5, 1.5}}}),
            V{"study.lambdas[2]: must be in [0, 1], got 1.5"});
  EXPECT_EQ(option_errors({{"study", "pareto"}, {"lambdas", json::array()}}),
            V{"study.lambdas: must list at least one value"});
  EXPECT_EQ(option_errors({{"study", "pareto"}, {"lambdas", std::vector<double>(102, 0.5)}})[0],
            "study.lambdas: must list at most 101 values, got 102");
  EXPECT_EQ(option_errors({{"study", "pareto"}, {"lambdas", {0.5, "x", 0.5}}}),
            (V{"study.lambdas[1]: must be a number, got \"x\"", "study.lambdas[2]: repeats lambdas[0] (0.5)"}));
  EXPECT_EQ(option_errors({{"study", "latency"}, {"values", {-1}}}),
            V{"study.values[0]: must be in [0, 1e6] ms, got -1"});
  EXPECT_EQ(option_errors({{"study", "bandwidth"}, {"values", {10, 0}}}),
            V{"study.values[1]: must be in (0, 1e6] Gbps, got 0"});
  EXPECT_EQ(option_errors({{"study", "latency"}, {"values", std::vector<double>(65, 1)}})[0],
            "study.values: must list at most 64 values, got 65");
  EXPECT_EQ(option_errors({{"study", "bogus"}}),
            V{"study.study: must be one of pareto|subset|latency|bandwidth|split|parallelism|where|replicas, got \"bogus\""});
  EXPECT_EQ(option_errors(json::object()), V{"study.study: required"});
  EXPECT_EQ(option_errors(json::array()), V{"study: must be an object, got an array"});
  EXPECT_EQ(option_errors({{"study", "subset"}, {"seeds", 17}}), V{"study.seeds: must be in [1, 16], got 17"});
  EXPECT_EQ(option_errors({{"study", "split"}, {"method", "brute-force"}}),
            V{"study.method: must be memetic or exact, got \"brute-force\""});
  EXPECT_EQ(option_errors({{"study", "latency"}, {"lambdas", {0.5}}}),
            V{"study.lambdas: only the pareto study takes lambdas, not latency"});
  EXPECT_EQ(option_errors({{"study", "pareto"}, {"values", {1}}, {"time_limit_s", 0}}),
            (V{"study.values: only the latency, bandwidth and replicas sweeps take values, not pareto",
               "study.time_limit_s: must be > 0, got 0"}));
}

// ---- a fixed stage count ----

// The best feasible k-stage plan by plain enumeration, independent of brute_force.
double best_with_stages(const CostModel& model, int k) {
  double best = INFINITY;
  Plan plan(k);
  std::vector<char> used(model.num_gpus(), 0);
  std::function<void(int, int)> place = [&](int q, int left) {
    for (int g = 0; g < model.num_gpus(); ++g) {
      if (used[g]) continue;
      used[g] = 1;
      for (int n = q + 1 == k ? left : 1; n <= left - (k - q - 1); ++n) {
        plan[q] = {g, n};
        if (q + 1 < k) place(q + 1, left - n);
        else if (const PlanCost c = model.evaluate(plan); c.feasible) best = std::min(best, c.objective);
      }
      used[g] = 0;
    }
  };
  place(0, model.num_layers());
  return best;
}

TEST(StageCount, HonouredByBruteForceExactAndMemetic) {
  int checked = 0, infeasible = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const Problem problem = random_pool(seed, PoolShape{2, 5, 2, 7, true, -1});
    CostModel model(problem);
    if (!any_feasible_plan(model)) continue;
    for (int k = 1; k <= std::min(model.num_gpus(), model.num_layers()); ++k) {
      SCOPED_TRACE("seed " + std::to_string(seed) + ", k " + std::to_string(k));
      model.set_stage_count_range(k, k);
      const double truth = best_with_stages(model, k);
      ASSERT_EQ(any_feasible_plan(model), truth < INFINITY);
      if (!(truth < INFINITY)) {
        EXPECT_THROW(brute_force(model), PlanningError);
        ++infeasible;
        continue;
      }
      const SolveResult bf = brute_force(model);
      EXPECT_EQ(static_cast<int>(bf.plan.size()), k);
      EXPECT_EQ(bf.cost.objective, truth);
      const SolveResult exact = solve_exact(model, ExactSettings{});
      EXPECT_EQ(static_cast<int>(exact.plan.size()), k);
      EXPECT_TRUE(exact.optimal.value_or(false));
      EXPECT_NEAR(exact.cost.objective, truth, 1e-9 * truth);
      SearchSettings quick;
      quick.population = 40, quick.patience = 20, quick.max_generations = 60, quick.time_limit_s = 3600;
      const SolveResult memetic = MemeticAlgorithm(quick).evolve(model);
      EXPECT_EQ(static_cast<int>(memetic.plan.size()), k);
      EXPECT_TRUE(memetic.cost.feasible);
      EXPECT_GE(memetic.cost.objective, truth * (1 - 1e-12));
      ++checked;
    }
  }
  EXPECT_GE(checked, 60);
  EXPECT_GE(infeasible, 1);  // some pools cannot fill some stage counts
}

TEST(StageCount, AsASolveOption) {
  const std::string text = hand_problem().dump();
  // k = 1 at lambda 0.5: [g2:4] (objective 0.9408) beats [g0:4] (1.323) and [g1:4] (1.5288).
  SolveOptions options;
  options.method = Method::exact;
  options.stage_count = 1;
  const json one = solve_request(text, options);
  EXPECT_EQ(one["stages"], plan_result({{"g2", 4}})["stages"]);
  EXPECT_REL(one["objective"].get<double>(), 0.9408);
  options.stage_count = 3;
  EXPECT_EQ(solve_request(text, options)["gpus_used"], 3);
  options.stage_count = 4;  // 3 GPUs
  try {
    solve_request(text, options);
    FAIL();
  } catch (const PlanningError& e) {
    EXPECT_EQ(std::string(e.what()), "no plan has 4 stages: each stage needs its own GPU and at least one layer, "
                                     "and the problem has 3 GPUs and 4 layers");
  }
  options.method = Method::metis;
  EXPECT_EQ(errors_of([&] { solve_request(text, options); }),
            std::vector<std::string>{"options.stage_count: the metis method chooses its own GPUs; only memetic, "
                                     "exact and brute-force take a stage count"});
  EXPECT_EQ(errors_of([] { parse_solve_options({{"stage_count", 0}}); }),
            std::vector<std::string>{"options.stage_count: must be in [1, 512], got 0"});
  EXPECT_EQ(parse_solve_options({{"stage_count", 2}}).stage_count, 2);
}

TEST(StageCount, LeavesTheReferencesAlone) {
  json problem = hand_problem();
  problem["objective"].erase("t_ref_ms");
  problem["objective"].erase("e_ref_j");
  SolveOptions options;
  options.method = Method::exact;
  const json free = solve_request(problem.dump(), options);
  options.stage_count = 2;
  const json two = solve_request(problem.dump(), options);
  EXPECT_EQ(two["t_ref_ms"], free["t_ref_ms"]);
  EXPECT_EQ(two["e_ref_j"], free["e_ref_j"]);
}

// ---- jobs ----

TEST(StudyJobs, ParetoJobsAreNamedAndPinned) {
  const json options = {{"study", "pareto"}, {"lambdas", {0, 0.5, 1}}, {"seeds", 2}, {"seed", 7}, {"time_limit_s", 5}};
  const json jobs = study_jobs(hand_problem().dump(), options);
  EXPECT_EQ(jobs["study"], "pareto");
  ASSERT_EQ(jobs["jobs"].size(), 6u);
  const char* ids[] = {"lambda=0/seed=7", "lambda=0/seed=8", "lambda=0.5/seed=7",
                       "lambda=0.5/seed=8", "lambda=1/seed=7", "lambda=1/seed=8"};
  for (int j = 0; j < 6; ++j) {
    const json& job = jobs["jobs"][j];
    EXPECT_EQ(job["id"], ids[j]);
    const json expected = {{"method", "memetic"}, {"seed", 7 + j % 2}, {"lambda", j / 2 * 0.5}, {"time_limit_s", 5}};
    EXPECT_EQ(job["options"], expected);
    EXPECT_EQ(job["problem"]["objective"]["t_ref_ms"], 10.0);
    EXPECT_NO_THROW(parse_problem(job["problem"]));
    EXPECT_NO_THROW(parse_solve_options(job["options"]));
  }
  EXPECT_EQ(json(study_jobs(hand_problem().dump(), options)).dump(), jobs.dump());  // a pure function
  const json typo = study_jobs(hand_problem().dump(), {{"study", "split"}, {"lamdbas", {0}}});
  EXPECT_EQ(typo["warnings"], json({"study.lamdbas: unknown field, ignored"}));
}

TEST(StudyJobs, SweepsRescaleAndAddTheBaseline) {
  // Hand pool sites: g0 on X, g1 and g2 on Y; no inter_site, so the base is the
  // median over the cross-site pairs g0<->g1, g0<->g2: 1 ms (default) x3 and 0.5 ms (g1 -> g0) -> 1.
  const json jobs = study_jobs(hand_problem().dump(), {{"study", "latency"}, {"values", {2}}, {"seeds", 1}});
  ASSERT_EQ(jobs["jobs"].size(), 2u);
  EXPECT_EQ(jobs["jobs"][0]["id"], "latency=2/memetic/seed=1");
  EXPECT_EQ(jobs["jobs"][1]["id"], "latency=2/metis-improved");
  EXPECT_EQ(jobs["jobs"][1]["options"]["method"], "metis-improved");
  const json& network = jobs["jobs"][0]["problem"]["network"];
  EXPECT_EQ(network["default"]["latency_ms"], 2.0);     // served the cross-site pairs: x2
  EXPECT_EQ(network["intra_site"]["latency_ms"], 1.0);  // and g1 <-> g2: kept as a new intra_site
  EXPECT_EQ(network["links"][0]["latency_ms"], 1.0);    // g1 -> g0, cross-site: 0.5 x 2
  EXPECT_EQ(network["links"][1]["latency_ms"], 0.0);    // g2 -> g1, same site
  json one_site = hand_problem();
  for (auto& g : one_site["gpus"]) g.erase("site");
  EXPECT_EQ(errors_of([&] { study_jobs(one_site.dump(), {{"study", "bandwidth"}}); }),
            std::vector<std::string>{"study: bandwidth sweep needs GPUs on at least two sites"});
}

TEST(StudyJobs, SubsetSkipsStageCountsThatCannotFit) {
  // Bytes per layer 9.6e7 + (Q + 1) 2e7, the LM head 1.2e7 more (tests/test_baselines.cpp).
  // 0.4 GiB = 4.295e8 bytes: Q = 1 needs 4 x 1.36e8 + 1.2e7 = 5.56e8 (no); Q = 2 holds 2 + 2 layers
  // (3.12e8 and 3.24e8); Q = 3 holds 2 + 1 + 1 (3.52e8, 1.76e8, 1.88e8).
  json problem = hand_problem();
  for (auto& g : problem["gpus"]) g["memory_gib"] = 0.4;
  const json jobs = study_jobs(problem.dump(), {{"study", "subset"}});
  ASSERT_EQ(jobs["jobs"].size(), 2u);
  EXPECT_EQ(jobs["jobs"][0]["id"], "k=2/seed=1");
  EXPECT_EQ(jobs["jobs"][0]["options"]["stage_count"], 2);
  EXPECT_EQ(jobs["jobs"][1]["id"], "k=3/seed=1");
  const json s = summarise_study(problem.dump(), {{"study", "subset"}}, json::object());
  EXPECT_EQ(s["points"][0]["feasible"], false);
  EXPECT_EQ(s["points"][0]["reason"], "no feasible plan with 1 stage: no such choice of GPUs holds all 4 layers in "
                                      "memory (Eq. 19); the most it can hold is 3 layers (with 1 stage)");
  EXPECT_EQ(s["points"][1]["feasible"], true);
  EXPECT_EQ(s["points"][1]["missing"], true);
  EXPECT_EQ(s["missing"], 2);
  EXPECT_TRUE(s["best_k"].is_null());
  // 0.2 GiB = 2.147e8: one layer per GPU at any Q, 3 < 4: nothing fits at all.
  for (auto& g : problem["gpus"]) g["memory_gib"] = 0.2;
  EXPECT_THROW(study_jobs(problem.dump(), {{"study", "subset"}}), PlanningError);
}

// ---- summaries, from hand-made results ----

TEST(StudySummary, ParetoFromHandResults) {
  const std::string text = hand_problem().dump();
  const json options = {{"study", "pareto"}, {"lambdas", {0, 0.5, 1}}, {"seeds", 2}};
  const json results = {{"lambda=0/seed=1", plan_result({{"g2", 4}})},
                        {"lambda=0/seed=2", plan_result({{"g1", 4}})},  // the same energy, bit for bit
                        {"lambda=0.5/seed=1", plan_result({{"g0", 4}})},
                        {"lambda=0.5/seed=2", plan_result({{"g2", 4}})},
                        {"lambda=1/seed=1", {{"error", {{"kind", "planning"}, {"messages", {"no feasible plan"}}}}}},
                        {"lambda=1/seed=2", plan_result({{"g0", 4}})},
                        {"someone else's job", 42}};
  const json s = summarise_study(text, options, results);
  EXPECT_EQ(s["missing"], 0);
  EXPECT_EQ(s["failed"], 1);
  ASSERT_EQ(s["table"].size(), 3u);
  // lambda 0: g2 and g1 both at 1.4112 J: the first seed (g2) is kept. lambda 0.5: g2 (0.9408) beats g0 (1.323).
  EXPECT_EQ(s["table"][0]["stages"], plan_result({{"g2", 4}})["stages"]);
  EXPECT_EQ(s["table"][1]["job"], "lambda=0.5/seed=2");
  EXPECT_EQ(s["table"][1]["seeds_agreeing"], 1);
  EXPECT_EQ(s["table"][1]["seeds_finished"], 2);
  // Against lambda 1 ([g0:4], 11.76 ms, 2.94 J): Delta T = 0, Delta E = (1.4112 - 2.94) / 2.94 = -52%.
  EXPECT_REL(s["table"][0]["iteration_ms"].get<double>(), 11.76);
  EXPECT_NEAR(s["table"][1]["delta_t_pct"].get<double>(), 0, 1e-9);
  EXPECT_REL(s["table"][1]["delta_e_pct"].get<double>(), -52.0);
  EXPECT_EQ(s["table"][2]["on_frontier"], false);  // [g0:4] is dominated by [g2:4]
  EXPECT_EQ(s["table"][0]["on_frontier"], true);
  EXPECT_TRUE(s["knee"].is_null());  // one distinct frontier point
  ASSERT_EQ(s["points"].size(), 6u);
  EXPECT_EQ(s["points"][4]["error"], "no feasible plan");
  EXPECT_EQ(s["points"][1]["dominated"], true);  // [g1:4]: 23.52 ms, 1.4112 J
  EXPECT_EQ(s["points"][0]["gpus"], "1\u00d7g2");
  EXPECT_EQ(s["reference"]["method"], "metis-improved");
  // Figures come from the stages alone.
  json tampered = results;
  tampered["lambda=0/seed=1"]["iteration_ms"] = 1;
  EXPECT_EQ(json(summarise_study(text, options, tampered)).dump(), s.dump());
  // Nothing finished yet.
  const json empty = summarise_study(text, options, json::object());
  EXPECT_EQ(empty["missing"], 6);
  EXPECT_TRUE(empty["table"].empty());
  EXPECT_TRUE(empty["knee"].is_null());
  EXPECT_EQ(summarise_study(text, options, {{"lambda=0/seed=1", nullptr}})["missing"], 6);
}

TEST(StudySummary, MalformedResultsAreNamed) {
  const std::string text = hand_problem().dump();
  const json options = {{"study", "pareto"}, {"lambdas", {0}}, {"seeds", 1}};
  EXPECT_EQ(errors_of([&] { summarise_study(text, options, {{"lambda=0/seed=1", plan_result({{"gx", 4}})}}); }),
            std::vector<std::string>{"results[\"lambda=0/seed=1\"].stages[0].gpu: unknown GPU id \"gx\""});
  EXPECT_EQ(errors_of([&] { summarise_study(text, options, json::array()); }),
            std::vector<std::string>{"results: must be an object mapping job ids to solve results"});
  EXPECT_EQ(errors_of([&] {
              summarise_study(text, {{"study", "subset"}}, {{"k=2/seed=1", plan_result({{"g2", 4}})}});
            }),
            std::vector<std::string>{"results[\"k=2/seed=1\"].stages: has 1 stage, the job asked for 2"});
}

TEST(StudySummary, SplitAgainstTheUniformSplitByHand) {
  // Chosen [g0:1, g1:2, g2:1]: T = 29.06 ms, E = 3.7888 J (test_api.cpp). Uniform on the same
  // GPUs, 4 layers over 3 stages -> [2, 1, 1]: compute 1.44, 1.44, 0.72 + 0.06 = 0.78 ms;
  // tau 1.44 + 2.6 = 4.04, 1.44 + 2.6 + 0.66 = 4.70, 0.78 + 0.4 = 1.18; T = 9.92 + 3 * 4.70 = 24.02 ms;
  // E = 0.02402 * 80 + 4 * (200 * 1.44e-3 + 50 * 1.44e-3 + 100 * 0.78e-3) = 1.9216 + 1.752 = 3.6736 J.
  // Gain of the chosen split: (24.02 - 29.06) / 24.02 = -20.98%.
  const json s = summarise_study(hand_problem().dump(), {{"study", "split"}},
                                 {{"split/seed=1", plan_result({{"g0", 1}, {"g1", 2}, {"g2", 1}})}});
  EXPECT_EQ(s["gpus"], json({"g0", "g1", "g2"}));
  EXPECT_EQ(s["uniform"]["stages"], plan_result({{"g0", 2}, {"g1", 1}, {"g2", 1}})["stages"]);
  EXPECT_REL(s["uniform"]["iteration_ms"].get<double>(), 24.02);
  EXPECT_REL(s["uniform"]["energy_j"].get<double>(), 3.6736);
  EXPECT_EQ(s["uniform"]["bottleneck_stage"], 1);
  EXPECT_EQ(s["uniform"]["feasible"], true);
  EXPECT_REL(s["non_uniform"]["iteration_ms"].get<double>(), 29.06);
  EXPECT_EQ(s["non_uniform"]["job"], "split/seed=1");
  EXPECT_REL(s["gain_pct"].get<double>(), (24.02 - 29.06) / 24.02 * 100.0);
}

// ---- whole runs ----

TEST(StudyRun, SubsetWithExactMatchesBruteForceAtEachSize) {
  int points = 0;
  for (std::uint64_t seed = 1; seed <= 25; ++seed) {
    const Problem problem = random_pool(seed, PoolShape{2, 4, 2, 6, true, -1});
    CostModel model(problem);
    if (!any_feasible_plan(model)) continue;
    SCOPED_TRACE("seed " + std::to_string(seed));
    const json s = run_study(problem_to_json(problem).dump(), {{"study", "subset"}, {"method", "exact"}});
    EXPECT_EQ(s["failed"], 0);
    int best_k = 0;
    double best = INFINITY;
    for (const json& p : s["points"]) {
      const int k = p["k"];
      model.set_stage_count_range(k, k);
      EXPECT_EQ(p["feasible"], any_feasible_plan(model)) << "k " << k;
      if (!p["feasible"]) {
        EXPECT_TRUE(p.contains("reason"));
        continue;
      }
      const double truth = brute_force(model).cost.objective;
      EXPECT_NEAR(p["objective"].get<double>(), truth, 1e-9 * truth) << "k " << k;
      EXPECT_EQ(p["stages"].size(), static_cast<std::size_t>(k));
      if (p["objective"].get<double>() < best) best = p["objective"], best_k = k;
      ++points;
    }
    EXPECT_EQ(s["best_k"], best_k);  // least objective, the fewest GPUs of equals
  }
  EXPECT_GE(points, 30);
}

TEST(StudyRun, ThreeSitesLatencySweepNeverUsesSiteA) {
  // The paper's Fig. 8b: site A's GPUs are the weakest and sit behind the slowest links.
  const json s = run_study(read_example("three-sites.json"), {{"study", "latency"}});
  EXPECT_EQ(s["unit"], "ms");
  EXPECT_EQ(s["base"], 10.0);
  EXPECT_EQ(s["failed"], 0);
  ASSERT_EQ(s["points"].size(), 6u);
  for (const json& p : s["points"]) {
    SCOPED_TRACE("latency " + p["value"].dump());
    for (const char* side : {"planner", "metis_improved"}) {
      ASSERT_TRUE(p[side].contains("sites_used")) << side;
      for (const json& site : p[side]["sites_used"]) EXPECT_NE(site, "A") << side;
    }
    EXPECT_GE(p["gain_pct"].get<double>(), -1e-9);  // the planner is never slower than metis-improved here
  }
  EXPECT_EQ(s["points"][0]["planner"]["sites_used"], json({"B", "C"}));  // 0.1 ms: both sites
  EXPECT_EQ(s["points"][5]["planner"]["sites_used"], json({"C"}));       // 100 ms: site C alone
}

TEST(StudyRun, Table7ParetoHasAKneeAndLambdaZeroUsesOneGpu) {
  const std::string text = read_example("table7-14gpu.json");
  const json options = {{"study", "pareto"}, {"seeds", 1}};
  const json s = run_study(text, options);
  ASSERT_EQ(s["table"].size(), 11u);
  EXPECT_EQ(s["table"][0]["gpus_used"], 1);
  EXPECT_EQ(s["table"][10]["delta_t_pct"], 0.0);
  ASSERT_FALSE(s["knee"].is_null());
  std::vector<TradeoffPoint> frontier;
  for (const json& row : s["table"])
    if (row["on_frontier"]) frontier.push_back({row["iteration_ms"].get<double>(), row["energy_j"].get<double>()});
  EXPECT_GE(frontier.size(), 3u);
  for (const auto& a : frontier)
    for (const auto& b : frontier) EXPECT_FALSE(dominates(a, b));
  int knees = 0;
  for (const json& row : s["table"]) knees += row["knee"].get<bool>();
  EXPECT_EQ(knees, 1);
  EXPECT_EQ(s["reference"]["dominated"], true);  // as in the paper: metis-improved is dominated
  // The CSV: a header and one line per lambda; "2×A, 3×B" is quoted.
  const std::string csv = study_summary_csv(s);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 12);
  EXPECT_EQ(csv.rfind("lambda,job,iteration_ms,energy_j,delta_t_pct,delta_e_pct,", 0), 0u);
  EXPECT_NE(csv.find(",\"2\u00d7A100-SXM-80GB, 3\u00d7A100-PCIe-40GB\","), std::string::npos) << csv;
}

}  // namespace
}  // namespace geotrain
