#pragma once
// Searches that raise the bottleneck floor and a floor under T_iter itself
// (core/EXACT.md, "The bottleneck floor"): depth-first over GPU sequences,
// pruned by path_capacity (bottleneck_bound.hpp). Deterministic but for the
// deadline: node budgets decide when a test is undecided.
#include <cstdint>
#include <vector>

#include "model/cost_model.hpp"
#include "model/plan.hpp"
#include "search/bounds/bottleneck_bound.hpp"
#include "search/exact/gpu_symmetry.hpp"
#include "search/stopwatch.hpp"

namespace geotrain {

// Raises a floor by deciding, for makespans between `floor_s` and `ceiling_s`,
// whether any plan of >= 2 stages keeps every tau within it (a depth-first
// search over GPU sequences pruned by path_capacity). Stops at the deadline or
// after `max_nodes` nodes in all; a test that exceeds its share counts as
// undecided (deterministic). Plans it meets are offered through `found`.
struct BottleneckProof {
  double floor_s = 0;       // every plan of >= 2 stages has max tau >= this
  std::int64_t nodes = 0;
  int tests = 0;
  bool timed_out = false;
  std::vector<Plan> plans;  // feasible plans met on the way (each with max tau <= its test's x)
};
BottleneckProof prove_bottleneck_floor(const BottleneckTables& t, const CostModel& model, const GpuClasses& classes,
                                       double floor_s, double ceiling_s, std::int64_t max_nodes,
                                       const Deadline& deadline);

// Raises a floor under every plan's T_iter (>= 2 stages) between
// `time_floor_s` and `ceiling_s` by bisection: a target holds when every plan
// whose largest tau is small enough to reach T_iter below it (given the
// pool's least sum of taus) provably has T_iter at least the target: the
// same search, pruned also by the round trips of the path so far.
struct TimeProof {
  double time_floor_s = 0;
  std::int64_t nodes = 0;
  int tests = 0;
};
TimeProof prove_time_floor(const BottleneckTables& t, const CostModel& model, const GpuClasses& classes,
                           double floor_s, double time_floor_s, double ceiling_s, std::int64_t max_nodes,
                           const Deadline& deadline);

}  // namespace geotrain
