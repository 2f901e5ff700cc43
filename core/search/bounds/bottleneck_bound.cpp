#include "search/bounds/bottleneck_bound.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <numeric>

namespace geotrain {

namespace {

constexpr int kNone = INT_MIN / 4;  // a role or state that cannot occur
using bottleneck_detail::kSlack;
using bottleneck_detail::layers_within;

int find_root(std::vector<int>& parent, int a) {
  while (parent[a] != a) a = parent[a] = parent[parent[a]];
  return a;
}


// DP state: crossings paid (0, 1, 2 or more), first stage placed, last placed.
int state(int slots, int first, int last) { return slots * 4 + first * 2 + last; }

}  // namespace

namespace bottleneck_detail {

int combine_clusters(const int* dp, int C, int* single_out) {
  // One cluster alone (no crossing), or several: the two ends' clusters pay a
  // crossing each (two if both ends are in one), every other cluster used two.
  int single = kNone, middle_sum = 0;
  int both_gain = kNone;  // best (both ends in c, two crossings) - c's middle value
  int first_gain[2] = {kNone, kNone}, last_gain[2] = {kNone, kNone};
  int first_at[2] = {-1, -1}, last_at[2] = {-1, -1};
  for (int c = 0; c < C; ++c) {
    const int* row = &dp[static_cast<std::size_t>(c) * 12];
    single = std::max(single, row[state(0, 1, 1)]);
    const int middle = std::max(0, row[state(2, 0, 0)]);
    middle_sum += middle;
    const int first = std::max(row[state(1, 1, 0)], row[state(2, 1, 0)]);
    const int last = std::max(row[state(1, 0, 1)], row[state(2, 0, 1)]);
    if (row[state(2, 1, 1)] != kNone) both_gain = std::max(both_gain, row[state(2, 1, 1)] - middle);
    if (first != kNone) {
      const int gain = first - middle;
      if (gain > first_gain[0]) first_gain[1] = first_gain[0], first_at[1] = first_at[0], first_gain[0] = gain, first_at[0] = c;
      else if (gain > first_gain[1]) first_gain[1] = gain, first_at[1] = c;
    }
    if (last != kNone) {
      const int gain = last - middle;
      if (gain > last_gain[0]) last_gain[1] = last_gain[0], last_at[1] = last_at[0], last_gain[0] = gain, last_at[0] = c;
      else if (gain > last_gain[1]) last_gain[1] = gain, last_at[1] = c;
    }
  }
  if (single_out) *single_out = single;
  int best = single;
  if (both_gain != kNone) best = std::max(best, middle_sum + both_gain);
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b)
      if (first_at[a] >= 0 && last_at[b] >= 0 && first_at[a] != last_at[b])
        best = std::max(best, middle_sum + first_gain[a] + last_gain[b]);
  return best;
}

}  // namespace bottleneck_detail

double largest_tau_s(const CostModel& model, const Plan& plan) {
  double largest = 0;
  for (std::size_t q = 0; q < plan.size(); ++q) {
    const int g = plan[q].gpu;
    double tau = plan[q].layers * (model.layer_compute_s(g) + model.tensor_layer_s(g));
    tau += q + 1 < plan.size() ? model.send_s(g, plan[q + 1].gpu) : model.head_compute_s(g);
    if (q > 0) tau += model.send_s(g, plan[q - 1].gpu);
    largest = std::max(largest, tau);
  }
  return largest;
}

BottleneckTables make_bottleneck_tables(const CostModel& model) {
  BottleneckTables t;
  const int n = model.num_gpus();
  t.num_gpus = n;
  t.num_layers = model.num_layers();
  t.head_in_layers = n > 0 ? model.head_compute_s(0) / model.layer_compute_s(0) : 0;
  // Clusters: the sites, when the pool names two or more (issue 23: sites
  // whose own networks differ, a lab's 10 Gbps beside a data centre's 400,
  // fall apart under the link rule below, one cluster per GPU, and the
  // floors with them). On one site, GPUs joined by a link (either way)
  // within twice the cheapest send. Any partition gives valid floors.
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  if (model.num_sites() >= 2) {
    std::vector<int> first_of_site(static_cast<std::size_t>(model.num_sites()), -1);
    for (int g = 0; g < n; ++g) {
      int& first = first_of_site[static_cast<std::size_t>(model.site_of(g))];
      if (first < 0) first = g;
      parent[g] = first;
    }
  } else {
    double cheapest = INFINITY;
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b)
        if (a != b) cheapest = std::min(cheapest, model.send_s(a, b));
    for (int a = 0; a < n; ++a)
      for (int b = a + 1; b < n; ++b)
        if (std::min(model.send_s(a, b), model.send_s(b, a)) <= 2 * cheapest)
          parent[find_root(parent, b)] = find_root(parent, a);
  }
  t.cluster_of.assign(n, -1);
  std::vector<int> id_of_root(n, -1);
  for (int g = 0; g < n; ++g) {
    const int r = find_root(parent, g);
    if (id_of_root[r] < 0) id_of_root[r] = t.num_clusters++;
    t.cluster_of[g] = id_of_root[r];
  }
  for (int g = 0; g < n; ++g) {
    double i1 = INFINITY, i2 = INFINITY, c1 = INFINITY, c2 = INFINITY;
    for (int h = 0; h < n; ++h) {
      if (h == g) continue;
      const double s = model.send_s(g, h);
      double &first = t.cluster_of[h] == t.cluster_of[g] ? i1 : c1, &second = &first == &i1 ? i2 : c2;
      if (s < first) second = first, first = s;
      else second = std::min(second, s);
    }
    t.layer_s.push_back(model.layer_compute_s(g));
    t.intra1_s.push_back(i1), t.intra2_s.push_back(i2), t.cross1_s.push_back(c1), t.cross2_s.push_back(c2);
  }
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      const double trip = model.send_s(a, b) + model.send_s(b, a);
      t.min_round_trip_s = std::min(t.min_round_trip_s, trip);
      if (t.cluster_of[a] != t.cluster_of[b]) t.min_cross_round_trip_s = std::min(t.min_cross_round_trip_s, trip);
    }
  t.most_stages = std::min({n, t.num_layers, model.most_stages()});
  t.cap_middle.assign(static_cast<std::size_t>(t.most_stages + 1) * n, 0);
  t.cap_last.assign(t.cap_middle.size(), 0);
  // Row q bounds plans of q or more stages: capacities only shrink as the
  // stage count grows, so the least allowed count >= q gives the most.
  for (int q = 1; q <= t.most_stages; ++q) {
    const int count = std::max(q, model.fewest_stages());
    if (count > t.most_stages) break;
    for (int g = 0; g < n; ++g) {
      t.cap_middle[static_cast<std::size_t>(q) * n + g] = model.max_layers(g, count, false);
      t.cap_last[static_cast<std::size_t>(q) * n + g] = model.max_layers(g, count, true);
    }
  }
  return t;
}

int path_capacity(const BottleneckTables& t, const CostModel& model, double x_s, const std::vector<char>& blocked,
                  int open_gpu, int stage_count, CapacityScratch& scratch, int* single_out) {
  const int n = t.num_gpus, C = t.num_clusters;
  if (single_out) *single_out = kNone;
  if (stage_count > t.most_stages) return kNone;
  const double x = x_s * (1 + kSlack), rho = t.head_in_layers;
  const int* mid_cap = &t.cap_middle[static_cast<std::size_t>(stage_count) * n];
  const int* last_cap = &t.cap_last[static_cast<std::size_t>(stage_count) * n];
  std::vector<int>& dp = scratch.dp;
  dp.assign(static_cast<std::size_t>(C) * 12, kNone);
  for (int c = 0; c < C; ++c) dp[c * 12] = 0;
  for (int g = 0; g < n; ++g) {
    if (blocked[g] || mid_cap[g] < 1) continue;
    const double ts = t.layer_s[g], i1 = t.intra1_s[g], i2 = t.intra2_s[g], c1 = t.cross1_s[g], c2 = t.cross2_s[g];
    const double back = open_gpu >= 0 ? model.send_s(g, open_gpu) : 0.0;
    struct Role {
      int layers, slots, first, last;
    };
    const Role roles[] = {
        {layers_within(x - i1 - i2, ts, 0, mid_cap[g]), 0, 0, 0},  // middle, both neighbours in the cluster
        {layers_within(x - i1 - c1, ts, 0, mid_cap[g]), 1, 0, 0},
        {layers_within(x - c1 - c2, ts, 0, mid_cap[g]), 2, 0, 0},
        {layers_within(x - back - i1, ts, 0, mid_cap[g]), 0, 1, 0},  // first of the run
        {layers_within(x - back - c1, ts, 0, mid_cap[g]), 1, 1, 0},
        {layers_within(x - i1, ts, rho, last_cap[g]), 0, 0, 1},  // last: one send back and the head
        {layers_within(x - c1, ts, rho, last_cap[g]), 1, 0, 1},
        // The run is this one stage (after an open stage only; whole plans have two).
        {open_gpu >= 0 ? layers_within(x - back, ts, rho, last_cap[g]) : 0, 0, 1, 1},
    };
    int* row = &dp[static_cast<std::size_t>(t.cluster_of[g]) * 12];
    int before[12];
    std::copy(row, row + 12, before);
    for (const Role& r : roles) {
      if (r.layers < 1) continue;
      for (int s = 0; s < 12; ++s) {
        if (before[s] == kNone) continue;
        const int slots = s / 4, first = (s >> 1) & 1, last = s & 1;
        if ((first && r.first) || (last && r.last)) continue;
        const int to = state(std::min(2, slots + r.slots), first | r.first, last | r.last);
        row[to] = std::max(row[to], before[s] + r.layers);
      }
    }
  }
  return bottleneck_detail::combine_clusters(dp.data(), C, single_out);
}

double root_bottleneck_floor_s(const BottleneckTables& t, const CostModel& model, bool single_cluster) {
  const int stage_count = 2;  // row 2: every plan of two or more stages
  if (stage_count > t.most_stages) return 0;
  const std::vector<char> blocked(t.num_gpus, 0);
  CapacityScratch scratch;
  const auto holds = [&](double x) {
    int single = kNone;
    const int all = path_capacity(t, model, x, blocked, -1, stage_count, scratch, &single);
    return (single_cluster ? single : all) >= t.num_layers;
  };
  double lo = 0, hi = 1e-6;
  while (!holds(hi)) {
    lo = hi, hi *= 2;
    // No such plan fits: inside one cluster, none at all (so no floor for
    // them); over all, no claim.
    if (hi > 1e12) return single_cluster ? INFINITY : 0.0;
  }
  for (int step = 0; step < 100 && hi - lo > 1e-7 * hi; ++step) {
    const double mid = 0.5 * (lo + hi);
    (holds(mid) ? hi : lo) = mid;
  }
  return lo;
}

double plan_time_floor_s(const BottleneckTables& t, const CostModel& model, double floor_s, double single_floor_s) {
  if (t.num_gpus < 2) return 0;
  const double fastest_s = *std::min_element(t.layer_s.begin(), t.layer_s.end());
  const double compute_s = (t.num_layers + t.head_in_layers) * fastest_s, later = model.micro_batches() - 1;
  const auto times_later = [later](double s) { return later > 0 ? later * s : 0.0; };  // never 0 * inf
  const double inside_s = compute_s + t.min_round_trip_s + times_later(std::max(floor_s, single_floor_s));
  const double across_s = compute_s + t.min_cross_round_trip_s + times_later(floor_s);
  const double least = std::min(inside_s, across_s);
  return least < INFINITY ? least : 0.0;  // (cannot be NaN: every term is >= 0)
}

}  // namespace geotrain

