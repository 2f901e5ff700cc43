// Exact search (core/exact.hpp): the same optimum as brute force on many
// random small pools, honest budget stops, settings, and directed links on a
// pool worked out by hand (pools: exact_hand_pools.hpp). The building blocks
// (bounds, symmetry classes, first plans) are tested in test_exact_parts.cpp.
#include "search/exact/exact.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "search/exact/brute_force.hpp"
#include "exact_hand_pools.hpp"
#include "model/feasibility.hpp"
#include "search/exact/gpu_symmetry.hpp"
#include "random_pool.hpp"

namespace geotrain {
namespace {

using testing::hand_gpu;
using testing::hand_model;
using testing::PoolShape;
using testing::random_pool;

bool same_objective(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::fabs(b); }

// Exact against brute force on every feasible pool of `seeds` seeds; returns
// how many pools had an optimum of two or more stages (multi-stage pools are
// where bounds and symmetry matter, so callers check there were some).
int expect_matches_brute_force(std::uint64_t first_seed, int seeds, const PoolShape& shape) {
  int multi_stage = 0;
  for (std::uint64_t seed = first_seed; seed < first_seed + seeds; ++seed) {
    const Problem problem = random_pool(seed, shape);
    const CostModel model(problem);
    if (!any_feasible_plan(model)) continue;
    SCOPED_TRACE("seed " + std::to_string(seed));
    const SolveResult truth = brute_force(model);
    const SolveResult exact = solve_exact(model, ExactSettings{});
    EXPECT_EQ(exact.method, "exact");
    EXPECT_TRUE(exact.optimal.value_or(false));
    EXPECT_EQ(exact.stop_reason, "complete");
    EXPECT_EQ(exact.gap.value_or(-1), 0.0);
    const PlanCost recomputed = model.evaluate(exact.plan);
    EXPECT_TRUE(recomputed.feasible);
    EXPECT_EQ(recomputed.objective, exact.cost.objective);
    EXPECT_TRUE(same_objective(exact.cost.objective, truth.cost.objective))
        << "exact " << exact.cost.objective << " brute force " << truth.cost.objective;
    if (!same_objective(exact.cost.objective, truth.cost.objective)) return multi_stage;
    multi_stage += truth.plan.size() >= 2;
  }
  return multi_stage;
}

TEST(Exact, MatchesBruteForceOnRandomPoolsOfMixedLambda) {
  // N 1..6, L 1..10, lambda drawn from {0, 0.5, 1}, some GPUs with tight memory.
  EXPECT_GE(expect_matches_brute_force(1, 600, PoolShape{1, 6, 1, 10, true, -1}), 60);
}

TEST(Exact, MatchesBruteForceAtEachLambda) {
  // Energy alone mostly picks one GPU (every extra GPU idles), so fewer multi-stage optima at lambda = 0.
  const struct {
    double lambda;
    int multi_stage;
  } cases[] = {{0.0, 3}, {0.5, 15}, {1.0, 15}};
  for (const auto& c : cases) {
    SCOPED_TRACE("lambda " + std::to_string(c.lambda));
    EXPECT_GE(expect_matches_brute_force(1000, 150, PoolShape{4, 6, 6, 10, true, c.lambda}), c.multi_stage);
  }
}

TEST(Exact, MatchesBruteForceOnPoolsWithRoomyMemory) {
  EXPECT_GE(expect_matches_brute_force(2000, 300, PoolShape{2, 6, 2, 10, false, -1}), 20);
}

// Copies of GPU 0 on its site, with no per-GPU link overrides: classes of
// interchangeable GPUs for the symmetry rule to cut.
Problem with_clones(Problem p, int copies) {
  for (int i = 1; i <= copies && i < static_cast<int>(p.gpus.size()); ++i) {
    const std::string id = p.gpus[i].id;
    p.gpus[i] = p.gpus[0];
    p.gpus[i].id = id;
  }
  p.network.links.clear();
  return p;
}

TEST(Exact, MatchesBruteForceWhenGpusAreInterchangeable) {
  int pools_with_classes = 0, multi_stage = 0;
  for (std::uint64_t seed = 3000; seed < 3080; ++seed) {
    const Problem problem = with_clones(random_pool(seed, PoolShape{3, 6, 3, 10, true, -1}), 2);
    const CostModel model(problem);
    if (!any_feasible_plan(model)) continue;
    SCOPED_TRACE("seed " + std::to_string(seed));
    pools_with_classes += interchangeable_gpu_classes(model).members.size() < problem.gpus.size();
    const SolveResult truth = brute_force(model);
    const SolveResult exact = solve_exact(model, ExactSettings{});
    EXPECT_TRUE(exact.optimal.value_or(false));
    EXPECT_TRUE(same_objective(exact.cost.objective, truth.cost.objective))
        << "exact " << exact.cost.objective << " brute force " << truth.cost.objective;
    multi_stage += truth.plan.size() >= 2;
  }
  EXPECT_GE(pools_with_classes, 40);
  EXPECT_GE(multi_stage, 10);
}

TEST(Exact, AGivenIncumbentIsUsedAndABadOneIgnored) {
  for (std::uint64_t seed = 4000; seed < 4030; ++seed) {
    const Problem problem = random_pool(seed, PoolShape{3, 6, 3, 10, true, 1.0});
    const CostModel model(problem);
    if (!any_feasible_plan(model)) continue;
    SCOPED_TRACE("seed " + std::to_string(seed));
    const SolveResult truth = brute_force(model);
    const SolveResult seeded = solve_exact(model, ExactSettings{}, truth.plan);
    EXPECT_TRUE(seeded.optimal.value_or(false));
    EXPECT_TRUE(same_objective(seeded.cost.objective, truth.cost.objective));
    const Plan repeated_gpu = {{0, 1}, {0, model.num_layers() - 1}};
    const SolveResult ignored = solve_exact(model, ExactSettings{}, repeated_gpu);
    EXPECT_TRUE(same_objective(ignored.cost.objective, truth.cost.objective));
  }
}

TEST(Exact, ANodeBudgetStopsWithAFeasiblePlanAndAValidGap) {
  int stopped = 0;
  for (std::uint64_t seed = 5000; seed < 5060; ++seed) {
    const Problem problem = random_pool(seed, PoolShape{5, 6, 8, 10, true, 1.0});
    const CostModel model(problem);
    if (!any_feasible_plan(model)) continue;
    const double optimum = brute_force(model).cost.objective;
    // Budgets spread geometrically: each solve pays the root floors in full
    // (about 10 ms here), so every budget up to 300 would cost 40 s.
    for (std::int64_t max_nodes : {1, 2, 3, 4, 5, 7, 9, 12, 16, 21, 28, 37, 49, 65, 86, 114, 151, 200, 300}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " max_nodes " + std::to_string(max_nodes));
      ExactSettings settings;
      settings.max_nodes = max_nodes;
      const SolveResult r = solve_exact(model, settings);
      EXPECT_TRUE(model.evaluate(r.plan).feasible);
      if (r.stop_reason == "complete") continue;
      ++stopped;
      EXPECT_EQ(r.stop_reason, "node_limit");
      EXPECT_FALSE(r.optimal.value_or(true));
      ASSERT_TRUE(r.gap.has_value());
      EXPECT_GE(*r.gap, 0.0);
      EXPECT_LE(*r.gap, 1.0);
      // The gap is proven: incumbent * (1 - gap) is a lower bound, so the optimum is not below it.
      EXPECT_GE(optimum, r.cost.objective * (1.0 - *r.gap) * (1.0 - 1e-9));
      EXPECT_GE(r.cost.objective, optimum * (1.0 - 1e-9));
    }
  }
  EXPECT_GE(stopped, 50);
}

// As above on pools of identical GPUs: with a single candidate GPU per stage
// the open choices are mostly layer counts.
TEST(Exact, ANodeBudgetGapIsValidWhenAllGpusAreAlike) {
  int stopped = 0;
  for (std::uint64_t seed = 5100; seed < 5130; ++seed) {
    const Problem problem = with_clones(random_pool(seed, PoolShape{4, 6, 8, 10, true, 1.0}), 5);
    const CostModel model(problem);
    if (!any_feasible_plan(model)) continue;
    const double optimum = brute_force(model).cost.objective;
    for (std::int64_t max_nodes : {1, 2, 3, 4, 5, 6, 8, 10, 13, 16, 20, 25, 31, 39, 48, 60}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " max_nodes " + std::to_string(max_nodes));
      ExactSettings settings;
      settings.max_nodes = max_nodes;
      const SolveResult r = solve_exact(model, settings);
      if (r.stop_reason == "complete") continue;
      ++stopped;
      EXPECT_GE(optimum, r.cost.objective * (1.0 - r.gap.value_or(-1)) * (1.0 - 1e-9));
    }
  }
  EXPECT_GE(stopped, 50);
}

// A pool big enough that the search reaches its first clock check (after
// 2^15 units of work), where budgets and the progress callback are read.
Problem long_search_pool() { return random_pool(6, PoolShape{12, 12, 24, 24, true, 1.0}); }

TEST(Exact, AProgressCallbackReturningFalseCancels) {
  const CostModel model(long_search_pool());
  ASSERT_TRUE(any_feasible_plan(model));
  int calls = 0;
  bool had_plan = false;
  const SolveResult r = solve_exact(model, ExactSettings{}, {}, [&](const Progress& p) {
    ++calls;
    had_plan = p.has_plan && model.evaluate(p.best_plan).feasible;
    return false;
  });
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(had_plan);
  EXPECT_EQ(r.stop_reason, "cancelled");
  EXPECT_FALSE(r.optimal.value_or(true));
  EXPECT_TRUE(model.evaluate(r.plan).feasible);
  EXPECT_GE(r.gap.value_or(-1), 0.0);
  EXPECT_LE(r.gap.value_or(2), 1.0);
}

TEST(Exact, ATimeLimitStopsAtTheFirstClockCheck) {
  const CostModel model(long_search_pool());
  ExactSettings settings;
  settings.time_limit_s = 1e-9;
  const SolveResult r = solve_exact(model, settings);
  EXPECT_EQ(r.stop_reason, "time_limit");
  EXPECT_FALSE(r.optimal.value_or(true));
  EXPECT_TRUE(model.evaluate(r.plan).feasible);
  EXPECT_GE(r.gap.value_or(-1), 0.0);
  EXPECT_LE(r.gap.value_or(2), 1.0);
}

std::string message_of(const ExactSettings& settings) {
  try {
    settings.validate();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(Exact, SettingsAreValidatedByName) {
  ExactSettings s;
  EXPECT_EQ(message_of(s), "");
  s.time_limit_s = 0;
  EXPECT_NE(message_of(s).find("exact.time_limit_s"), std::string::npos) << message_of(s);
  s.time_limit_s = NAN;
  EXPECT_NE(message_of(s).find("exact.time_limit_s"), std::string::npos);
  s = ExactSettings{};
  s.max_nodes = 0;
  EXPECT_NE(message_of(s).find("exact.max_nodes"), std::string::npos) << message_of(s);
  const CostModel model(random_pool(1));
  EXPECT_THROW(solve_exact(model, s), std::invalid_argument);
}

// The floors without the crossing flows (the memetic run's final step) are
// still valid floors: exact proves the same optimum with them.
TEST(Exact, FloorsWithoutCrossingFlowsProveTheSameOptimum) {
  ExactSettings s;
  s.crossing_flow_work = -1;
  EXPECT_NE(message_of(s).find("exact.crossing_flow_work"), std::string::npos) << message_of(s);
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const CostModel model(random_pool(seed));
    ExactSettings with_flows, without_flows;
    with_flows.floor_check_nodes = without_flows.floor_check_nodes = 0;  // the floors at once
    with_flows.floor_check_gap = without_flows.floor_check_gap = -1;
    without_flows.crossing_flow_work = 0;
    const SolveResult a = solve_exact(model, with_flows), b = solve_exact(model, without_flows);
    ASSERT_TRUE(a.optimal.value_or(false) && b.optimal.value_or(false)) << seed;
    EXPECT_DOUBLE_EQ(a.cost.objective, b.cost.objective) << seed;
  }
}

// Two GPUs alike in every figure, but the link a -> b is fast and b -> a slow,
// and neither holds both layers. Memory: 0.2 GiB = 214748364.8 bytes; Q = 1
// needs 2 * (9.6e7 + 2 * 2e7) + 1.2e7 = 2.84e8 (too much); Q = 2 needs at most
// 9.6e7 + 3 * 2e7 + 1.2e7 = 1.68e8 on the last stage (fits).
//   a -> b: 10 Gbps, 0 ms: 2e6 / 1.25e9 = 1.6e-3 s;  b -> a: 1 Gbps, 10 ms: 2e6 / 1.25e8 + 0.01 = 0.026 s
//   M = 8. Plan (b, a): tau_b = 7.2e-4 + 0.026 = 0.02672; tau_a = 7.2e-4 + 6e-5 + 1.6e-3 = 2.38e-3
//     T = 0.0291 + 7 * 0.02672 = 0.21614 s
//   Plan (a, b): tau_a = 7.2e-4 + 1.6e-3 = 2.32e-3; tau_b = 7.2e-4 + 6e-5 + 0.026 = 0.02678
//     T = 0.0291 + 7 * 0.02678 = 0.21656 s
// So b must go first: the slow send belongs on the stage without the head.
// Were a and b taken as interchangeable, only (a, b) would be tried.
TEST(Exact, DirectedLinksDecideTheOrder) {
  Problem p = hand_model(2, 8);
  p.gpus = {hand_gpu("a", "", 100, 0.2, 50, 250), hand_gpu("b", "", 100, 0.2, 50, 250)};
  p.network.links = {{"a", "b", LinkSpec{10, 0, 1}}, {"b", "a", LinkSpec{1, 10, 1}}};
  const CostModel model(p);
  EXPECT_FALSE(interchangeable(model, 0, 1));
  EXPECT_NEAR(model.evaluate(Plan{{1, 1}, {0, 1}}).iteration_s, 0.21614, 1e-12);
  EXPECT_NEAR(model.evaluate(Plan{{0, 1}, {1, 1}}).iteration_s, 0.21656, 1e-12);
  const SolveResult r = solve_exact(model, ExactSettings{});
  EXPECT_TRUE(r.optimal.value_or(false));
  ASSERT_EQ(r.plan.size(), 2u);
  EXPECT_EQ(r.plan[0].gpu, 1);
  EXPECT_EQ(r.plan[1].gpu, 0);
  EXPECT_NEAR(r.cost.objective, 0.21614, 1e-12);
}

}  // namespace
}  // namespace geotrain
