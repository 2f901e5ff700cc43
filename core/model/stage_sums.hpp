#pragma once
// A plan's cost from pieces of other plans (issue 10.5). Crossover's
// candidate prefix[:cut] + suffix[cut:] keeps every stage of the prefix
// parent before the junction and every stage of the suffix parent after it
// with the same neighbours' GPUs (the junction's stages run on the GPUs of
// the parents' stages there), so those stages add to T_iter, E_iter, C_iter
// and M_iter exactly what they add in their parent. StageSums keeps, per
// stage of a plan, its own terms and the running sums before it, in the
// order CostModel::evaluate adds them: a candidate then costs a table
// lookup for its prefix, the junction's one or two stages in full, and one
// addition per term for each suffix stage. Every figure is the one
// evaluate gives on the joined stage list, bit for bit.
#include <vector>

#include "model/cost_model.hpp"
#include "model/plan.hpp"

namespace geotrain {

struct StageSums {
  // The stage's own terms, as evaluate computes them in its plan.
  double tau_s = 0, idle_w = 0, active_j = 0, sync_s = 0;
  double carbon_idle = 0, carbon_active = 0, money_idle = 0, money_active = 0;
  int fits_up_to = 0;  // the largest plan stage count at which it fits its GPU's memory (0: none)
  // Over the stages before this one, accumulated in plan order.
  double sum_tau_before = 0, max_tau_before = -1, idle_w_before = 0, active_j_before = 0, max_sync_before = 0;
  double carbon_idle_before = 0, carbon_active_before = 0, money_idle_before = 0, money_active_before = 0;
  int bottleneck_before = 0;  // first stage of the largest tau before this one
  int fits_before = 0;        // min fits_up_to before this one (INT_MAX for the first)
  int fits_from = 0;          // min fits_up_to of this stage and every later one
};

// sums[0, count) for the plan stages[0, count) (distinct, valid devices).
void stage_sums(const CostModel& model, const Stage* stages, int count, StageSums* sums);
inline std::vector<StageSums> stage_sums(const CostModel& model, const Plan& plan) {
  std::vector<StageSums> sums(plan.size());
  stage_sums(model, plan.data(), static_cast<int>(plan.size()), sums.data());
  return sums;
}

// The cost of the plan prefix[0, head) + junction[0, junction_count) +
// suffix[from, suffix_count), where prefix and suffix are plans with their
// stage_sums, head < prefix's count, junction_count is 1 or 2, the
// junction's first GPU is prefix[head]'s, its last is suffix[from - 1]'s,
// and from >= 1: crossover's candidates. The figures of
// CostModel::evaluate on the joined list.
PlanCost evaluate_joined(const CostModel& model, const Stage* prefix, const StageSums* prefix_sums, int head,
                         const Stage* junction, int junction_count, const Stage* suffix,
                         const StageSums* suffix_sums, int from, int suffix_count) noexcept;

}  // namespace geotrain
