#include "search/memetic/site_moves.hpp"

#include <algorithm>
#include <cmath>

namespace geotrain {

namespace {

// One layer's time on a device: compute plus its tensor-parallel traffic.
double per_layer_s(const CostModel& model, int device) {
  return model.layer_compute_s(device) + model.tensor_layer_s(device);
}

double round_trip_s(const CostModel& model, int a, int b) { return model.send_s(a, b) + model.send_s(b, a); }

// Layers stage q holds when no stage may take longer than x: its room after
// its sends, within its memory, at least one.
int held_at(double x, double fixed_s, double layer_s, int capacity) {
  const double room = std::floor((x - fixed_s) / layer_s);
  return room < 1 ? 1 : room >= capacity ? capacity : static_cast<int>(room);
}

long long total_held(double x, const double* fixed_s, const double* layer_s, const int* capacity, int count) {
  long long total = 0;
  for (int q = 0; q < count; ++q) total += held_at(x, fixed_s[q], layer_s[q], capacity[q]);
  return total;
}

// Removes the stages whose flag is set, keeping the order of the others.
void remove_flagged(Stage* stages, int& count, const int* flagged) {
  int kept = 0;
  for (int q = 0; q < count; ++q)
    if (!flagged[q]) stages[kept++] = stages[q];
  count = kept;
}

}  // namespace

bool balance_layers(Stage* stages, int count, OperatorContext& context) {
  const CostModel& model = context.model();
  const int L = model.num_layers();
  if (count < 1 || count > L) return false;
  OperatorContext::Scratch& scratch = context.scratch();
  double* layer_s = scratch.stage_time.data();
  double* fixed_s = scratch.stage_fixed.data();
  int* capacity = scratch.stage_capacity.data();
  long long room = 0;
  double lo = 0, hi = 0;
  for (int q = 0; q < count; ++q) {
    const int g = stages[q].gpu;
    const bool last = q + 1 == count;
    layer_s[q] = per_layer_s(model, g);
    fixed_s[q] = (last ? model.head_compute_s(g) : model.send_s(g, stages[q + 1].gpu)) +
                 (q > 0 ? model.send_s(g, stages[q - 1].gpu) : 0.0);
    capacity[q] = context.max_layers(g, count, last);
    if (capacity[q] < 1) return false;
    room += capacity[q];
    lo = std::max(lo, fixed_s[q] + layer_s[q]);
    hi = std::max(hi, fixed_s[q] + capacity[q] * layer_s[q]);
  }
  if (room < L || !(hi < INFINITY)) return false;
  // The least largest stage time at which the stages hold L layers: a
  // bisection (a fixed number of steps, so the same on every platform).
  double x = lo;
  if (total_held(lo, fixed_s, layer_s, capacity, count) < L) {
    for (int step = 0; step < 64 && lo < hi; ++step) {
      const double mid = lo + 0.5 * (hi - lo);
      if (mid <= lo || mid >= hi) break;
      (total_held(mid, fixed_s, layer_s, capacity, count) >= L ? hi : lo) = mid;
    }
    x = hi;
  }
  long long total = 0;
  for (int q = 0; q < count; ++q) total += stages[q].layers = held_at(x, fixed_s[q], layer_s[q], capacity[q]);
  // Rounding at x may leave a layer or two short: each goes where the stage
  // time after it is least. Layers over go from the slowest stage (then the
  // slowest per layer), which lowers the largest time first.
  for (; total < L; ++total) {
    int best = -1;
    double best_s = INFINITY;
    for (int q = 0; q < count; ++q) {
      const double after = fixed_s[q] + (stages[q].layers + 1) * layer_s[q];
      if (stages[q].layers < capacity[q] && after < best_s) best = q, best_s = after;
    }
    ++stages[best].layers;
  }
  for (; total > L; --total) {
    int worst = -1;
    double worst_s = -1;
    for (int q = 0; q < count; ++q) {
      if (stages[q].layers < 2) continue;
      const double stage_s = fixed_s[q] + stages[q].layers * layer_s[q];
      if (stage_s > worst_s || (stage_s == worst_s && layer_s[q] > layer_s[worst])) worst = q, worst_s = stage_s;
    }
    --stages[worst].layers;
  }
  return true;
}

bool gather_site(Stage* stages, int count, Rng& rng, OperatorContext& context) {
  const CostModel& model = context.model();
  if (model.num_sites() < 2 || count < 3) return false;
  int* runs = context.scratch().positions.data();  // per site: its runs in the pipeline
  std::fill_n(runs, model.num_sites(), 0);
  int split_sites = 0;
  for (int q = 0; q < count; ++q) {
    const int site = model.site_of(stages[q].gpu);
    if (q > 0 && site == model.site_of(stages[q - 1].gpu)) continue;
    if (++runs[site] == 2) ++split_sites;
  }
  if (split_sites == 0) return false;
  // The chosen one among the split sites, in the order the pipeline meets them.
  int pick = static_cast<int>(rng.below(static_cast<std::uint64_t>(split_sites))), site = -1;
  for (int q = 0; q < count && site < 0; ++q) {
    const int s = model.site_of(stages[q].gpu);
    if (runs[s] >= 2 && pick-- == 0) site = s;
    if (runs[s] >= 2) runs[s] = -runs[s];  // met: not counted again
  }
  return gather_site_at(stages, count, site, context);
}

bool gather_site_at(Stage* stages, int count, int site, OperatorContext& context) {
  const CostModel& model = context.model();
  // The site's largest run (by layers; the first of equals) is where the others join.
  int anchor = -1, anchor_layers = 0, runs = 0;
  for (int q = 0; q < count;) {
    int end = q + 1, layers = stages[q].layers;
    while (end < count && model.site_of(stages[end].gpu) == model.site_of(stages[q].gpu)) layers += stages[end++].layers;
    if (model.site_of(stages[q].gpu) == site) {
      ++runs;
      if (layers > anchor_layers) anchor = q, anchor_layers = layers;
    }
    q = end;
  }
  if (runs < 2) return false;
  Stage* gathered = context.scratch().stages_b.data();
  int written = 0;
  for (int q = 0; q < count; ++q) {
    if (q == anchor)
      for (int r = 0; r < count; ++r)
        if (model.site_of(stages[r].gpu) == site) gathered[written++] = stages[r];
    if (model.site_of(stages[q].gpu) != site) gathered[written++] = stages[q];
  }
  std::copy(gathered, gathered + count, stages);
  return balance_layers(stages, count, context);
}

bool drop_site(Stage* stages, int& count, Rng& rng, OperatorContext& context) {
  const CostModel& model = context.model();
  if (model.num_sites() < 2) return false;
  OperatorContext::Scratch& scratch = context.scratch();
  int* seen = scratch.positions.data();
  std::fill_n(seen, model.num_sites(), 0);
  int used = 0;
  for (int q = 0; q < count; ++q) used += seen[model.site_of(stages[q].gpu)]++ == 0;
  if (used < 2) return false;
  // The chosen one among the used sites, in the order the pipeline meets them.
  int pick = static_cast<int>(rng.below(static_cast<std::uint64_t>(used))), site = -1;
  for (int q = 0; q < count && site < 0; ++q) {
    const int s = model.site_of(stages[q].gpu);
    if (seen[s] > 0 && pick-- == 0) site = s;
    seen[s] = 0;
  }
  return drop_site_at(stages, count, site, context);
}

bool drop_site_at(Stage* stages, int& count, int site, OperatorContext& context) {
  const CostModel& model = context.model();
  int* flagged = context.scratch().stage_layers.data();
  int dropped = 0;
  for (int q = 0; q < count; ++q) dropped += flagged[q] = model.site_of(stages[q].gpu) == site;
  if (dropped == 0 || dropped == count) return false;
  remove_flagged(stages, count, flagged);
  return balance_layers(stages, count, context);
}

bool add_site(Stage* stages, int& count, Rng& rng, OperatorContext& context) {
  const CostModel& model = context.model();
  const int L = model.num_layers();
  if (model.num_sites() < 2 || count >= L) return false;
  const std::vector<std::vector<int>>& site_devices = context.site_devices();
  OperatorContext::Scratch& scratch = context.scratch();
  int* used = scratch.positions.data();
  std::fill_n(used, model.num_sites(), 0);
  for (int q = 0; q < count; ++q) used[model.site_of(stages[q].gpu)] = 1;
  int free_sites = 0;
  for (int s = 0; s < model.num_sites(); ++s) free_sites += !used[s] && !site_devices[static_cast<std::size_t>(s)].empty();
  if (free_sites == 0) return false;
  int pick = static_cast<int>(rng.below(static_cast<std::uint64_t>(free_sites))), site = 0;
  for (int s = 0; s < model.num_sites(); ++s)
    if (!used[s] && !site_devices[static_cast<std::size_t>(s)].empty() && pick-- == 0) site = s;
  const std::vector<int>& devices = site_devices[static_cast<std::size_t>(site)];
  const int most = std::min({static_cast<int>(devices.size()), L - count, count + 1});
  const int k = 1 + static_cast<int>(rng.below(static_cast<std::uint64_t>(most)));
  return add_site_at(stages, count, site, k, context);
}

bool add_site_at(Stage* stages, int& count, int site, int k, OperatorContext& context) {
  const CostModel& model = context.model();
  for (int q = 0; q < count; ++q)
    if (model.site_of(stages[q].gpu) == site) return false;  // a site the plan does not use
  return grow_site_at(stages, count, site, k, context);
}

bool grow_site(Stage* stages, int& count, Rng& rng, OperatorContext& context) {
  const CostModel& model = context.model();
  const int L = model.num_layers();
  if (count >= L) return false;
  const std::vector<std::vector<int>>& site_devices = context.site_devices();
  int* stages_on = context.scratch().positions.data();  // per site: its stages in the plan
  std::fill_n(stages_on, model.num_sites(), 0);
  for (int q = 0; q < count; ++q) ++stages_on[model.site_of(stages[q].gpu)];
  // The sites the plan uses with a device to spare, in site order.
  int growable = 0;
  for (int s = 0; s < model.num_sites(); ++s)
    growable += stages_on[s] > 0 && stages_on[s] < static_cast<int>(site_devices[static_cast<std::size_t>(s)].size());
  if (growable == 0) return false;
  int pick = static_cast<int>(rng.below(static_cast<std::uint64_t>(growable))), site = 0;
  for (int s = 0; s < model.num_sites(); ++s)
    if (stages_on[s] > 0 && stages_on[s] < static_cast<int>(site_devices[static_cast<std::size_t>(s)].size()) &&
        pick-- == 0)
      site = s;
  const int spare = static_cast<int>(site_devices[static_cast<std::size_t>(site)].size()) - stages_on[site];
  const int most = std::min({spare, L - count, count});
  return grow_site_at(stages, count, site, 1 + static_cast<int>(rng.below(static_cast<std::uint64_t>(most))), context);
}

bool grow_site_at(Stage* stages, int& count, int site, int k, OperatorContext& context) {
  const CostModel& model = context.model();
  if (k < 1 || count + k > model.num_layers()) return false;
  // The site's k fastest devices the plan does not use, fastest first.
  int* added = context.scratch().gpus.data();
  int taken = 0;
  for (int device : context.site_devices()[static_cast<std::size_t>(site)]) {
    if (taken == k) break;
    bool used = false;
    for (int q = 0; q < count && !used; ++q) used = stages[q].gpu == device;
    if (!used) added[taken++] = device;
  }
  if (taken < k) return false;
  // Where the new run costs the least round trips: before stage `at`.
  const int first = added[0], last = added[k - 1];
  int at = 0;
  double best_s = INFINITY;
  for (int p = 0; p <= count; ++p) {
    double added = 0;
    if (p > 0) added += round_trip_s(model, stages[p - 1].gpu, first);
    if (p < count) added += round_trip_s(model, last, stages[p].gpu);
    if (p > 0 && p < count) added -= round_trip_s(model, stages[p - 1].gpu, stages[p].gpu);
    if (added < best_s) at = p, best_s = added;
  }
  std::copy_backward(stages + at, stages + count, stages + count + k);
  for (int i = 0; i < k; ++i) stages[at + i] = Stage{added[i], 1};
  count += k;
  return balance_layers(stages, count, context);
}

bool move_site(Stage* stages, int& count, Rng& rng, OperatorContext& context) {
  const CostModel& model = context.model();
  if (model.num_sites() < 2) return false;
  const std::vector<std::vector<int>>& site_devices = context.site_devices();
  int* stages_on = context.scratch().positions.data();  // per site: its stages in the plan
  std::fill_n(stages_on, model.num_sites(), 0);
  int used = 0;
  for (int q = 0; q < count; ++q) used += stages_on[model.site_of(stages[q].gpu)]++ == 0;
  // From a used site, in the order the pipeline meets them...
  int pick = static_cast<int>(rng.below(static_cast<std::uint64_t>(used))), from = -1;
  for (int q = 0; q < count && from < 0; ++q) {
    const int site = model.site_of(stages[q].gpu);
    if (stages_on[site] > 0 && pick-- == 0) from = site;
    if (stages_on[site] > 0) stages_on[site] = -stages_on[site];  // met
  }
  // ...to another site with a device to spare, in site order.
  auto spare = [&](int site) {
    return static_cast<int>(site_devices[static_cast<std::size_t>(site)].size()) - std::abs(stages_on[site]);
  };
  int targets = 0;
  for (int site = 0; site < model.num_sites(); ++site) targets += site != from && spare(site) > 0;
  if (targets == 0) return false;
  pick = static_cast<int>(rng.below(static_cast<std::uint64_t>(targets)));
  int to = -1;
  for (int site = 0; site < model.num_sites() && to < 0; ++site)
    if (site != from && spare(site) > 0 && pick-- == 0) to = site;
  return move_site_at(stages, count, from, to, std::min(std::abs(stages_on[from]), spare(to)), context);
}

bool move_site_at(Stage* stages, int& count, int from, int to, int k, OperatorContext& context) {
  const CostModel& model = context.model();
  int* flagged = context.scratch().stage_layers.data();
  int dropped = 0;
  for (int q = 0; q < count; ++q) dropped += flagged[q] = model.site_of(stages[q].gpu) == from;
  if (dropped == 0 || from == to) return false;
  remove_flagged(stages, count, flagged);
  if (count == 0) {  // the plan was all on `from`: the first of `to` starts it
    const std::vector<int>& devices = context.site_devices()[static_cast<std::size_t>(to)];
    if (devices.empty() || k < 1) return false;
    stages[count++] = Stage{devices[0], 1};
    --k;
    if (k == 0) return balance_layers(stages, count, context);
  }
  return grow_site_at(stages, count, to, k, context);
}

bool contract_stages(Stage* stages, int& count, Rng& rng, OperatorContext& context) {
  if (count < 2) return false;
  return contract_by(stages, count, 1 + static_cast<int>(rng.below(static_cast<std::uint64_t>(count / 2))), context);
}

bool contract_by(Stage* stages, int& count, int k, OperatorContext& context) {
  if (k < 1 || k >= count) return false;
  const CostModel& model = context.model();
  int* flagged = context.scratch().stage_layers.data();
  std::fill_n(flagged, count, 0);
  for (int removed = 0; removed < k; ++removed) {  // the slowest per layer, the later of equals
    int slowest = -1;
    for (int q = 0; q < count; ++q)
      if (!flagged[q] && (slowest < 0 || per_layer_s(model, stages[q].gpu) >= per_layer_s(model, stages[slowest].gpu)))
        slowest = q;
    flagged[slowest] = 1;
  }
  remove_flagged(stages, count, flagged);
  return balance_layers(stages, count, context);
}

bool merge_neighbours(Stage* stages, int& count, Rng& rng, OperatorContext& context) {
  if (count < 2) return false;
  const CostModel& model = context.model();
  const int q = static_cast<int>(rng.below(static_cast<std::uint64_t>(count - 1)));
  const bool drop_first = per_layer_s(model, stages[q].gpu) > per_layer_s(model, stages[q + 1].gpu);
  std::copy(stages + q + (drop_first ? 1 : 2), stages + count, stages + q + (drop_first ? 0 : 1));
  --count;
  return balance_layers(stages, count, context);
}

}  // namespace geotrain
