// The memetic algorithm as a whole: optimality against brute force on small
// pools, validity, reproducibility, stepping, cancelling, stopping rules and
// settings validation.
#include "search/memetic/memetic.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "search/exact/brute_force.hpp"
#include "model/feasibility.hpp"
#include "random_pool.hpp"

namespace geotrain {
namespace {

// Settings for tests: the paper's, with a time limit that never fires so
// that runs are reproducible.
SearchSettings test_settings(std::uint64_t seed) {
  SearchSettings s;
  s.seed = seed;
  s.time_limit_s = 3600;
  return s;
}

testing::PoolShape small_shape() {
  testing::PoolShape shape;
  shape.min_gpus = 2, shape.max_gpus = 6, shape.min_layers = 2, shape.max_layers = 10;
  return shape;
}

// Distinct GPUs, each with at least one layer, L in all, and fits in memory.
void expect_valid_plan(const CostModel& model, const SolveResult& result, const std::string& where) {
  std::set<int> gpus;
  int layers = 0;
  for (const Stage& s : result.plan) {
    EXPECT_TRUE(s.gpu >= 0 && s.gpu < model.num_gpus()) << where;
    EXPECT_GE(s.layers, 1) << where;
    gpus.insert(s.gpu);
    layers += s.layers;
  }
  EXPECT_EQ(gpus.size(), result.plan.size()) << where << ": a GPU used twice";
  EXPECT_EQ(layers, model.num_layers()) << where;
  const PlanCost cost = model.evaluate(result.plan);
  EXPECT_TRUE(cost.feasible) << where;
  EXPECT_EQ(cost.objective, result.cost.objective) << where;
}

// 200 (pool, seed) pairs with N in 2..6 and L in 2..10, pools with no
// feasible plan skipped. Both methods score plans with the same code, so
// "reached" means equal up to rounding in the last bits.
void expect_optimum_rate(bool shift_both_ways) {
  int pairs = 0, reached = 0;
  for (std::uint64_t pool = 1; pairs < 200; ++pool) {
    const Problem p = testing::random_pool(5000 + pool, small_shape());
    const CostModel model(p);
    if (!any_feasible_plan(model)) continue;
    ++pairs;
    const SolveResult optimum = brute_force(model);
    SearchSettings settings = test_settings(pool);
    settings.shift_both_ways = shift_both_ways;
    const SolveResult found = MemeticAlgorithm(settings).evolve(model);
    expect_valid_plan(model, found, "pool " + std::to_string(5000 + pool));
    EXPECT_EQ(found.method, "memetic");
    EXPECT_GE(found.cost.objective, optimum.cost.objective * (1 - 1e-12));
    if (found.cost.objective <= optimum.cost.objective * (1 + 1e-12)) ++reached;
  }
  const double rate = static_cast<double>(reached) / pairs;
  std::printf("[ optimum ] memetic reached the brute-force optimum on %d of %d pairs (%.3f)\n", reached, pairs, rate);
  EXPECT_GE(rate, 0.95);
}

TEST(Memetic, ReachesTheBruteForceOptimumOnSmallPools) { expect_optimum_rate(false); }

TEST(Memetic, ReachesTheBruteForceOptimumShiftingBothWays) { expect_optimum_rate(true); }

TEST(Memetic, SameSeedSameRun) {
  testing::PoolShape shape;
  shape.min_gpus = shape.max_gpus = 10, shape.min_layers = shape.max_layers = 16;
  const Problem p = testing::random_pool(77, shape);
  const CostModel model(p);
  ASSERT_TRUE(any_feasible_plan(model));
  const MemeticAlgorithm algorithm(test_settings(9));
  const SolveResult a = algorithm.evolve(model), b = algorithm.evolve(model);
  ASSERT_EQ(a.plan.size(), b.plan.size());
  for (std::size_t q = 0; q < a.plan.size(); ++q) {
    EXPECT_EQ(a.plan[q].gpu, b.plan[q].gpu);
    EXPECT_EQ(a.plan[q].layers, b.plan[q].layers);
  }
  EXPECT_EQ(a.cost.objective, b.cost.objective);
  EXPECT_EQ(a.evaluations, b.evaluations);
  EXPECT_EQ(a.generations, b.generations);
  EXPECT_EQ(a.stop_reason, b.stop_reason);
  expect_valid_plan(model, a, "pool 77");
}

TEST(Memetic, SteppingGivesTheSameRunAsEvolve) {
  testing::PoolShape shape;
  shape.min_gpus = shape.max_gpus = 8, shape.min_layers = shape.max_layers = 12;
  const Problem p = testing::random_pool(31, shape);
  const CostModel model(p);
  ASSERT_TRUE(any_feasible_plan(model));
  const SearchSettings settings = test_settings(4);

  std::vector<int> reported;
  const SolveResult evolved = MemeticAlgorithm(settings).evolve(model, [&](const Progress& progress) {
    reported.push_back(progress.generation);
    EXPECT_TRUE(progress.has_plan);
    return true;
  });
  MemeticRun run(model, settings);
  int steps = 0;
  while (run.step()) ++steps;
  const SolveResult stepped = run.result();

  EXPECT_TRUE(run.finished());
  EXPECT_FALSE(run.step());  // finished: nothing more happens
  EXPECT_EQ(run.result().generations, stepped.generations);
  EXPECT_EQ(steps + 1, stepped.generations);  // the last step ran a generation and returned false
  EXPECT_EQ(stepped.generations, evolved.generations);
  EXPECT_EQ(stepped.evaluations, evolved.evaluations);
  EXPECT_EQ(stepped.cost.objective, evolved.cost.objective);
  EXPECT_EQ(stepped.stop_reason, evolved.stop_reason);
  ASSERT_EQ(stepped.plan.size(), evolved.plan.size());
  for (std::size_t q = 0; q < stepped.plan.size(); ++q) EXPECT_EQ(stepped.plan[q].gpu, evolved.plan[q].gpu);
  // One report per generation, in order.
  ASSERT_EQ(static_cast<int>(reported.size()), evolved.generations);
  for (std::size_t g = 0; g < reported.size(); ++g) EXPECT_EQ(reported[g], static_cast<int>(g) + 1);
}

TEST(Memetic, ProgressReturningFalseCancels) {
  const Problem p = testing::random_pool(12, small_shape());
  const CostModel model(p);
  ASSERT_TRUE(any_feasible_plan(model));
  SearchSettings settings = test_settings(1);
  settings.patience = 1000;  // would otherwise run to max_generations = 500
  int calls = 0;
  const SolveResult r = MemeticAlgorithm(settings).evolve(model, [&](const Progress&) { return ++calls < 3; });
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(r.generations, 3);
  EXPECT_EQ(r.stop_reason, "cancelled");
  expect_valid_plan(model, r, "cancelled run");
}

TEST(Memetic, CancelStopsARun) {
  const Problem p = testing::random_pool(12, small_shape());
  const CostModel model(p);
  MemeticRun run(model, test_settings(2));
  ASSERT_TRUE(run.step());
  ASSERT_TRUE(run.step());
  run.cancel();
  EXPECT_TRUE(run.finished());
  EXPECT_FALSE(run.step());
  const SolveResult r = run.result();
  EXPECT_EQ(r.generations, 2);
  EXPECT_EQ(r.stop_reason, "cancelled");
  EXPECT_EQ(run.progress().generation, 2);
  run.cancel();  // twice is harmless
  EXPECT_EQ(run.result().stop_reason, "cancelled");
}

TEST(Memetic, StopsOnEachRule) {
  const Problem p = testing::random_pool(12, small_shape());
  const CostModel model(p);
  SearchSettings s = test_settings(3);
  s.max_generations = 5, s.patience = 1000;
  SolveResult r = MemeticAlgorithm(s).evolve(model);
  EXPECT_EQ(r.stop_reason, "max_generations");
  EXPECT_EQ(r.generations, 5);

  s = test_settings(3);
  s.patience = 7;
  r = MemeticAlgorithm(s).evolve(model);
  EXPECT_EQ(r.stop_reason, "patience");
  EXPECT_GE(r.generations, 7);
  EXPECT_LT(r.generations, s.max_generations);

  // A time limit of a nanosecond has passed once the population is built.
  s = test_settings(3);
  s.time_limit_s = 1e-9;
  r = MemeticAlgorithm(s).evolve(model);
  EXPECT_EQ(r.stop_reason, "time_limit");
  EXPECT_EQ(r.generations, 0);
  expect_valid_plan(model, r, "time limit");
}

TEST(Memetic, CountsEvaluations) {
  // N = 2, L = 2: four plans, all feasible, each evaluated once while the
  // initial population (of four) is built. One generation then draws pairs
  // of distinct parents and crosses them at the single cut 1.
  Problem p = testing::random_pool(1, small_shape());
  p.gpus.resize(2);
  p.network.links.clear();
  p.model.num_layers = 2;
  for (Gpu& g : p.gpus) g.memory_gib = 80;
  const CostModel model(p);
  SearchSettings s = test_settings(5);
  s.max_generations = 1;
  MemeticRun run(model, s);
  EXPECT_EQ(run.population().size(), 4u);
  EXPECT_EQ(run.evaluations(), 4);
  run.step();
  EXPECT_GT(run.evaluations(), 4);
  EXPECT_EQ(run.result().evaluations, run.evaluations());
  EXPECT_EQ(run.progress().evaluations, run.evaluations());
}

TEST(Memetic, NeverHangsWhenFeasiblePlansAreRareOrUnique) {
  // One GPU: exactly one plan. The population is that plan; nothing breeds
  // and patience ends the run.
  Problem one = testing::random_pool(3, small_shape());
  one.gpus.resize(1);
  one.network.links.clear();
  for (Gpu& g : one.gpus) g.memory_gib = 80;
  const CostModel single(one);
  SolveResult r = MemeticAlgorithm(test_settings(1)).evolve(single);
  EXPECT_EQ(r.plan.size(), 1u);
  EXPECT_EQ(r.stop_reason, "patience");

  // Tight pools: whatever fraction of plans fits, a valid plan comes back.
  int tight = 0;
  for (std::uint64_t pool = 1; tight < 20 && pool < 2000; ++pool) {
    testing::PoolShape shape;
    shape.min_gpus = 6, shape.max_gpus = 12, shape.min_layers = 12, shape.max_layers = 24;
    Problem p = testing::random_pool(9000 + pool, shape);
    for (Gpu& g : p.gpus) g.memory_gib = g.memory_gib > 2.5 ? 2.5 : g.memory_gib;  // about ten layers at most
    const CostModel model(p);
    if (!any_feasible_plan(model)) continue;
    ++tight;
    SearchSettings s = test_settings(pool);
    s.population = 50, s.patience = 20;
    expect_valid_plan(model, MemeticAlgorithm(s).evolve(model), "tight pool " + std::to_string(9000 + pool));
  }
  EXPECT_EQ(tight, 20);
}

void expect_rejected(SearchSettings s, const std::string& setting) {
  try {
    MemeticAlgorithm algorithm(s);
    ADD_FAILURE() << setting << " accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("search." + setting + ":"), std::string::npos) << e.what();
  }
}

TEST(Memetic, RejectsBadSettingsNamingThem) {
  const SearchSettings good;
  EXPECT_NO_THROW(MemeticAlgorithm{good});
  SearchSettings s = good;
  s.population = 1;
  expect_rejected(s, "population");
  s = good, s.tournament = 0;
  expect_rejected(s, "tournament");
  s = good, s.tournament = good.population + 1;
  expect_rejected(s, "tournament");
  s = good, s.elite = good.population;
  expect_rejected(s, "elite");
  s = good, s.elite = -1;
  expect_rejected(s, "elite");
  s = good, s.local_search_rate = 1.5;
  expect_rejected(s, "local_search_rate");
  s = good, s.local_search_rate = -0.1;
  expect_rejected(s, "local_search_rate");
  s = good, s.crossover_fallback_rate = 2;
  expect_rejected(s, "crossover_fallback_rate");
  s = good, s.crossover_fallback_rate = std::nan("");
  expect_rejected(s, "crossover_fallback_rate");
  s = good, s.time_limit_s = 0;
  expect_rejected(s, "time_limit_s");
  s = good, s.time_limit_s = -3;
  expect_rejected(s, "time_limit_s");
  s = good, s.patience = 0;
  expect_rejected(s, "patience");
  s = good, s.max_generations = 0;
  expect_rejected(s, "max_generations");
  // The run checks too.
  const Problem p = testing::random_pool(12, small_shape());
  const CostModel model(p);
  s = good, s.population = 0;
  EXPECT_THROW(MemeticRun(model, s), std::invalid_argument);
}

TEST(Memetic, FinalPopulationIsDistinctValidAndSorted) {
  const Problem p = testing::random_pool(21, small_shape());
  const CostModel model(p);
  ASSERT_TRUE(any_feasible_plan(model));
  MemeticRun run(model, test_settings(8));
  while (run.step()) {
  }
  std::set<std::vector<int>> distinct;
  const auto& population = run.population();
  for (std::size_t i = 0; i < population.size(); ++i) {
    ASSERT_TRUE(is_valid(model, population[i].genes));
    if (i > 0) {
      ASSERT_TRUE(fitter(population[i - 1], population[i]));
    }
    distinct.insert(population[i].genes);
  }
  EXPECT_EQ(distinct.size(), population.size());
  EXPECT_LE(population.size(), 200u);
}

}  // namespace
}  // namespace geotrain
