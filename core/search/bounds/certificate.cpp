#include "search/bounds/certificate.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "search/bounds/bottleneck_bound.hpp"
#include "search/bounds/crossing_flow_bound.hpp"
#include "search/bounds/lower_bounds.hpp"
#include "search/stopwatch.hpp"

namespace geotrain {

namespace {

// Least objective of a one-stage plan: computed, not bounded.
double one_stage_optimum(const CostModel& model) {
  double best = INFINITY;
  for (int g = 0; g < model.num_gpus(); ++g) {
    const Stage stage{g, model.num_layers()};
    const PlanCost cost = model.evaluate(&stage, 1);
    if (cost.feasible) best = std::min(best, cost.objective);
  }
  return best;
}

// The (count)-th smallest one_layer_stage_s among unblocked GPUs (count >= 1).
double kth_one_layer_stage_s(const PoolTables& tables, const std::vector<char>& blocked, int count) {
  int taken = 0;
  for (int g : tables.by_one_layer_stage_s) {
    if (blocked[g]) continue;
    if (++taken == count) return tables.one_layer_stage_s[g];
  }
  return INFINITY;
}

// Each device's second cheapest send out (+infinity with fewer than three devices).
std::vector<double> second_sends_s(const CostModel& model) {
  const int n = model.num_gpus();
  std::vector<double> second(static_cast<std::size_t>(n), INFINITY);
  for (int g = 0; g < n; ++g) {
    double first = INFINITY;
    for (int h = 0; h < n; ++h) {
      if (h == g) continue;
      const double s = model.send_s(g, h);
      if (s < first) second[g] = first, first = s;
      else second[g] = std::min(second[g], s);
    }
  }
  return second;
}

// The least largest stage time of a plan of exactly `stage_count` stages with
// memory at that count (issue 23): a stage on g holds at most
// min(capacity, floor((x - its sends) / layer)) layers within x, a middle one
// after its two cheapest sends, the first after one, the last after one and
// the head. The plan's stage_count devices hold at most the stage_count
// largest middle counts plus the largest gain of a first and of a last role
// (each over any device), which must reach L. Deep pipelines run short of
// memory; few stages are few devices: the curve of the root bound, which
// takes neither into account, says less on pools where memory binds.
double capped_bottleneck_s(const CostModel& model, const PoolTables& tables, const std::vector<double>& second_s,
                           const std::vector<int>& cap_middle, const std::vector<int>& cap_last,
                           const std::vector<char>& blocked, int stage_count, std::vector<int>& held) {
  const int n = model.num_gpus(), L = model.num_layers();
  const auto within = [](double budget_s, double layer_s, int capacity) {
    if (!(budget_s >= layer_s)) return 0;
    const double v = budget_s / layer_s;
    return v >= capacity ? capacity : static_cast<int>(v);
  };
  const auto holds = [&](double x) {
    held.clear();
    int first_gain = -L, last_gain = -L;
    for (int g = 0; g < n; ++g) {
      if (blocked[g]) continue;
      const double t = model.layer_compute_s(g) + model.tensor_layer_s(g), out = tables.min_send_out_s[g];
      const int middle = within(x - out - second_s[g], t, cap_middle[g]);
      held.push_back(middle);
      first_gain = std::max(first_gain, within(x - out, t, cap_middle[g]) - middle);
      last_gain = std::max(last_gain, within(x - out - model.head_compute_s(g), t, cap_last[g]) - middle);
    }
    if (static_cast<int>(held.size()) < stage_count) return false;
    std::nth_element(held.begin(), held.begin() + (stage_count - 1), held.end(), std::greater<int>());
    long long total = static_cast<long long>(first_gain) + last_gain;
    for (int k = 0; k < stage_count; ++k) total += held[static_cast<std::size_t>(k)];
    return total >= L;
  };
  double lo = 0, hi = 1e-6;
  while (!holds(hi)) {
    lo = hi, hi *= 2;
    if (hi > 1e12) return INFINITY;  // these stages never hold the layers
  }
  for (int step = 0; step < 100 && hi - lo > 1e-7 * hi; ++step) {
    const double mid = 0.5 * (lo + hi);
    (holds(mid) ? hi : lo) = mid;
  }
  return lo;
}

// Every plan of Q >= 2 stages: none placed yet, all Q open (EXACT.md's sum,
// largest-tau and energy bounds with k = Q). Every stage after the first
// sends back and then either forward or computes the head, so Q - 1 of them
// are no faster than the (Q - 1)-th least one-layer stage; every stage sends
// at least once, so the slowest computes at least the bottleneck curve plus
// the cheapest send, and at least `floor_max_tau_s` (bottleneck_bound.hpp).
double bound_with_stages(const CostModel& model, const PoolTables& tables, const std::vector<double>& second_s,
                         int stage_count, double floor_max_tau_s, double floor_time_s, RemainingCurves& curves,
                         std::vector<int>& held) {
  const int n = model.num_gpus(), L = model.num_layers(), extra = L - stage_count;
  std::vector<int> cap_middle(n), cap_last(n);
  std::vector<char> blocked(n);
  for (int g = 0; g < n; ++g) {
    cap_middle[g] = model.max_layers(g, stage_count, false);
    cap_last[g] = model.max_layers(g, stage_count, true);
    blocked[g] = cap_middle[g] < 1;
  }
  RemainingBound rest;
  if (extra < 0 || !bound_remaining(tables, cap_middle, cap_last, blocked, stage_count, extra, rest, curves))
    return INFINITY;
  const double rho = tables.head_in_layers, M = model.micro_batches();
  const double compute_s = rest.first_layers_s + curves.extra_s[extra] + rho * rest.min_layer_s;
  if (!(compute_s < INFINITY)) return INFINITY;  // the stages cannot hold the layers
  const double sum_s = compute_s + (stage_count - 1) * min_round_trip_s(tables, blocked);
  const double max_s = std::max({rest.min_send_s + curves.bottleneck_s[extra], sum_s / stage_count,
                                 kth_one_layer_stage_s(tables, blocked, stage_count - 1), floor_max_tau_s,
                                 capped_bottleneck_s(model, tables, second_s, cap_middle, cap_last, blocked,
                                                     stage_count, held)});
  if (!(max_s < INFINITY)) return INFINITY;  // no plan of this many stages holds the layers
  const double time_s = std::max(sum_s + (M - 1.0) * max_s, floor_time_s);
  const double active_j = rest.first_layers_j + curves.extra_j[extra] + rho * rest.min_layer_j;
  const double bound = model.bound_objective(time_s, time_s * rest.idle_w + M * active_j);
  return bound == bound ? bound : 0.0;  // NaN: no claim
}


// Every stage count's root bound with the given floors under the largest
// stage time and T_iter of every plan of two or more stages; `floors`
// raises them first (it gets the cluster tables and their root floors).
template <typename RaiseFloors>
double bound_over_stage_counts(const CostModel& model, RaiseFloors floors) {
  const int L = model.num_layers(), n = model.num_gpus();
  const int most = std::min({n, L, model.most_stages()});
  double bound = INFINITY;
  if (model.allows_stage_count(1)) bound = one_stage_optimum(model);
  if (most < 2) return bound;
  const PoolTables tables = make_pool_tables(model);
  RemainingCurves curves(L, n);
  const BottleneckTables clusters = make_bottleneck_tables(model);
  double floor_max_tau_s = root_bottleneck_floor_s(clusters, model);
  double floor_time_s =
      plan_time_floor_s(clusters, model, floor_max_tau_s, root_bottleneck_floor_s(clusters, model, true));
  floors(clusters, floor_max_tau_s, floor_time_s);
  const std::vector<double> second_s = second_sends_s(model);
  std::vector<int> held;
  for (int q = std::max(2, model.fewest_stages()); q <= most; ++q)
    bound = std::min(bound, bound_with_stages(model, tables, second_s, q, floor_max_tau_s, floor_time_s, curves, held));
  return bound;
}

}  // namespace

double objective_lower_bound(const CostModel& model) {
  return bound_over_stage_counts(model, [](const BottleneckTables&, double&, double&) {});
}

double objective_lower_bound(const CostModel& model, const Plan& plan, const Deadline& deadline) {
  const PlanCost cost = plan.size() >= 2 ? model.evaluate(plan) : PlanCost{};
  return bound_over_stage_counts(model, [&](const BottleneckTables& clusters, double& max_tau_s, double& time_s) {
    CrossingFlow flow(clusters, model);
    if (!flow.usable() || !cost.feasible || deadline.passed()) return;
    // Searched up to the plan's own figures: a floor above them would say
    // nothing about this plan's gap, and the search stops there.
    max_tau_s = std::max(max_tau_s, crossing_bottleneck_floor_s(flow, max_tau_s, largest_tau_s(model, plan),
                                                                kCertificateFlowWork, deadline));
    time_s = std::max(time_s, crossing_time_floor_s(flow, clusters, model, max_tau_s, cost.iteration_s,
                                                    kCertificateFlowWork, deadline));
  });
}

Certificate certify(const CostModel& model, const SolveResult& result) {
  Stopwatch clock;
  Certificate c = certify_with_bound(objective_lower_bound(model), result);
  c.elapsed_ms = clock.elapsed_ms();
  return c;
}

Certificate certify_with_bound(double relaxation, const SolveResult& result) {
  Certificate c;
  const double objective = result.cost.objective;
  double bound = relaxation;
  if (result.optimal.value_or(false)) bound = objective;
  else if (result.gap) bound = std::max(bound, objective * (1.0 - *result.gap));
  // A feasible plan is covered by the bound, so it cannot exceed it but for
  // rounding. An infeasible plan (uniform, metis without a repair that fits)
  // may look cheaper than every feasible one: it gets no gap.
  c.lower_bound = result.cost.feasible ? std::min(bound, objective) : bound;
  c.gap = objective > 0 ? std::clamp((objective - c.lower_bound) / objective, 0.0, 1.0) : 0.0;
  return c;
}

}  // namespace geotrain
