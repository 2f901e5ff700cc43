#pragma once
// Lower bounds for exact search: what the stages not yet placed must cost at
// least, whatever GPUs, order and layer split complete the partial plan.
// Every figure here is a relaxation of the cost model (contract: Time,
// Energy): it drops constraints, never adds any, so it can only be lower
// than the cost of any completion. core/EXACT.md explains each one.
#include <vector>

#include "model/cost_model.hpp"

namespace geotrain {

// Figures of the pool the bounds read, computed once per solve.
struct PoolTables {
  // The LM head's FLOPs over one layer's: head_compute_s(g) = rho * layer_compute_s(g) on every GPU.
  double head_in_layers = 0;
  std::vector<double> layer_s;        // one layer, one micro-batch
  std::vector<double> layer_j;        // (P_act - P_idle) * layer_s: a layer's active energy above idle
  std::vector<double> idle_w;
  std::vector<double> min_send_out_s; // cheapest send from the GPU to any other
  // Least fixed part of a stage after the first on the GPU: a middle stage sends
  // to two distinct GPUs, the last sends to one and computes the head, so at
  // least the cheapest send plus the lesser of the second cheapest and the head.
  std::vector<double> stage_fixed_s;
  std::vector<double> one_layer_stage_s;  // layer_s + stage_fixed_s: the least such stage
  std::vector<int> by_layer_s;        // GPUs by layer_s ascending (ties by index)
  std::vector<int> by_layer_j;        // by layer_j ascending
  std::vector<int> by_idle_w;         // by idle power ascending
  std::vector<int> by_memory;         // by memory descending: so also by layer capacity, for any Q
  std::vector<int> by_one_layer_stage_s;
  // The cheapest unordered pairs by round trip send(a, b) + send(b, a),
  // ascending (ties in pair order): the 8 N cheapest, which is where the
  // cheapest unblocked pair almost always is; min_round_trip_s scans every
  // pair only when all of these are blocked. Sorting all N^2 / 2 pairs took
  // longer than a 10 ms time limit at 512 GPUs.
  std::vector<int> pair_first, pair_second;
  std::vector<double> pair_round_trip_s;
  bool pairs_truncated = false;
  std::vector<double> round_trip_s;  // N x N, row-major
};

PoolTables make_pool_tables(const CostModel& model);

// Bounds for `stages` >= 1 stages still to place, from the GPUs not blocked.
struct RemainingBound {
  int capacity_layers = 0;     // most layers `stages` such GPUs hold (relaxed: last stage as a middle one)
  double first_layers_s = 0;   // the `stages` smallest layer_s: one layer on each stage
  double first_layers_j = 0;   // the `stages` smallest layer_j
  double min_layer_s = 0;      // fastest GPU: carries the head at best
  double min_layer_j = 0;
  double idle_w = 0;           // the `stages` smallest idle powers
  double min_send_s = 0;       // cheapest send out of any of them: every stage left has a predecessor
  double min_stage_fixed_s = 0;  // least stage_fixed_s of any of them
  double one_layer_stage_s = 0;  // the `stages`-th least one_layer_stage_s: the slowest stage is no faster
};

// Figures of the stages left that depend on how many layers they take; x
// counts the layers beyond the first on each stage (x = 0..extra_max).
struct RemainingCurves {
  // Least compute time and active energy of those x layers, each GPU taking at
  // most capacity - 1 of them, fastest (cheapest) first; +infinity beyond
  // what they hold.
  std::vector<double> extra_s, extra_j;
  // Least largest stage compute time, stages + x layers and the LM head on
  // the `stages` fastest GPUs: min over splits (n_j >= 0) and the head's GPU h
  // of max_j (n_j + [j = h] rho) * layer_s_j. Faster GPUs never finish later,
  // so the fastest are the best choice; every stage left has its compute and
  // the last its head, so the slowest stage computes at least this long.
  std::vector<double> bottleneck_s;
  struct Event {
    double time_s;  // when the slot's count goes up by one
    int slot;       // 2k: layers GPU k holds; 2k + 1: layers it holds beside the head
  };
  std::vector<Event> events;        // scratch, kept to avoid allocating per node
  std::vector<int> held, scratch_gpus;
  std::vector<int> fastest;         // the GPUs bottleneck_s was last computed for, fastest first
  int fastest_extra_max = -1;       // and up to which x

  RemainingCurves(int num_layers = 0, int num_gpus = 0)
      : extra_s(num_layers + 1), extra_j(num_layers + 1), bottleneck_s(num_layers + 1) {
    events.reserve(2 * num_gpus);
    held.reserve(2 * num_gpus);
    scratch_gpus.reserve(num_gpus);
    fastest.reserve(num_gpus);
  }
};

// Fills `bound` and `curves` for x = 0..extra_max (extra_max < num_layers).
// Returns false when no `stages` GPUs can form the stages (too few GPUs that
// hold a layer, none that holds the last).
bool bound_remaining(const PoolTables& tables, const std::vector<int>& cap_middle, const std::vector<int>& cap_last,
                     const std::vector<char>& blocked, int stages, int extra_max, RemainingBound& bound,
                     RemainingCurves& curves);

// Cheapest round trip between two unblocked GPUs; +infinity when fewer than two.
double min_round_trip_s(const PoolTables& tables, const std::vector<char>& blocked);

// Cheapest links between GPU `gpu` and any unblocked GPU (+infinity when none).
struct NeighbourLinks {
  double forward_s, backward_s, round_trip_s;  // gpu -> x, x -> gpu, both with the same x
};
NeighbourLinks cheapest_neighbour_links(const CostModel& model, int gpu, const std::vector<char>& blocked);

}  // namespace geotrain
