// Search at scale (issue 10) on the generated geo pools (geo_pool.hpp): the
// memetic run at default settings and seed 1 against metis-improved and
// against exact after 1 s, exact's proven gap, in-search nanoseconds per
// evaluation next to the bare cost model's, and loading a pool with every
// link written out. Each figure in docs/performance.md's tables at scale comes from
//   geotrain_bench --benchmark_filter=Scale
// (counters: objectives, GPUs used, evaluations, ns_per_eval, gap).
#include <benchmark/benchmark.h>

#include <ctime>
#include <string>
#include <vector>

#include "api/planner.hpp"
#include "search/memetic/memetic.hpp"
#include "model/problem_json.hpp"
#include "search/bounds/certificate.hpp"
#include "search/random.hpp"
#include "search/stopwatch.hpp"
#include "geo_pool.hpp"

namespace {

using namespace geotrain;

PreparedProblem prepared_pool(int gpus, int layers, SolveOptions options = {}) {
  return prepare_problem(bench::geo_pool({gpus, layers, 1, false}), options);
}

SolveResult solve(const PreparedProblem& prepared, Method method, double time_limit_s) {
  SolveOptions options;
  options.method = method;
  options.time_limit_s = time_limit_s;
  PreparedProblem copy = prepared;
  copy.problem.search.time_limit_s = time_limit_s;
  return run_method(copy, options);
}

// Default settings (the paper's), seed 1: wall time per run; counters say what
// it found against metis-improved and against exact's plan after 1 s.
void BM_ScaleMemetic(benchmark::State& state) {
  const PreparedProblem prepared = prepared_pool(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  SolveResult result;
  double cpu_ns = 0;
  for (auto _ : state) {
    // Processor time, not wall time: the ratio to the cost model's benchmark
    // should not depend on what else the machine runs.
    const std::clock_t start = std::clock();
    result = run_method(prepared, SolveOptions{});
    cpu_ns = static_cast<double>(std::clock() - start) * 1e9 / CLOCKS_PER_SEC;
  }
  const SolveResult metis = solve(prepared, Method::metis_improved, 120);
  const SolveResult exact = solve(prepared, Method::exact, 1.0);
  state.counters["obj"] = result.cost.objective;
  state.counters["metis_obj"] = metis.cost.objective;
  state.counters["exact1s_obj"] = exact.cost.objective;
  state.counters["gpus"] = static_cast<double>(result.plan.size());
  state.counters["evals"] = static_cast<double>(result.evaluations);
  state.counters["gens"] = result.generations;
  state.counters["ns_per_eval"] = cpu_ns / static_cast<double>(result.evaluations);
}
BENCHMARK(BM_ScaleMemetic)
    ->ArgNames({"N", "L"})
    ->Args({64, 64})->Args({128, 96})->Args({256, 128})->Args({512, 128})
    ->Iterations(1)->Unit(benchmark::kMillisecond);

// Exact with a time budget: the gap it proves and its lower bound.
void BM_ScaleExactGap(benchmark::State& state) {
  const PreparedProblem prepared = prepared_pool(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  const double budget_s = static_cast<double>(state.range(2));
  SolveResult result;
  for (auto _ : state) result = solve(prepared, Method::exact, budget_s);
  state.counters["obj"] = result.cost.objective;
  state.counters["gap"] = result.gap.value_or(0.0);
  state.counters["lower_bound"] = result.cost.objective * (1.0 - result.gap.value_or(0.0));
  state.counters["nodes"] = static_cast<double>(result.nodes);
}
BENCHMARK(BM_ScaleExactGap)
    ->ArgNames({"N", "L", "s"})
    ->Args({32, 48, 10})->Args({64, 64, 1})->Args({128, 96, 1})->Args({256, 128, 1})->Args({512, 128, 1})
    ->Iterations(1)->Unit(benchmark::kMillisecond);

// The bare cost model on the same pools: random contiguous chromosomes.
void BM_ScaleEvaluateGenes(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0)), layers = static_cast<int>(state.range(1));
  const PreparedProblem prepared = prepared_pool(n, layers);
  Rng rng(42);
  std::vector<std::vector<int>> chromosomes(1024, std::vector<int>(static_cast<std::size_t>(layers)));
  std::vector<int> gpus(static_cast<std::size_t>(n));
  for (auto& genes : chromosomes) {
    for (int g = 0; g < n; ++g) gpus[g] = g;
    rng.shuffle(gpus.begin(), gpus.end());
    // As bench_cost_model.cpp: Q uniform, Q - 1 distinct random cuts, Q distinct GPUs.
    const int stages = rng.uniform_int(1, std::min(n, layers));
    std::vector<char> cut(static_cast<std::size_t>(layers), 0);
    for (int placed = 1; placed < stages;) {
      const int at = rng.uniform_int(1, layers - 1);
      if (!cut[at]) cut[at] = 1, ++placed;
    }
    for (int l = 0, s = 0; l < layers; ++l) genes[l] = gpus[s += cut[l]];
  }
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(prepared.model.evaluate_genes(chromosomes[i].data()));
    i = (i + 1) & 1023;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ScaleEvaluateGenes)
    ->ArgNames({"N", "L"})
    ->Args({12, 12})->Args({64, 64})->Args({128, 96})->Args({256, 128})->Args({512, 128});

// Reading a 512-GPU problem with all 261,632 links written out (17.6 MB):
// parsing, validation, link resolution and the cost model's tables.
void BM_ScaleLoadExplicitLinks(benchmark::State& state) {
  const std::string text = bench::geo_pool_json({static_cast<int>(state.range(0)), 128, 1, true}).dump();
  SolveOptions options;
  options.method = Method::metis;
  for (auto _ : state) {
    ParsedProblem parsed = parse_problem_text(text);
    benchmark::DoNotOptimize(prepare_problem(std::move(parsed.problem), options));
  }
  state.counters["MB"] = static_cast<double>(text.size()) / 1e6;
}
BENCHMARK(BM_ScaleLoadExplicitLinks)->ArgNames({"N"})->Arg(512)->Iterations(3)->Unit(benchmark::kMillisecond);

}  // namespace

namespace {

// The certificate every solve carries: its share of a run's time.
void BM_ScaleCertificate(benchmark::State& state) {
  const PreparedProblem prepared = prepared_pool(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  double bound = 0;
  for (auto _ : state) benchmark::DoNotOptimize(bound = objective_lower_bound(prepared.model));
  state.counters["lower_bound"] = bound;
}
BENCHMARK(BM_ScaleCertificate)
    ->ArgNames({"N", "L"})
    ->Args({64, 64})->Args({128, 96})->Args({256, 128})->Args({512, 128})
    ->Unit(benchmark::kMillisecond);

}  // namespace

namespace {

// The generational loop alone (crossover, mutation, local search,
// deduplication, replacement), per evaluation it makes: what an evaluation
// costs inside the search, to hold against BM_ScaleEvaluateGenes. The run is
// built (initial population, seeds) outside the timing.
void BM_ScaleGenerations(benchmark::State& state) {
  const PreparedProblem prepared = prepared_pool(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  SearchSettings settings = prepared.problem.search;
  settings.patience = 1 << 30, settings.max_generations = 1 << 30, settings.time_limit_s = 3600;
  MemeticRun run(prepared.model, settings);
  const std::int64_t before = run.evaluations();
  for (auto _ : state) run.step();
  state.SetItemsProcessed(run.evaluations() - before);  // items/s: evaluations per second of processor time
  state.counters["evals_per_gen"] = static_cast<double>(run.evaluations() - before) / static_cast<double>(state.iterations());
}
// A fixed number of generations per size: a generation's cost depends on
// the population (its plans' stage counts), so a count the timer chose would
// measure different work from run to run; with the same count the runs of
// two builds that give the same plans measure the same generations.
#define GEOTRAIN_GENERATIONS(gpus, layers, generations) \
  BENCHMARK(BM_ScaleGenerations)                          \
      ->ArgNames({"N", "L"})                              \
      ->Args({gpus, layers})                              \
      ->Iterations(generations)                           \
      ->Unit(benchmark::kMillisecond)
GEOTRAIN_GENERATIONS(12, 12, 10000);
GEOTRAIN_GENERATIONS(64, 64, 4000);
GEOTRAIN_GENERATIONS(128, 96, 4000);
GEOTRAIN_GENERATIONS(256, 128, 3000);
GEOTRAIN_GENERATIONS(512, 128, 2000);
#undef GEOTRAIN_GENERATIONS

}  // namespace
