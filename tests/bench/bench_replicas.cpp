// Replicas (issue 21): the replica model's evaluation (the refinement's hot
// loop) and the whole search with search.replicas "auto" on the 512-A100
// four-site example, whose target is <= 10 s natively at default settings.
// Counters: the plan's T_iter, replicas and GPUs used.
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>

#include "api/planner.hpp"
#include "model/problem_json.hpp"
#include "model/replica_cost_model.hpp"

namespace {

using namespace geotrain;

Problem example(const char* name) {
  std::ifstream in(std::string(GEOTRAIN_EXAMPLES_DIR) + "/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return parse_problem_text(text.str()).problem;
}

// R replicas of Q one-node stages (tensor parallel 8) on the 512-A100 example,
// replica r on site r mod 4: replicas.md's every term, pipes loaded.
void BM_ReplicaEvaluate(benchmark::State& state) {
  Problem problem = example("geo-512xa100.json");
  problem.network.inter_site->capacity_gbps = 400;  // sends and the ring share the site pipes
  const int R = static_cast<int>(state.range(0)), Q = static_cast<int>(state.range(1));
  ReplicaPlan plan;
  for (int r = 0; r < R; ++r) {
    Replica replica{problem.model.micro_batches() / R, {}};
    for (int q = 0; q < Q; ++q) {
      // Node n of site s holds GPUs 128 s + 8 n .. + 7.
      const int site = r % 4, node = (r / 4) * Q + q, first = 128 * site + 8 * node;
      GroupStage stage{{}, 8, static_cast<int>(problem.model.num_layers) / Q};
      for (int g = 0; g < 8; ++g) stage.gpus.push_back(first + g);
      replica.stages.push_back(stage);
    }
    plan.push_back(replica);
  }
  plan.back().micro_batches += problem.model.micro_batches() % R;
  const PreparedProblem prepared = prepare_problem(problem, {});
  const ReplicaPlanModel model(problem, plan, prepared.model);
  for (auto _ : state) benchmark::DoNotOptimize(model.model.evaluate(model.view()));
  state.SetItemsProcessed(state.iterations());
  state.counters["T_s"] = model.model.evaluate(model.view()).iteration_s;
}
BENCHMARK(BM_ReplicaEvaluate)->ArgNames({"R", "Q"})->Args({4, 16})->Args({8, 8})->Args({16, 4});

void BM_ReplicaSearch512(benchmark::State& state) {
  const Problem problem = example("geo-512xa100.json");
  const PreparedProblem prepared = prepare_problem(problem, {});
  SolveResult result;
  for (auto _ : state) result = run_method(prepared, {});
  state.counters["T_s"] = result.cost.iteration_s;
  state.counters["replicas"] = static_cast<double>(std::max<std::size_t>(1, result.replicas.size()));
  state.counters["gpus"] = gpu_count(result.replicas);
}
BENCHMARK(BM_ReplicaSearch512)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
