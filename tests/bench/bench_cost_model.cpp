// Cost-model evaluations per second: the memetic search's hot loop.
#include <benchmark/benchmark.h>

#include <vector>

#include "model/cost_model.hpp"
#include "search/random.hpp"
#include "api/references.hpp"
#include "scaling_pool.hpp"

namespace {

using namespace geotrain;

// Random contiguous chromosomes: Q stages, random cuts, Q distinct GPUs.
std::vector<std::vector<int>> random_chromosomes(int num_gpus, int num_layers, int count) {
  Rng rng(42);
  std::vector<std::vector<int>> out;
  std::vector<int> gpus(num_gpus);
  for (int c = 0; c < count; ++c) {
    for (int g = 0; g < num_gpus; ++g) gpus[g] = g;
    rng.shuffle(gpus.begin(), gpus.end());
    const int stages = rng.uniform_int(1, std::min(num_gpus, num_layers));
    std::vector<int> genes(num_layers);
    // Stage boundaries at distinct random layers: stage s starts where the s-th cut is.
    std::vector<char> cut(num_layers, 0);
    for (int placed = 1; placed < stages;) {
      const int at = rng.uniform_int(1, num_layers - 1);
      if (!cut[at]) cut[at] = 1, ++placed;
    }
    for (int l = 0, s = 0; l < num_layers; ++l) {
      s += cut[l];
      genes[l] = gpus[s];
    }
    out.push_back(std::move(genes));
  }
  return out;
}

// Evaluations of 1,024 random chromosomes of the problem, round and round.
void evaluate_random_plans(benchmark::State& state, const Problem& problem) {
  CostModel model(problem);
  apply_references(problem, model);
  const auto chromosomes = random_chromosomes(model.num_gpus(), model.num_layers(), 1024);
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(model.evaluate_genes(chromosomes[i].data()));
    i = (i + 1) & 1023;
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_EvaluateGenes(benchmark::State& state) {
  evaluate_random_plans(state, bench::scaling_pool(static_cast<int>(state.range(0)), static_cast<int>(state.range(1))));
}
BENCHMARK(BM_EvaluateGenes)->Args({12, 12})->Args({12, 48})->ArgNames({"N", "L"});

// The same with carbon, money and four weights (objectives.md): sites with a
// grid intensity, PUE and price, and a rent on every GPU, so that the model
// takes its priced path (two more sums per stage).
void BM_EvaluateGenesPriced(benchmark::State& state) {
  Problem problem = bench::scaling_pool(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  double carbon = 50;
  for (Gpu& g : problem.gpus) {
    problem.sites[g.site] = SiteFigures{carbon, 1.2, 0.1};
    carbon += 25;
    g.price_per_hour = 2.5;
  }
  problem.objective.weights = ObjectiveWeights{1, 0.5, 1, 1};
  evaluate_random_plans(state, problem);
}
BENCHMARK(BM_EvaluateGenesPriced)->Args({12, 12})->Args({12, 48})->ArgNames({"N", "L"});

}  // namespace
