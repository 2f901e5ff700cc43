#include "search/bounds/lower_bounds.hpp"

#include <algorithm>
#include <cmath>

namespace geotrain {

namespace {

// GPU indices ordered by key ascending, ties by index: a total order, so the
// same on every platform.
std::vector<int> order_by(const std::vector<double>& key) {
  std::vector<int> order(key.size());
  for (int g = 0; g < static_cast<int>(order.size()); ++g) order[g] = g;
  std::stable_sort(order.begin(), order.end(), [&key](int a, int b) { return key[a] < key[b]; });
  return order;
}

// Least cost of `extra_max` layers poured onto GPUs in `order`, each taking at
// most cap_middle - 1: cost[x] for every prefix x; +infinity past capacity.
void fill_extra_layers(const std::vector<int>& order, const std::vector<double>& per_layer,
                       const std::vector<int>& cap_middle, const std::vector<char>& blocked, int extra_max,
                       double* cost) {
  cost[0] = 0;
  int x = 0;
  for (int g : order) {
    if (x >= extra_max) break;
    if (blocked[g]) continue;
    for (int slot = 1; slot < cap_middle[g] && x < extra_max; ++slot, ++x) cost[x + 1] = cost[x] + per_layer[g];
  }
  for (++x; x <= extra_max; ++x) cost[x] = INFINITY;
}

// Sum of key over the first `count` unblocked GPUs in `order`; false if fewer.
bool sum_first(const std::vector<int>& order, const std::vector<double>& key, const std::vector<char>& blocked,
               int count, double& sum, double& first) {
  sum = 0;
  int taken = 0;
  for (int g : order) {
    if (taken == count) break;
    if (blocked[g]) continue;
    if (taken == 0) first = key[g];
    sum += key[g], ++taken;
  }
  return taken == count;
}

// curves.bottleneck_s[x] for x = 0..extra_max; see RemainingCurves.
//
// Sweeps the makespan X upwards. At X, GPU j holds c_j = floor(X / t_j)
// layers alone, or d_j = floor(X / t_j - rho) beside the head (-1 while the
// head alone does not fit); with the head on h the stages hold at most
// sum_j c_j - (c_h - d_h) layers, and the first X at which the best h reaches
// a layer count is that count's bound. c_j and d_j step up at the event times
// (c_j + 1) t_j and (d_j + 1 + rho) t_j. Nothing fits before the head fits on
// the fastest GPU, so the sweep starts there, and c_h - d_h is within one of
// rho (it is floor(y) - floor(y - rho)), so a four-bin histogram tracks its
// minimum in O(1).
void fill_bottleneck(const PoolTables& tables, const std::vector<char>& blocked, int stages, int extra_max,
                     RemainingCurves& curves) {
  using Event = RemainingCurves::Event;
  std::vector<int>& gpus = curves.scratch_gpus;
  gpus.clear();
  for (int g : tables.by_layer_s) {
    if (static_cast<int>(gpus.size()) == stages) break;
    if (!blocked[g]) gpus.push_back(g);
  }
  // The curve depends on these GPUs alone, and sibling nodes mostly share
  // them: keep the last one when it covers this request.
  if (gpus == curves.fastest && extra_max <= curves.fastest_extra_max) return;
  curves.fastest = gpus;
  curves.fastest_extra_max = extra_max;

  const double rho = tables.head_in_layers, start_s = rho * tables.layer_s[gpus[0]];
  // Losses below the window cannot occur (rounding aside, which only shifts
  // an event by an ulp); losses above it are counted as its top, which can
  // only lower the bound.
  const int base = std::max(0, static_cast<int>(std::floor(rho)) - 1);
  int bins[4] = {0, 0, 0, 0};
  const auto bin = [base](int loss) { return std::min(3, std::max(0, loss - base)); };
  std::vector<int>& held = curves.held;  // slot 2k: c of GPU k; slot 2k + 1: d of GPU k
  std::vector<Event>& heap = curves.events;
  held.assign(2 * stages, 0);
  heap.clear();
  int sum_c = 0;
  for (int k = 0; k < stages; ++k) {
    const double t = tables.layer_s[gpus[k]];
    int c = static_cast<int>(start_s / t);  // then settled on the products themselves
    while ((c + 1) * t <= start_s) ++c;
    while (c > 0 && c * t > start_s) --c;
    const int d = rho * t <= start_s ? 0 : -1;
    held[2 * k] = c, held[2 * k + 1] = d, sum_c += c;
    if (d >= 0) ++bins[bin(c - d)];
    heap.push_back({(c + 1) * t, 2 * k});
    heap.push_back({(d + 1 + rho) * t, 2 * k + 1});
  }
  // std heaps keep the greatest on top: "greater" is the earlier time, ties by slot.
  const auto later = [](const Event& a, const Event& b) {
    return a.time_s > b.time_s || (a.time_s == b.time_s && a.slot > b.slot);
  };
  std::make_heap(heap.begin(), heap.end(), later);
  int reached = stages - 1;  // bottleneck_s is set for layer counts up to here
  double now_s = start_s;
  while (true) {
    int least = 0;
    while (least < 4 && bins[least] == 0) ++least;
    for (const int capacity = sum_c - (base + least); reached < capacity && reached < stages + extra_max;)
      curves.bottleneck_s[++reached - stages] = now_s;
    if (reached >= stages + extra_max) return;
    std::pop_heap(heap.begin(), heap.end(), later);
    Event& event = heap.back();
    now_s = event.time_s;
    const int k = event.slot / 2;
    int &c = held[2 * k], &d = held[2 * k + 1];
    if (d >= 0) --bins[bin(c - d)];
    const bool is_head = event.slot % 2 == 1;
    const int count = is_head ? ++d : ++c;
    sum_c += !is_head;
    if (d >= 0) ++bins[bin(c - d)];
    const double t = tables.layer_s[gpus[k]];
    event.time_s = is_head ? (count + 1 + rho) * t : (count + 1) * t;  // products, as the cost model forms them
    std::push_heap(heap.begin(), heap.end(), later);
  }
}

}  // namespace

PoolTables make_pool_tables(const CostModel& model) {
  const int n = model.num_gpus();
  PoolTables t;
  t.head_in_layers = n > 0 ? model.head_compute_s(0) / model.layer_compute_s(0) : 0;
  std::vector<double> memory_desc(n);
  for (int g = 0; g < n; ++g) {
    t.layer_s.push_back(model.layer_compute_s(g));
    t.layer_j.push_back(model.bound_active_extra_w(g) * model.layer_compute_s(g));
    double out = INFINITY, second = INFINITY;
    for (int h = 0; h < n; ++h) {
      if (h == g) continue;
      const double send = model.send_s(g, h);
      if (send < out) second = out, out = send;
      else second = std::min(second, send);
    }
    t.min_send_out_s.push_back(out);
    t.stage_fixed_s.push_back(out + std::min(second, model.head_compute_s(g)));
    t.one_layer_stage_s.push_back(t.layer_s[g] + t.stage_fixed_s[g]);
    t.idle_w.push_back(model.bound_idle_w(g));
    memory_desc[g] = -model.memory_limit_bytes(g);
  }
  t.by_layer_s = order_by(t.layer_s);
  t.by_layer_j = order_by(t.layer_j);
  t.by_idle_w = order_by(t.idle_w);
  t.by_memory = order_by(memory_desc);
  t.by_one_layer_stage_s = order_by(t.one_layer_stage_s);
  struct Pair {
    double trip_s;
    int index, first, second;  // index: position in a < b order, the tie-break
  };
  std::vector<Pair> pairs;
  t.round_trip_s.assign(static_cast<std::size_t>(n) * n, INFINITY);
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      const double trip = model.send_s(a, b) + model.send_s(b, a);
      t.round_trip_s[static_cast<std::size_t>(a) * n + b] = t.round_trip_s[static_cast<std::size_t>(b) * n + a] = trip;
      pairs.push_back({trip, static_cast<int>(pairs.size()), a, b});
    }
  const auto cheaper = [](const Pair& x, const Pair& y) {
    return x.trip_s < y.trip_s || (x.trip_s == y.trip_s && x.index < y.index);
  };
  const std::size_t kept = std::min(pairs.size(), static_cast<std::size_t>(8) * n);
  std::nth_element(pairs.begin(), pairs.begin() + kept, pairs.end(), cheaper);
  std::sort(pairs.begin(), pairs.begin() + kept, cheaper);
  t.pairs_truncated = kept < pairs.size();
  for (std::size_t k = 0; k < kept; ++k) {
    t.pair_first.push_back(pairs[k].first);
    t.pair_second.push_back(pairs[k].second);
    t.pair_round_trip_s.push_back(pairs[k].trip_s);
  }
  return t;
}

bool bound_remaining(const PoolTables& tables, const std::vector<int>& cap_middle, const std::vector<int>& cap_last,
                     const std::vector<char>& blocked, int stages, int extra_max, RemainingBound& bound,
                     RemainingCurves& curves) {
  // Largest memory first is largest capacity first, middle and last alike.
  int capacity = 0, taken = 0, last_capable = 0;
  for (int g : tables.by_memory) {
    if (taken == stages) break;
    if (blocked[g]) continue;
    if (taken == 0) last_capable = cap_last[g];
    capacity += cap_middle[g], ++taken;
  }
  if (taken < stages || last_capable < 1) return false;
  bound.capacity_layers = capacity;
  double unused = 0;
  sum_first(tables.by_layer_s, tables.layer_s, blocked, stages, bound.first_layers_s, bound.min_layer_s);
  sum_first(tables.by_layer_j, tables.layer_j, blocked, stages, bound.first_layers_j, bound.min_layer_j);
  sum_first(tables.by_idle_w, tables.idle_w, blocked, stages, bound.idle_w, unused);
  bound.min_send_s = bound.min_stage_fixed_s = INFINITY;
  for (std::size_t g = 0; g < blocked.size(); ++g)
    if (!blocked[g]) {
      bound.min_send_s = std::min(bound.min_send_s, tables.min_send_out_s[g]);
      bound.min_stage_fixed_s = std::min(bound.min_stage_fixed_s, tables.stage_fixed_s[g]);
    }
  taken = 0;
  for (int g : tables.by_one_layer_stage_s) {
    if (blocked[g]) continue;
    bound.one_layer_stage_s = tables.one_layer_stage_s[g];
    if (++taken == stages) break;
  }
  fill_extra_layers(tables.by_layer_s, tables.layer_s, cap_middle, blocked, extra_max, curves.extra_s.data());
  fill_extra_layers(tables.by_layer_j, tables.layer_j, cap_middle, blocked, extra_max, curves.extra_j.data());
  fill_bottleneck(tables, blocked, stages, extra_max, curves);
  return true;
}

double min_round_trip_s(const PoolTables& tables, const std::vector<char>& blocked) {
  for (std::size_t k = 0; k < tables.pair_first.size(); ++k)
    if (!blocked[tables.pair_first[k]] && !blocked[tables.pair_second[k]]) return tables.pair_round_trip_s[k];
  if (!tables.pairs_truncated) return INFINITY;
  // Every kept pair is blocked: the least over all unblocked pairs, directly.
  const std::size_t n = blocked.size();
  double least = INFINITY;
  for (std::size_t a = 0; a < n; ++a) {
    if (blocked[a]) continue;
    for (std::size_t b = a + 1; b < n; ++b)
      if (!blocked[b]) least = std::min(least, tables.round_trip_s[a * n + b]);
  }
  return least;
}

NeighbourLinks cheapest_neighbour_links(const CostModel& model, int gpu, const std::vector<char>& blocked) {
  NeighbourLinks links{INFINITY, INFINITY, INFINITY};
  for (int x = 0; x < model.num_gpus(); ++x) {
    if (blocked[x] || x == gpu) continue;
    const double forward = model.send_s(gpu, x), backward = model.send_s(x, gpu);
    links.forward_s = std::min(links.forward_s, forward);
    links.backward_s = std::min(links.backward_s, backward);
    links.round_trip_s = std::min(links.round_trip_s, forward + backward);
  }
  return links;
}

}  // namespace geotrain
