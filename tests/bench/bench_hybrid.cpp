// Hybrid (stage-group) planning at scale, issue 8's targets: the 64-A100
// example (64 GPUs x 80 layers) <= 1 s and a 64-node pool (512 GPUs x 128
// layers) <= 10 s natively at default settings. Counters: the plan's T_iter,
// GPUs used and stages, layouts screened, and the pipeline-only memetic's T.
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>

#include "api/planner.hpp"
#include "model/input_error.hpp"
#include "model/problem_json.hpp"
#include "node_pool.hpp"

namespace {

using namespace geotrain;

Problem example(const char* name) {
  std::ifstream in(std::string(GEOTRAIN_EXAMPLES_DIR) + "/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return parse_problem_text(text.str()).problem;
}

void run_hybrid(benchmark::State& state, const Problem& problem) {
  const PreparedProblem prepared = prepare_problem(problem, {});
  SolveResult result;
  for (auto _ : state) result = run_method(prepared, {});
  state.counters["T_s"] = result.cost.iteration_s;
  int gpus = 0;
  for (const Stage& s : result.plan) gpus += result.layout[static_cast<std::size_t>(s.gpu)].size();
  state.counters["gpus"] = gpus;
  state.counters["stages"] = static_cast<double>(result.plan.size());
  state.counters["layouts"] = result.layouts_tried;
  Problem pipeline = problem;
  pipeline.search.parallelism = Parallelism::pipeline;
  try {
    const PreparedProblem alone = prepare_problem(pipeline, {});
    state.counters["pipelineT_s"] = run_method(alone, {}).cost.iteration_s;
  } catch (const PlanningError&) {
    state.counters["pipelineT_s"] = -1;  // no pipeline-only plan fits in memory
  }
}

void BM_HybridExample64(benchmark::State& state) { run_hybrid(state, example("llama70b-64xa100.json")); }
BENCHMARK(BM_HybridExample64)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_HybridNodePool(benchmark::State& state) {
  run_hybrid(state, bench::node_pool(static_cast<int>(state.range(0)), static_cast<int>(state.range(1))));
}
BENCHMARK(BM_HybridNodePool)
    ->ArgNames({"nodes", "L"})
    ->Args({8, 80})->Args({16, 96})->Args({32, 128})->Args({64, 128})
    ->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
