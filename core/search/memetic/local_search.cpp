#include "search/memetic/local_search.hpp"

#include <algorithm>
#include <vector>

namespace geotrain {

namespace {

struct Transfer {
  int worst = -1, best = -1;
};

// Alg. 4, lines 2-5, with ties to the lower stage index, in one pass.
// `time[q]`: one layer's compute time on stage q's GPU. Best is the least
// loaded stage with room, which may be the worst itself: then the loop
// stops at line 6 (a stage is not faster than itself), as it does with the
// paper's best (the least loaded other stage with room). For that one
// carries the worst's load too (the worst's is the largest and the least),
// and a move onto it raises it above that, so it is never an improvement.
Transfer pick_stages(const double* time, const int* layers, const int* capacity, int count) {
  int worst = -1, least = -1;
  double worst_load = 0, least_load = 0;
  // Selects, not branches: which stage wins is data, mispredicted as a branch.
  for (int q = 0; q < count; ++q) {
    const double load = layers[q] * time[q];
    const bool worse = (layers[q] >= 2) & ((worst < 0) | (load > worst_load));
    worst = worse ? q : worst;
    worst_load = worse ? load : worst_load;
    const bool lesser = (layers[q] < capacity[q]) & ((least < 0) | (load < least_load));
    least = lesser ? q : least;
    least_load = lesser ? load : least_load;
  }
  return Transfer{worst, least};
}

// Alg. 4's loop with each stage's capacity and layer time given.
int rebalance_within(int num_layers, const double* time, int* stage_layers, int stage_count, const int* capacity);

}  // namespace

int rebalance_layers(const CostModel& model, const int* stage_gpu, int* stage_layers, int stage_count,
                     int* capacity_scratch) {
  int* capacity = capacity_scratch;
  std::vector<double> time(static_cast<std::size_t>(stage_count));
  for (int q = 0; q < stage_count; ++q) {
    capacity[q] = model.max_layers(stage_gpu[q], stage_count, q + 1 == stage_count);
    time[q] = model.layer_compute_s(stage_gpu[q]);
  }
  return rebalance_within(model.num_layers(), time.data(), stage_layers, stage_count, capacity);
}

namespace {

int rebalance_within(int num_layers, const double* time, int* stage_layers, int stage_count, const int* capacity) {
  // Each step lowers the largest load of the pair it touches below the old
  // maximum, so the sorted loads fall lexicographically and the loop ends;
  // the bound only guards against a flaw in that argument.
  const int max_steps = num_layers * stage_count + 1;
  int steps = 0;
  while (steps < max_steps) {
    const Transfer t = pick_stages(time, stage_layers, capacity, stage_count);
    if (t.worst < 0 || t.best < 0) break;
    const double time_worst = time[t.worst];
    const double time_best = time[t.best];
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
  int* layers = scratch.stage_layers.data();
  int* capacity = scratch.stage_capacity.data();
  double* time = scratch.stage_time.data();
  for (int q = 0; q < count; ++q) {
    layers[q] = stages[q].layers;
    capacity[q] = context.max_layers(stages[q].gpu, count, q + 1 == count);
    time[q] = context.model().layer_compute_s(stages[q].gpu);
  }
  if (rebalance_within(context.num_layers(), time, layers, count, capacity) == 0)
    return false;
  // Same GPUs in the same order: the genes changed exactly when a count did.
  bool changed = false;
  for (int q = 0; q < count; ++q) changed = changed || layers[q] != stages[q].layers;
  if (!changed) return false;
  // Costed from the stage list it already has: the same figures as the genes give.
  Stage* refined = scratch.stages_child.data();
  for (int q = 0; q < count; ++q) refined[q] = Stage{stages[q].gpu, layers[q]};
  const PlanCost cost = context.evaluate(refined, count);
  if (!cost.feasible || cost.objective > child.cost.objective) return false;
  replace_stages(child, refined, count);
  child.cost = cost;
  return true;
}

}  // namespace geotrain
