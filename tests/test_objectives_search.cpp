// Every planner on the weighted objective of objectives.md (time, energy,
// carbon and money): exact and the certificate against brute force, the
// memetic algorithm's optimum rate, references, and the micro-batch size as a
// decision (search.micro_batch_size "auto").
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <optional>

#include "api/api.hpp"
#include "api/micro_batch_search.hpp"
#include "api/planner.hpp"
#include "model/feasibility.hpp"
#include "model/input_error.hpp"
#include "problem_doc.hpp"
#include "random_node_pool.hpp"
#include "random_pool.hpp"
#include "search/exact/brute_force.hpp"
#include "search/bounds/certificate.hpp"
#include "search/exact/exact.hpp"
#include "search/memetic/memetic.hpp"
#include "prepare_if_plannable.hpp"

namespace geotrain {
namespace {

bool same_objective(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::fabs(b); }

// A random pool with random site figures, rents and four weights. Two GPUs
// of one type on different sites are alike in every way but carbon and money,
// which is where symmetry pruning must not treat them as interchangeable.
Problem priced_random_pool(std::uint64_t seed) {
  testing::PoolShape shape;
  shape.min_gpus = 2, shape.max_gpus = 6, shape.min_layers = 2, shape.max_layers = 9;
  Problem p = testing::random_pool(seed, shape);
  Rng rng(seed * 7919 + 1);
  if (p.gpus.size() >= 2 && rng.bernoulli(0.5)) {
    Gpu twin = p.gpus[0];
    twin.id = "twin";
    twin.site = p.gpus[0].site == "A" ? "B" : "A";
    p.gpus[1] = twin;
  }
  for (const char* site : {"A", "B", "C"})
    p.sites[site] = SiteFigures{50.0 * rng.uniform_int(0, 16), 1.0 + 0.1 * rng.uniform_int(0, 6),
                                0.05 * rng.uniform_int(0, 6)};
  for (auto it = p.sites.begin(); it != p.sites.end();) {  // only sites some GPU is on
    const bool used = std::any_of(p.gpus.begin(), p.gpus.end(), [&](const Gpu& g) { return g.site == it->first; });
    it = used ? std::next(it) : p.sites.erase(it);
  }
  for (Gpu& g : p.gpus) g.price_per_hour = 0.5 * rng.uniform_int(0, 8);
  p.objective.weights = ObjectiveWeights{0.25 * rng.uniform_int(0, 4), 0.25 * rng.uniform_int(0, 4),
                                         0.25 * rng.uniform_int(0, 4), 0.25 * rng.uniform_int(0, 4)};
  if (p.objective.weights->time + p.objective.weights->energy + p.objective.weights->carbon +
          p.objective.weights->cost == 0)
    p.objective.weights->carbon = 1;
  p.objective.c_ref_g = 0.01, p.objective.m_ref = 0.001;
  return p;
}

TEST(ObjectivesSearch, ExactAndTheCertificateMatchBruteForceOnFourTerms) {
  int pools = 0, multi_stage = 0;
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    const Problem p = priced_random_pool(seed);
    const CostModel model(p);
    if (!any_feasible_plan(model)) continue;
    SCOPED_TRACE("seed " + std::to_string(seed));
    ++pools;
    const SolveResult truth = brute_force(model);
    const SolveResult exact = solve_exact(model, ExactSettings{});
    EXPECT_TRUE(exact.optimal.value_or(false));
    EXPECT_TRUE(same_objective(exact.cost.objective, truth.cost.objective))
        << "exact " << exact.cost.objective << " brute force " << truth.cost.objective;
    EXPECT_LE(objective_lower_bound(model), truth.cost.objective * (1 + 1e-12));
    multi_stage += truth.plan.size() >= 2;
  }
  EXPECT_GE(pools, 150);
  EXPECT_GE(multi_stage, 15);  // where bounds and symmetry matter
}

TEST(ObjectivesSearch, MemeticReachesTheOptimumOnFourTerms) {
  int pairs = 0, reached = 0;
  for (std::uint64_t seed = 1; pairs < 120; ++seed) {
    const Problem p = priced_random_pool(1000 + seed);
    const CostModel model(p);
    if (!any_feasible_plan(model)) continue;
    ++pairs;
    SearchSettings s;
    s.seed = seed, s.time_limit_s = 3600;
    const SolveResult found = MemeticAlgorithm(s).evolve(model);
    const double optimum = brute_force(model).cost.objective;
    EXPECT_GE(found.cost.objective, optimum * (1 - 1e-12));
    reached += found.cost.objective <= optimum * (1 + 1e-12);
  }
  EXPECT_GE(reached, 114) << reached << " of " << pairs;  // 95%
}

// Stage groups on four terms: exact over every layout agrees with brute force,
// and the hybrid memetic plan is never worse than the pipeline one.
TEST(ObjectivesSearch, HybridMethodsOnFourTerms) {
  int compared = 0;
  for (std::uint64_t seed = 1; compared < 15 && seed < 200; ++seed) {
    Problem p = testing::random_node_pool(seed, 6, 4);
    Rng rng(seed + 99);
    for (const Gpu& g : p.gpus)
      p.sites[g.site] = SiteFigures{100.0 * rng.uniform_int(0, 8), 1.0 + 0.2 * rng.uniform_int(0, 3), 0.1 * rng.uniform_int(0, 3)};
    for (Gpu& g : p.gpus) g.price_per_hour = rng.uniform_int(0, 4);
    p.objective.weights = ObjectiveWeights{1, 0.5, 1, 1};
    SolveOptions o;
    o.time_limit_s = 30;
    const std::optional<PreparedProblem> prepared = testing::prepare_if_plannable(p, o);
    if (!prepared) continue;
    SCOPED_TRACE(p.name);
    o.method = Method::exact;
    const SolveResult exact = run_method(*prepared, o);
    o.method = Method::brute_force;
    const SolveResult brute = run_method(*prepared, o);
    ASSERT_TRUE(exact.optimal.value_or(false));
    EXPECT_TRUE(same_objective(exact.cost.objective, brute.cost.objective));
    o.method = Method::memetic;
    const SolveResult hybrid = run_method(*prepared, o);
    Problem pipeline_only = p;
    pipeline_only.search.parallelism = Parallelism::pipeline;
    const SolveResult pipeline = run_method(prepare_problem(pipeline_only, o), o);
    EXPECT_LE(hybrid.cost.objective, pipeline.cost.objective * (1 + 1e-12));
    EXPECT_GE(hybrid.cost.objective, brute.cost.objective * (1 - 1e-12));
    ++compared;
  }
  EXPECT_EQ(compared, 15);
}

TEST(ObjectivesSearch, CarbonWeightMovesThePlanToTheCleanSite) {
  // Two alike GPUs, one on a coal grid and one on hydro: time alone ties
  // them (the first wins), carbon alone picks the clean one.
  nlohmann::json doc = testing::base_doc();
  doc["gpus"][1] = doc["gpus"][0];
  doc["gpus"][1]["id"] = "g1";
  doc["gpus"][1]["site"] = "B";
  doc["sites"] = {{"A", {{"carbon_g_per_kwh", 800}}}, {"B", {{"carbon_g_per_kwh", 20}}}};
  doc["objective"] = {{"weights", {{"carbon", 1}}}};
  for (const char* method : {"memetic", "exact", "brute-force"}) {
    SolveOptions o;
    o.method = *method_from_name(method);
    const auto out = solve_request(doc.dump(), o);
    ASSERT_EQ(out["stages"].size(), 1u) << method;
    EXPECT_EQ(out["stages"][0]["gpu"], "g1") << method;
    // The reference comes from the metis-improved plan (on g0, 40 times g1's carbon).
    EXPECT_NEAR(out["objective"].get<double>(), 1.0 / 40, 1e-9) << method;
    EXPECT_GT(out["c_ref_g"].get<double>(), 0) << method;
  }
}

TEST(ObjectivesSearch, MicroBatchCandidatesAreTheFilesFirstThenAscending) {
  ModelConfig m;
  m.global_batch_size = 12, m.micro_batch_size = 3;
  EXPECT_EQ(micro_batch_candidates(m), (std::vector<std::int64_t>{3, 1, 2, 4, 6, 12}));
  m.global_batch_size = 16, m.micro_batch_size = 16;
  EXPECT_EQ(micro_batch_candidates(m), (std::vector<std::int64_t>{16, 1, 2, 4, 8}));
}

// "auto" plans every u and keeps the best: never worse than the file's u,
// and exact proves the best over all u (brute force at each u agrees).
TEST(ObjectivesSearch, AutoMicroBatchIsNeverWorseAndExactFindsTheBestU) {
  int pools = 0, moved = 0;
  for (std::uint64_t seed = 1; pools < 25; ++seed) {
    Problem p = priced_random_pool(3000 + seed);
    if (p.model.global_batch_size < 4) continue;
    SolveOptions fixed;
    fixed.method = Method::exact;
    std::optional<PreparedProblem> maybe;
    try {
      maybe.emplace(prepare_problem(p, fixed));
    } catch (const PlanningError&) {
      continue;  // nothing fits at the file's u
    }
    const PreparedProblem& prepared = *maybe;
    ++pools;
    SCOPED_TRACE("seed " + std::to_string(3000 + seed));
    const SolveResult at_file_u = run_method(prepared, fixed);
    SolveOptions automatic = fixed;
    automatic.micro_batch_auto = true;
    const PreparedProblem prepared_auto = prepare_problem(p, automatic);
    const SolveResult best = run_method(prepared_auto, automatic);
    EXPECT_LE(best.cost.objective, at_file_u.cost.objective * (1 + 1e-12));
    EXPECT_TRUE(best.optimal.value_or(false));
    EXPECT_EQ(best.gap.value_or(-1), 0.0);
    double truth = INFINITY;
    for (std::int64_t u : micro_batch_candidates(p.model)) {
      Problem at_u = with_micro_batch_size(p, u);
      CostModel model(at_u);
      model.copy_objective_from(prepared.model);
      if (any_feasible_plan(model)) truth = std::min(truth, brute_force(model).cost.objective);
    }
    EXPECT_TRUE(same_objective(best.cost.objective, truth)) << best.cost.objective << " vs " << truth;
    moved += best.micro_batch_size != p.model.micro_batch_size;
  }
  EXPECT_GE(moved, 3);  // some pools prefer another u than the file's
}

TEST(ObjectivesSearch, AnAutoPlanEvaluatesAtItsOwnMicroBatchSize) {
  // The straggler example plans u = 4 of B = 32 (M = 8); smaller
  // micro-batches shrink the pipeline's fill and drain and win.
  std::ifstream file(std::string(GEOTRAIN_EXAMPLES_DIR) + "/straggler-4gpu.json");
  nlohmann::json doc = nlohmann::json::parse(file);
  ASSERT_EQ(doc["model"]["micro_batch_size"], 4);
  const auto fixed = solve_request(doc.dump(), SolveOptions{});
  doc["search"]["micro_batch_size"] = "auto";
  const auto solved = solve_request(doc.dump(), SolveOptions{});
  EXPECT_EQ(solved["micro_batch_size_mode"], "auto");
  const std::int64_t u = solved["micro_batch_size"].get<std::int64_t>();
  EXPECT_NE(u, 4);
  EXPECT_LT(solved["objective"].get<double>(), fixed["objective"].get<double>() * 0.95);
  EXPECT_EQ(solved["t_ref_ms"], fixed["t_ref_ms"]);  // the same references: the file's u's baseline
  const auto evaluated = evaluate_request(doc.dump(), solved.dump());
  EXPECT_EQ(evaluated["micro_batch_size"], u);
  EXPECT_EQ(evaluated["objective"], solved["objective"]);
  EXPECT_EQ(evaluated["iteration_ms"], solved["iteration_ms"]);
  ASSERT_TRUE(evaluated.contains("warnings"));
  nlohmann::json bad = solved;
  bad["micro_batch_size"] = 3;
  try {
    evaluate_request(doc.dump(), bad.dump());
    FAIL() << "accepted u = 3 with B = 32";
  } catch (const InputError& e) {
    EXPECT_EQ(e.messages()[0], "plan.micro_batch_size: must divide model.global_batch_size (32), got 3");
  }
}

TEST(ObjectivesSearch, OldFilesReportZerosAndNoRun) {
  const auto out = solve_request(testing::hand_problem().dump(), SolveOptions{});
  EXPECT_EQ(out["carbon_g"], 0.0);
  EXPECT_EQ(out["cost"], 0.0);
  EXPECT_TRUE(out["run"].is_null());
  EXPECT_TRUE(out["c_ref_g"].is_null());  // weight 0, and nothing to show
  EXPECT_EQ(out["micro_batch_size"], 1);
  EXPECT_EQ(out["micro_batch_size_mode"], "fixed");
  EXPECT_EQ(out["weights"]["time"], 0.5);
  EXPECT_EQ(out["weights"]["energy"], 0.5);
}

}  // namespace
}  // namespace geotrain
