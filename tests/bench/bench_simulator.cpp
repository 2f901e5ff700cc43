// The 1F1B simulation at scale (issue 25): a 512-GPU geo pool's plan of 512
// one-GPU stages (one layer each) running 1,024 micro-batches, every forward,
// backward and transfer simulated: 1,048,576 operations and 1,046,528
// transfers an iteration. Build (pricing every operation from the cost model)
// and run are measured apart; the run allocates nothing after its first.
#include <benchmark/benchmark.h>

#include "geo_pool.hpp"
#include "model/cost_model.hpp"
#include "sim/simulator.hpp"
#include "sim/timing_builder.hpp"

namespace {

using namespace geotrain;

Problem large_problem() {
  Problem problem = bench::geo_pool({512, 512, 1, false});
  problem.model.micro_batch_size = 1;
  problem.model.global_batch_size = 1024;  // M = 1,024
  return problem;
}

Plan one_layer_each(int gpus) {
  Plan plan;
  for (int g = 0; g < gpus; ++g) plan.push_back(Stage{g, 1});
  return plan;
}

void BM_SimulateBuild512x1024(benchmark::State& state) {
  const Problem problem = large_problem();
  const CostModel model(problem);
  const Plan plan = one_layer_each(512);
  for (auto _ : state) benchmark::DoNotOptimize(pipeline_timings(problem, model, plan));
}
BENCHMARK(BM_SimulateBuild512x1024)->Unit(benchmark::kMillisecond);

void BM_SimulateRun512x1024(benchmark::State& state) {
  const Problem problem = large_problem();
  const PipelineTimings timings = pipeline_timings(problem, CostModel(problem), one_layer_each(512));
  Simulator simulator(timings);
  SimulationOptions options;
  options.sends = state.range(0) ? SendMode::overlapped : SendMode::blocking;
  for (auto _ : state) benchmark::DoNotOptimize(simulator.run(options).iteration_s);
  state.SetItemsProcessed(state.iterations() * (2 * 512 * 1024 + 2 * 511 * 1024));  // operations and transfers
}
BENCHMARK(BM_SimulateRun512x1024)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
