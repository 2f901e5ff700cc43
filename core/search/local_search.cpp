#include "search/local_search.hpp"

#include <algorithm>

namespace geotrain {

namespace {

struct Transfer {
  int worst = -1, best = -1;
};

// Alg. 4, lines 2-5, with ties to the lower stage index.
Transfer pick_stages(const CostModel& model, const int* gpu, const int* layers, const int* capacity, int count) {
  Transfer t;
  double worst_load = 0, best_load = 0;
  for (int q = 0; q < count; ++q) {
    const double load = layers[q] * model.layer_compute_s(gpu[q]);
    if (layers[q] >= 2 && (t.worst < 0 || load > worst_load)) t.worst = q, worst_load = load;
  }
  for (int q = 0; q < count; ++q) {
    const double load = layers[q] * model.layer_compute_s(gpu[q]);
    if (q != t.worst && layers[q] < capacity[q] && (t.best < 0 || load < best_load)) t.best = q, best_load = load;
  }
  return t;
}

// Alg. 4's loop with each stage's capacity given.
int rebalance_within(const CostModel& model, const int* stage_gpu, int* stage_layers, int stage_count,
                     const int* capacity);

}  // namespace

int rebalance_layers(const CostModel& model, const int* stage_gpu, int* stage_layers, int stage_count,
                     int* capacity_scratch) {
  int* capacity = capacity_scratch;
  for (int q = 0; q < stage_count; ++q) capacity[q] = model.max_layers(stage_gpu[q], stage_count, q + 1 == stage_count);
  return rebalance_within(model, stage_gpu, stage_layers, stage_count, capacity);
}

namespace {

int rebalance_within(const CostModel& model, const int* stage_gpu, int* stage_layers, int stage_count,
                     const int* capacity) {
  // Each step lowers the largest load of the pair it touches below the old
  // maximum, so the sorted loads fall lexicographically and the loop ends;
  // the bound only guards against a flaw in that argument.
  const int max_steps = model.num_layers() * stage_count + 1;
  int steps = 0;
  while (steps < max_steps) {
    const Transfer t = pick_stages(model, stage_gpu, stage_layers, capacity, stage_count);
    if (t.worst < 0 || t.best < 0) break;
    const double time_worst = model.layer_compute_s(stage_gpu[t.worst]);
    const double time_best = model.layer_compute_s(stage_gpu[t.best]);
    if (time_best >= time_worst) break;  // line 6: best's GPU must be strictly faster
    const int n_worst = stage_layers[t.worst], n_best = stage_layers[t.best];
    auto pair_max = [&](int moved) {
      return std::max((n_worst - moved) * time_worst, (n_best + moved) * time_best);
    };

    // Lines 7-10: the first count at which best is at least as loaded as worst.
    const int most = std::min(capacity[t.best] - n_best, n_worst - 1);
    int delta = most;
    for (int i = 1; i < most; ++i)
      if ((n_best + i) * time_best >= (n_worst - i) * time_worst) {
        delta = i;
        break;
      }
    if (delta > 1 && pair_max(delta - 1) < pair_max(delta)) --delta;  // Delta overshoots unless it balances exactly
    if (!(pair_max(delta) < pair_max(0))) break;

    stage_layers[t.worst] -= delta;
    stage_layers[t.best] += delta;
    ++steps;
  }
  return steps;
}

}  // namespace

bool rebalance_capacity(Chromosome& child, OperatorContext& context) {
  OperatorContext::Scratch& scratch = context.scratch();
  // The child's own stage list: no decoding.
  const std::vector<Stage>& stages = stages_of(child);
  const int count = static_cast<int>(stages.size());
  int* gpu = scratch.stage_gpu.data();
  int* layers = scratch.stage_layers.data();
  int* capacity = scratch.stage_capacity.data();
  for (int q = 0; q < count; ++q) {
    gpu[q] = stages[q].gpu, layers[q] = stages[q].layers;
    capacity[q] = context.max_layers(gpu[q], count, q + 1 == count);
  }
  if (rebalance_within(context.model(), gpu, layers, count, capacity) == 0) return false;
  // Same GPUs in the same order: the genes changed exactly when a count did.
  bool changed = false;
  for (int q = 0; q < count; ++q) changed = changed || layers[q] != stages[q].layers;
  if (!changed) return false;
  // Costed from the stage list it already has: the same figures as the genes give.
  Stage* refined = scratch.stages_child.data();
  for (int q = 0; q < count; ++q) refined[q] = Stage{gpu[q], layers[q]};
  const PlanCost cost = context.evaluate(refined, count);
  if (!cost.feasible || cost.objective > child.cost.objective) return false;
  assign_stages(child, refined, count);
  child.cost = cost;
  return true;
}

}  // namespace geotrain
