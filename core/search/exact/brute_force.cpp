#include "search/exact/brute_force.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "model/input_error.hpp"
#include "model/message_list.hpp"
#include "search/space/plan_space.hpp"

namespace geotrain {

namespace {

struct Enumerator {
  const CostModel& model;
  const ProgressCallback& progress;
  std::vector<Stage> stages;
  std::vector<char> used;
  SolveResult result;
  bool found = false;
  bool cancelled = false;

  void consider() {
    const PlanCost cost = model.evaluate(stages.data(), static_cast<int>(stages.size()));
    ++result.evaluations;
    if (cost.feasible && (!found || cost.objective < result.cost.objective)) {
      found = true;
      result.cost = cost;
      result.plan = stages;
    }
    if (progress && (result.evaluations & 0xFFFFF) == 0) {
      Progress p;
      p.evaluations = result.evaluations;
      p.has_plan = found;
      p.best_plan = result.plan;
      p.best_cost = result.cost;
      cancelled = !progress(p);
    }
  }

  // Stage q of a Q-stage plan with `layers_left` layers still to place.
  void place(int q, int stage_count, int layers_left) {
    if (cancelled) return;
    const bool last = q + 1 == stage_count;
    const int max_here = layers_left - (stage_count - q - 1);  // leave >= 1 per later stage
    for (int g = 0; g < model.num_gpus() && !cancelled; ++g) {
      if (used[g]) continue;
      used[g] = 1;
      stages[q].gpu = g;
      if (last) {
        stages[q].layers = layers_left;
        consider();
      } else {
        for (int n = 1; n <= max_here && !cancelled; ++n) {
          stages[q].layers = n;
          place(q + 1, stage_count, layers_left - n);
        }
      }
      used[g] = 0;
    }
  }
};

}  // namespace

SolveResult brute_force(const CostModel& model, double max_plans, const ProgressCallback& progress) {
  const double space = plan_space_size(model.num_gpus(), model.num_layers());
  if (space > max_plans) {
    // Beyond a double (512 GPUs) the count is "more than 1e308", never "inf".
    char count[64];
    if (space < INFINITY) std::snprintf(count, sizeof count, "%.4g plans", space);
    else std::snprintf(count, sizeof count, "more than 1e308 plans");
    char text[320];
    std::snprintf(text, sizeof text, "brute force refused: %s and %s give %s, more than its limit of %.4g; "
                  "use --method exact or memetic",
                  count_of(model.num_gpus(), "GPU").c_str(), count_of(model.num_layers(), "layer").c_str(), count,
                  max_plans);
    throw PlanningError(text);
  }
  Enumerator e{model, progress, {}, std::vector<char>(model.num_gpus(), 0), {}, false, false};
  e.result.method = "brute-force";
  // Only the model's allowed stage counts (the size check above still counts all).
  const int max_stages = std::min({model.num_gpus(), model.num_layers(), model.most_stages()});
  for (int q = model.fewest_stages(); q <= max_stages && !e.cancelled; ++q) {
    e.stages.assign(q, Stage{});
    e.place(0, q, model.num_layers());
  }
  e.result.stop_reason = e.cancelled ? "cancelled" : "complete";
  e.result.optimal = e.found && !e.cancelled;
  if (!e.found) {
    if (e.cancelled) throw PlanningError("brute force cancelled before it found a feasible plan");
    throw PlanningError("no feasible plan");  // callers explain why (see feasibility.hpp)
  }
  return e.result;
}

}  // namespace geotrain
