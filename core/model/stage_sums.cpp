#include "model/stage_sums.hpp"

#include <algorithm>
#include <climits>

namespace geotrain {

namespace {

using namespace stage_sums_detail;

// The largest count in 0..most at which the stage fits. The bytes grow with
// the count (each product and sum is monotone in it), so a binary search
// finds where the test turns false.
template <bool kGroups>
int fits_up_to(const CostModel& m, int gpu, int layers, bool last, int most) {
  int low = 0, high = most;  // fits at low (0: vacuously), unknown above
  while (low < high) {
    const int mid = low + (high - low + 1) / 2;
    if (fits<kGroups>(m, gpu, layers, last, mid, m.layer_memory_bytes(mid))) low = mid;
    else high = mid - 1;
  }
  return low;
}

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

}  // namespace

void stage_sums(const CostModel& model, const Stage* stages, int count, StageSums* sums) {
  if (model.has_prices())
    return model.has_groups() ? fill_sums<true, true>(model, stages, count, sums)
                              : fill_sums<false, true>(model, stages, count, sums);
  return model.has_groups() ? fill_sums<true, false>(model, stages, count, sums)
                            : fill_sums<false, false>(model, stages, count, sums);
}

}  // namespace geotrain
