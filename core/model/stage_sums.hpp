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
#include <algorithm>
#include <climits>
#include <type_traits>
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

// Inline: crossover costs several candidates per pair of parents, and the
// call would cost a tenth of the candidate.
namespace stage_sums_detail {

// Whether `layers` layers on `gpu` fit at `count` stages: evaluate's test,
// written the same way (the same products and sums), so it decides alike.
// `layer_bytes` is m.layer_memory_bytes(count), which a plan's stages share.
template <bool kGroups>
inline bool fits(const CostModel& m, int gpu, int layers, bool last, int count, double layer_bytes) {
  double bytes = layers * (kGroups ? m.layer_memory_bytes(gpu, count) : layer_bytes);
  if (last) bytes += kGroups ? m.head_memory_bytes(gpu) : m.head_memory_bytes();
  return bytes <= m.memory_limit_bytes(gpu);
}

// One stage's terms, in evaluate's order of operations: comp, then the
// tensor traffic, the send to the next stage and the one to the previous.
struct Terms {
  double tau, comp;
};
template <bool kGroups>
inline Terms stage_terms(const CostModel& m, int gpu, int layers, int prev_gpu, int next_gpu, bool last) {
  double comp = layers * m.layer_compute_s(gpu);
  if (last) comp += m.head_compute_s(gpu);
  double tau = comp;
  if (kGroups) tau += layers * m.tensor_layer_s(gpu);
  if (!last) tau += m.send_s(gpu, next_gpu);
  if (prev_gpu >= 0) tau += m.send_s(gpu, prev_gpu);
  return {tau, comp};
}

// The running sums of evaluate, continued one stage at a time.
struct Running {
  double sum_tau, max_tau, idle_w, active_j, max_sync, carbon_idle, carbon_active, money_idle, money_active;
  int bottleneck;
  template <bool kGroups, bool kPriced>
  void add(double tau, double idle, double active, double sync, double c_idle, double c_active, double m_idle,
           double m_active, int q) {
    sum_tau += tau;
    if (tau > max_tau) max_tau = tau, bottleneck = q;
    idle_w += idle;
    active_j += active;
    if (kPriced) carbon_idle += c_idle, carbon_active += c_active, money_idle += m_idle, money_active += m_active;
    if (kGroups) max_sync = std::max(max_sync, sync);
  }
};

template <bool kGroups, bool kPriced>
inline PlanCost joined(const CostModel& m, const Stage* prefix, const StageSums* prefix_sums, int head, const Stage* junction,
                int junction_count, const Stage* suffix, const StageSums* suffix_sums, int from,
                int suffix_count) noexcept {
  const int count = head + junction_count + (suffix_count - from);
  const StageSums& before = prefix_sums[head];
  Running run{before.sum_tau_before, before.max_tau_before, before.idle_w_before, before.active_j_before,
              before.max_sync_before, before.carbon_idle_before, before.carbon_active_before,
              before.money_idle_before, before.money_active_before, before.bottleneck_before};
  bool feasible = m.allows_stage_count(count) && count <= before.fits_before &&
                  (from == suffix_count || count <= suffix_sums[from].fits_from);
  const double layer_bytes = m.layer_memory_bytes(count);
  for (int k = 0; k < junction_count; ++k) {
    const int q = head + k, gpu = junction[k].gpu, layers = junction[k].layers;
    const bool last = q + 1 == count;
    const int prev_gpu = k > 0 ? junction[0].gpu : head > 0 ? prefix[head - 1].gpu : -1;
    const int next_gpu = k + 1 < junction_count ? junction[k + 1].gpu : last ? -1 : suffix[from].gpu;
    const Terms t = stage_terms<kGroups>(m, gpu, layers, prev_gpu, next_gpu, last);
    double c_idle = 0, c_active = 0, m_idle = 0, m_active = 0;
    if (kPriced) {
      c_idle = m.carbon_idle_g_per_s(gpu), c_active = m.carbon_active_g_per_s(gpu) * t.comp;
      m_idle = m.money_idle_per_s(gpu), m_active = m.money_active_per_s(gpu) * t.comp;
    }
    run.add<kGroups, kPriced>(t.tau, m.idle_w(gpu), m.active_extra_w(gpu) * t.comp,
                              kGroups ? m.data_parallel_sync_s(gpu, layers, last) : 0.0, c_idle, c_active, m_idle,
                              m_active, q);
    feasible = feasible & fits<kGroups>(m, gpu, layers, last, count, layer_bytes);
  }
  for (int j = from, q = head + junction_count; j < suffix_count; ++j, ++q) {
    const StageSums& s = suffix_sums[j];
    run.add<kGroups, kPriced>(s.tau_s, s.idle_w, s.active_j, s.sync_s, s.carbon_idle, s.carbon_active, s.money_idle,
                              s.money_active, q);
  }
  // evaluate's closing formulas, term for term.
  PlanCost cost;
  cost.iteration_s = run.sum_tau + (m.micro_batches() - 1.0) * run.max_tau;
  if (kGroups) cost.iteration_s += run.max_sync;
  cost.energy_j = cost.iteration_s * run.idle_w + m.micro_batches() * run.active_j;
  if (kPriced) {
    cost.carbon_g = cost.iteration_s * run.carbon_idle + m.micro_batches() * run.carbon_active;
    cost.cost = cost.iteration_s * run.money_idle + m.micro_batches() * run.money_active;
    cost.objective = m.objective(cost.iteration_s, cost.energy_j, cost.carbon_g, cost.cost);
  } else {
    cost.objective = m.objective(cost.iteration_s, cost.energy_j);
  }
  cost.feasible = feasible;
  cost.bottleneck = run.bottleneck;
  return cost;
}

}  // namespace stage_sums_detail

// The cost of the plan prefix[0, head) + junction[0, junction_count) +
// suffix[from, suffix_count), where prefix and suffix are plans with their
// stage_sums, head < prefix's count, junction_count is 1 or 2, the
// junction's first GPU is prefix[head]'s, its last is suffix[from - 1]'s,
// and from >= 1: crossover's candidates. The figures of
// CostModel::evaluate on the joined list.
inline PlanCost evaluate_joined(const CostModel& model, const Stage* prefix, const StageSums* prefix_sums, int head,
                                const Stage* junction, int junction_count, const Stage* suffix,
                                const StageSums* suffix_sums, int from, int suffix_count) noexcept {
  const auto with = [&](auto groups, auto priced) {
    return stage_sums_detail::joined<decltype(groups)::value, decltype(priced)::value>(
        model, prefix, prefix_sums, head, junction, junction_count, suffix, suffix_sums, from, suffix_count);
  };
  using Yes = std::true_type;
  using No = std::false_type;
  if (model.has_prices()) return model.has_groups() ? with(Yes{}, Yes{}) : with(No{}, Yes{});
  return model.has_groups() ? with(Yes{}, No{}) : with(No{}, No{});
}

}  // namespace geotrain
