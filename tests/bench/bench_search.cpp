// Whole searches at the paper's settings on the scaling pool (Tables 3, 4 and
// 6): wall time per run, plus counters for what the run found: evaluations,
// generations, T_iter of its plan and of metis-improved's, and the gain.
#include <benchmark/benchmark.h>

#include "search/baselines/baselines.hpp"
#include "search/exact/exact.hpp"
#include "search/memetic/memetic.hpp"
#include "api/planner.hpp"
#include "scaling_pool.hpp"

namespace {

using namespace geotrain;

// What the run found, next to metis-improved and the proven optimum.
void report_plan(benchmark::State& state, const PreparedProblem& prepared, const SolveResult& result) {
  const SolveResult metis = run_metis_improved(prepared.model, prepared.problem.search.seed);
  const SolveResult optimum = solve_exact(prepared.model, ExactSettings{});
  state.counters["evals"] = static_cast<double>(result.evaluations);
  state.counters["T_ms"] = result.cost.iteration_s * 1000.0;
  state.counters["metisT_ms"] = metis.cost.iteration_s * 1000.0;
  state.counters["exactT_ms"] = optimum.optimal.value_or(false) ? optimum.cost.iteration_s * 1000.0 : -1.0;
  state.counters["gain_pct"] = 100.0 * (metis.cost.iteration_s - result.cost.iteration_s) / metis.cost.iteration_s;
}

void BM_Memetic(benchmark::State& state) {
  const PreparedProblem prepared =
      prepare_problem(bench::scaling_pool(static_cast<int>(state.range(0)), static_cast<int>(state.range(1))), {});
  SolveResult result;
  for (auto _ : state) result = MemeticAlgorithm(prepared.problem.search).evolve(prepared.model);
  report_plan(state, prepared, result);
  state.counters["generations"] = result.generations;
}
// Table 3 / 6: N = 2..12 GPUs at L = 12; Table 4: L = 8..48 on 12 GPUs.
BENCHMARK(BM_Memetic)
    ->ArgNames({"N", "L"})
    ->Args({2, 12})->Args({4, 12})->Args({6, 12})->Args({8, 12})->Args({10, 12})->Args({12, 12})
    ->Args({12, 8})->Args({12, 24})->Args({12, 32})->Args({12, 48})
    ->Unit(benchmark::kMillisecond);

// Table 6: the time exact needs to prove the optimum, by N at L = 12 (no
// incumbent passed in: the solver's own greedy start).
void BM_Exact(benchmark::State& state) {
  const PreparedProblem prepared =
      prepare_problem(bench::scaling_pool(static_cast<int>(state.range(0)), static_cast<int>(state.range(1))), {});
  SolveResult result;
  for (auto _ : state) result = solve_exact(prepared.model, ExactSettings{});
  state.counters["nodes"] = static_cast<double>(result.nodes);
  state.counters["T_ms"] = result.cost.iteration_s * 1000.0;
  state.counters["proven"] = result.optimal.value_or(false) ? 1 : 0;
}
BENCHMARK(BM_Exact)
    ->ArgNames({"N", "L"})
    ->Args({2, 12})->Args({4, 12})->Args({6, 12})->Args({8, 12})->Args({10, 12})->Args({12, 12})
    ->Args({12, 24})->Args({12, 48})
    ->Unit(benchmark::kMillisecond);

}  // namespace
