// The hard family (tests/hard_family/hard_pool.hpp, issue 23): processor time
// of the memetic run at default settings and of its certificate, per pool.
//   geotrain_bench --benchmark_filter=HardFamily
// Args: GPUs, layers, pool seed, archetype (0 few-of-many, 1 strong-site,
// 2 fast-wan, 3 mixed). Counters: the objective and the proven gap.
#include <benchmark/benchmark.h>

#include <ctime>

#include "api/api.hpp"
#include "api/planner.hpp"
#include "hard_pool.hpp"
#include "model/problem_json.hpp"

namespace geotrain {
namespace {

void BM_HardFamilyMemetic(benchmark::State& state) {
  const hard_family::HardPoolShape shape{static_cast<int>(state.range(0)), static_cast<int>(state.range(1)),
                                         static_cast<std::uint64_t>(state.range(2)),
                                         static_cast<hard_family::Archetype>(state.range(3))};
  SolveOptions options;
  options.time_limit_s = 10;
  const PreparedProblem prepared = prepare_problem(hard_family::hard_pool(shape), options);
  SolveResult result;
  double run_ns = 0, certificate_ns = 0, gap = 0;
  for (auto _ : state) {
    const std::clock_t start = std::clock();
    result = run_method(prepared, options);
    const std::clock_t ran = std::clock();
    gap = solve_result_to_json(prepared, result, {})["gap"].get<double>();
    run_ns = static_cast<double>(ran - start) * 1e9 / CLOCKS_PER_SEC;
    certificate_ns = static_cast<double>(std::clock() - ran) * 1e9 / CLOCKS_PER_SEC;
  }
  state.counters["obj"] = result.cost.objective;
  state.counters["gap"] = gap;
  state.counters["run_cpu_ms"] = run_ns / 1e6;
  state.counters["certificate_cpu_ms"] = certificate_ns / 1e6;
}
BENCHMARK(BM_HardFamilyMemetic)
    ->ArgNames({"N", "L", "seed", "kind"})
    ->ArgsProduct({{64}, {48}, {1, 2, 3}, {0, 1, 2, 3}})
    ->ArgsProduct({{512}, {128}, {1, 2, 3}, {0, 1, 2, 3}})
    ->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace geotrain
