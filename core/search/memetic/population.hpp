#pragma once
// The population side of the memetic algorithm (paper, Sect. 5.2): the
// initial population, tournament selection, deduplication and steady-state
// elitist replacement. A population is a vector of distinct valid
// chromosomes sorted by `fitter` (fittest first).
#include <vector>

#include "search/memetic/chromosome.hpp"
#include "search/random.hpp"
#include "search/stopwatch.hpp"

namespace geotrain {

// Sampling budgets of the initial population, in draws per wanted individual.
constexpr int kUniformDrawsPerIndividual = 20;
constexpr int kCapacityDrawsPerIndividual = 20;

// `size` distinct valid chromosomes, sorted. First the paper's sampler: Q
// uniform in 1..min(L, N), Q - 1 distinct split points, Q distinct GPUs in
// random order; infeasible and duplicate draws are rejected. When its budget
// runs out first (feasible plans are rare), a sampler that only draws
// feasible plans fills the rest: Q among the stage counts some plan can use
// (max_layers_with_stages >= L), a last GPU that can complete such a plan,
// the other GPUs repaired toward the largest capacities until they hold L
// layers, and layers spread at random within the capacities. When both
// budgets are spent (the plan space is smaller than `size`, or nearly all of
// it is duplicates) the population is smaller. Duplicates cost no
// evaluation. Throws PlanningError when no feasible plan exists. Once
// `deadline` has passed, drawing stops as soon as the population holds a
// feasible plan (the time limit covers the whole run).
std::vector<Chromosome> initial_population(int size, Rng& rng, OperatorContext& context,
                                           const Deadline& deadline = {});

// One draw of the paper's sampler: always contiguous, not always feasible.
void draw_uniform_plan(Rng& rng, OperatorContext& context, int* genes);

// The fallback sampler: every plan it draws fits in memory (up to rounding
// at an exact capacity, which the caller's evaluation catches).
class CapacityPlanSampler {
 public:
  explicit CapacityPlanSampler(const CostModel& model);
  // The stage counts Q for which some plan holds all L layers, ascending.
  const std::vector<int>& stage_counts() const { return stage_counts_; }
  // Writes L genes; false only when no stage count is feasible.
  bool draw(Rng& rng, int* genes);

 private:
  const CostModel& model_;
  std::vector<int> stage_counts_;
};

// `count` parent indices into a sorted population of `population_size`:
// each the fittest (lowest index) of `tournament` uniform draws with replacement.
void tournament_select(int population_size, int count, int tournament, Rng& rng, std::vector<int>& parents);

// Sorts offspring[0, count) and drops duplicates among them and those already
// in `population`; returns the number kept (they stay sorted at the front,
// their genes written). Offspring may come with stale genes.
int deduplicate(std::vector<Chromosome>& offspring, int count, const std::vector<Chromosome>& population);
// The same with every gene known to be below `num_gpus` (no scan for the
// bound). With `cutoff`, offspring not fitter than *cutoff are dropped too,
// unsorted, and their stale genes are not written: the memetic loop passes
// a full population's worst member, whom every incumbent beats, so such a
// child could never take a place.
int deduplicate(std::vector<Chromosome>& offspring, int count, const std::vector<Chromosome>& population,
                int num_gpus, const Chromosome* cutoff = nullptr);

// Steady-state elitist replacement: the top `elite` stay; the other places,
// up to `capacity` in all, go to the fittest of the remaining incumbents and
// the (sorted, deduplicated) offspring. With a full population that is "the
// worst incumbents replaced by better offspring, at most capacity - elite of
// them". Chromosomes are swapped, never copied: `offspring` and `spare`
// come back holding recycled buffers.
void steady_state_replace(std::vector<Chromosome>& population, std::vector<Chromosome>& offspring, int count,
                          int elite, int capacity, std::vector<Chromosome>& spare);

}  // namespace geotrain
