#pragma once
// Every plan of two or more stages of a small pool, for the bounds' tests: a floor must lie below
// what every such plan reaches.
#include <algorithm>
#include <functional>
#include <vector>

#include "model/cost_model.hpp"
#include "model/plan.hpp"

namespace geotrain::testing {

// Each stage's tau: its layers, the send on to the next stage (the head on the last) and the send
// back to the one before.
struct StageTauFigures {
  double largest_s = 0, sum_s = 0;
};
inline StageTauFigures stage_taus(const CostModel& model, const Plan& plan) {
  StageTauFigures out;
  for (std::size_t q = 0; q < plan.size(); ++q) {
    const int g = plan[q].gpu;
    double tau = plan[q].layers * model.layer_compute_s(g);
    tau += q + 1 < plan.size() ? model.send_s(g, plan[q + 1].gpu) : model.head_compute_s(g);
    if (q > 0) tau += model.send_s(g, plan[q - 1].gpu);
    out.largest_s = std::max(out.largest_s, tau);
    out.sum_s += tau;
  }
  return out;
}

// Calls visit(plan, cost) for every feasible plan of >= 2 stages (distinct GPUs, every split).
inline void for_each_feasible_plan(const CostModel& model, const std::function<void(const Plan&, const PlanCost&)>& visit) {
  const int n = model.num_gpus();
  Plan plan;
  std::vector<char> used(static_cast<std::size_t>(n), 0);
  std::function<void(int)> extend = [&](int left) {
    for (int g = 0; g < n; ++g) {
      if (used[g]) continue;
      used[g] = 1;
      for (int layers = 1; layers <= left; ++layers) {
        plan.push_back({g, layers});
        if (layers < left) {
          extend(left - layers);
        } else if (plan.size() >= 2) {
          const PlanCost cost = model.evaluate(plan);
          if (cost.feasible) visit(plan, cost);
        }
        plan.pop_back();
      }
      used[g] = 0;
    }
  };
  extend(model.num_layers());
}

}  // namespace geotrain::testing
