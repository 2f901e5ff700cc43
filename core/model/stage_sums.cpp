#include "model/stage_sums.hpp"

#include <algorithm>
#include <climits>

namespace geotrain {

namespace {

// Whether `layers` layers on `gpu` fit at `count` stages: evaluate's test,
// written the same way (the same products and sums), so it decides alike.
template <bool kGroups>
bool fits(const CostModel& m, int gpu, int layers, bool last, int count) {
  double bytes = layers * (kGroups ? m.layer_memory_bytes(gpu, count) : m.layer_memory_bytes(count));
  if (last) bytes += kGroups ? m.head_memory_bytes(gpu) : m.head_memory_bytes();
  return bytes <= m.memory_limit_bytes(gpu);
}

// The largest count in 0..most at which the stage fits. The bytes grow with
// the count (each product and sum is monotone in it), so a binary search
// finds where the test turns false.
template <bool kGroups>
int fits_up_to(const CostModel& m, int gpu, int layers, bool last, int most) {
  int low = 0, high = most;  // fits at low (0: vacuously), unknown above
  while (low < high) {
    const int mid = low + (high - low + 1) / 2;
    if (fits<kGroups>(m, gpu, layers, last, mid)) low = mid;
    else high = mid - 1;
  }
  return low;
}

// One stage's terms, in evaluate's order of operations: comp, then the
// tensor traffic, the send to the next stage and the one to the previous.
struct Terms {
  double tau, comp;
};
template <bool kGroups>
Terms stage_terms(const CostModel& m, int gpu, int layers, int prev_gpu, int next_gpu, bool last) {
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
void fill_sums(const CostModel& m, const Stage* stages, int count, StageSums* sums) {
  const int most = std::min(m.num_gpus(), m.num_layers());
  Running run{0, -1, 0, 0, 0, 0, 0, 0, 0, 0};
  int fits_before = INT_MAX;
  for (int q = 0; q < count; ++q) {
    const int gpu = stages[q].gpu, layers = stages[q].layers;
    const bool last = q + 1 == count;
    const Terms t = stage_terms<kGroups>(m, gpu, layers, q > 0 ? stages[q - 1].gpu : -1,
                                         last ? -1 : stages[q + 1].gpu, last);
    StageSums& s = sums[q];
    s.tau_s = t.tau;
    s.idle_w = m.idle_w(gpu);
    s.active_j = m.active_extra_w(gpu) * t.comp;
    s.sync_s = kGroups ? m.data_parallel_sync_s(gpu, layers, last) : 0.0;
    if (kPriced) {
      s.carbon_idle = m.carbon_idle_g_per_s(gpu), s.carbon_active = m.carbon_active_g_per_s(gpu) * t.comp;
      s.money_idle = m.money_idle_per_s(gpu), s.money_active = m.money_active_per_s(gpu) * t.comp;
    }
    s.fits_up_to = fits_up_to<kGroups>(m, gpu, layers, last, most);
    s.sum_tau_before = run.sum_tau, s.max_tau_before = run.max_tau, s.bottleneck_before = run.bottleneck;
    s.idle_w_before = run.idle_w, s.active_j_before = run.active_j, s.max_sync_before = run.max_sync;
    s.carbon_idle_before = run.carbon_idle, s.carbon_active_before = run.carbon_active;
    s.money_idle_before = run.money_idle, s.money_active_before = run.money_active;
    s.fits_before = fits_before;
    run.add<kGroups, kPriced>(s.tau_s, s.idle_w, s.active_j, s.sync_s, s.carbon_idle, s.carbon_active, s.money_idle,
                              s.money_active, q);
    fits_before = std::min(fits_before, s.fits_up_to);
  }
  for (int q = count - 1, from = INT_MAX; q >= 0; --q) sums[q].fits_from = from = std::min(from, sums[q].fits_up_to);
}

template <bool kGroups, bool kPriced>
PlanCost joined(const CostModel& m, const Stage* prefix, const StageSums* prefix_sums, int head, const Stage* junction,
                int junction_count, const Stage* suffix, const StageSums* suffix_sums, int from,
                int suffix_count) noexcept {
  const int count = head + junction_count + (suffix_count - from);
  const StageSums& before = prefix_sums[head];
  Running run{before.sum_tau_before, before.max_tau_before, before.idle_w_before, before.active_j_before,
              before.max_sync_before, before.carbon_idle_before, before.carbon_active_before,
              before.money_idle_before, before.money_active_before, before.bottleneck_before};
  bool feasible = m.allows_stage_count(count) && count <= before.fits_before &&
                  (from == suffix_count || count <= suffix_sums[from].fits_from);
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
    feasible = feasible && fits<kGroups>(m, gpu, layers, last, count);
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

}  // namespace

void stage_sums(const CostModel& model, const Stage* stages, int count, StageSums* sums) {
  if (model.has_prices())
    return model.has_groups() ? fill_sums<true, true>(model, stages, count, sums)
                              : fill_sums<false, true>(model, stages, count, sums);
  return model.has_groups() ? fill_sums<true, false>(model, stages, count, sums)
                            : fill_sums<false, false>(model, stages, count, sums);
}

PlanCost evaluate_joined(const CostModel& model, const Stage* prefix, const StageSums* prefix_sums, int head,
                         const Stage* junction, int junction_count, const Stage* suffix,
                         const StageSums* suffix_sums, int from, int suffix_count) noexcept {
  if (model.has_prices())
    return model.has_groups() ? joined<true, true>(model, prefix, prefix_sums, head, junction, junction_count, suffix,
                                                   suffix_sums, from, suffix_count)
                              : joined<false, true>(model, prefix, prefix_sums, head, junction, junction_count,
                                                    suffix, suffix_sums, from, suffix_count);
  return model.has_groups() ? joined<true, false>(model, prefix, prefix_sums, head, junction, junction_count, suffix,
                                                  suffix_sums, from, suffix_count)
                            : joined<false, false>(model, prefix, prefix_sums, head, junction, junction_count, suffix,
                                                   suffix_sums, from, suffix_count);
}

}  // namespace geotrain
