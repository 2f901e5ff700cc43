#pragma once
// A lower bound on the largest stage time of every plan of two or more
// stages, from each GPU's own sends and the clusters (sites) the links reveal,
// and a search that raises it (core/EXACT.md, "The bottleneck floor").
//
// At a makespan X, GPU g holds at most floor((X - its sends) / layer_s(g))
// layers in a stage, minus rho on the last. Its sends go to its neighbours:
// to one of its own cluster at least its cheapest send inside the cluster, to
// any other at least its cheapest send out of it. Any partition of the GPUs
// gives a valid bound; the one used joins GPUs with a link within twice the
// pool's cheapest send (the sites, on the usual networks). A plan that uses
// more than one cluster crosses between them: every cluster but the ones
// holding its two ends pays two crossings, those pay one. The most layers a
// plan can hold at X is at most the best such assignment; the least X where
// that reaches L bounds every plan's largest tau from below.
#include <cmath>
#include <cstdint>
#include <climits>
#include <vector>

#include "model/cost_model.hpp"

namespace geotrain {

namespace bottleneck_detail {
// Makespans are compared a little above the stated x: the bounds sum sends
// in another order than the cost model, so a stage exactly at x must count.
constexpr double kSlack = 1e-9;
// Layers a stage with `budget_s` left after its sends holds at per-layer time
// t, less `minus` layers' worth (the head), at most `memory`; 0 if not one.
inline int layers_within(double budget_s, double t, double minus, int memory) {
  if (!(budget_s > 0)) return 0;
  const double v = budget_s / t - minus;
  if (!(v >= 1)) return 0;
  return v >= memory ? memory : static_cast<int>(v);
}
// The clusters' DP rows (12 states each: crossings paid 0/1/2+, first
// stage placed, last placed; kNoState where a state cannot occur) combined
// into the most layers a whole plan holds: one cluster alone, or two end
// clusters and every other cluster's best "entered and left" value.
// `single`, when given, receives the best of one cluster alone.
constexpr int kNoState = INT_MIN / 4;
int combine_clusters(const int* dp, int clusters, int* single = nullptr);
}  // namespace bottleneck_detail

struct BottleneckTables {
  int num_gpus = 0, num_layers = 0, num_clusters = 0;
  double head_in_layers = 0;  // rho
  std::vector<int> cluster_of;
  std::vector<double> layer_s;
  // Cheapest and second cheapest send out of the GPU to its own cluster
  // (intra) and to the others (cross); +infinity where there are not enough.
  std::vector<double> intra1_s, intra2_s, cross1_s, cross2_s;
  // [q * N + g]: the most layers g holds as a stage of a plan of q or more
  // stages (max_layers at the least allowed count >= q); q = 1..most.
  std::vector<int> cap_middle, cap_last;
  int most_stages = 0;
  double min_round_trip_s = INFINITY;        // send(a, b) + send(b, a), any pair
  double min_cross_round_trip_s = INFINITY;  // a and b in different clusters
};

BottleneckTables make_bottleneck_tables(const CostModel& model);

// The largest stage time tau_q of `plan` as the cost model forms it: its
// layers' compute, its sends to both neighbours, and the head on the last
// stage (the ceiling the floors search up to, from a known plan).
double largest_tau_s(const CostModel& model, const Plan& plan);

// Scratch for path_capacity, sized once.
struct CapacityScratch {
  std::vector<int> dp;  // clusters x 12
};

// At most the number of layers a run of stages on the unblocked GPUs can hold
// with every tau <= x_s. With open_gpu < 0: whole plans of two or more
// stages, each GPU's memory at `stage_count`. With open_gpu >= 0: the stages
// after open_gpu's (the first of them sends back to it), at least one of
// them, memory at `stage_count` (a lower bound of the plan's stage count).
// `single`, when given, receives the bound for runs inside one cluster.
int path_capacity(const BottleneckTables& t, const CostModel& model, double x_s, const std::vector<char>& blocked,
                  int open_gpu, int stage_count, CapacityScratch& scratch, int* single = nullptr);

// The least x where path_capacity of the whole pool (open_gpu < 0) reaches L,
// found by bisection to a relative 1e-6 and returned a little below, so that
// no plan of >= 2 stages has a largest tau below it. 0 when none is found.
// With `single_cluster`, the same for plans inside one cluster only.
double root_bottleneck_floor_s(const BottleneckTables& t, const CostModel& model, bool single_cluster = false);

// At most T_iter of every plan of >= 2 stages, given that each has a stage
// at least floor_s slow: one inside a cluster has one at least
// single_floor_s slow; one over several crosses at least once, which costs
// the cheapest round trip between clusters. The stages compute L layers
// and the head, at least at the fastest GPU's speed.
double plan_time_floor_s(const BottleneckTables& t, const CostModel& model, double floor_s, double single_floor_s);

}  // namespace geotrain
