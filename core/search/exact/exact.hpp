#pragma once
// Exact planning by branch and bound: proves the optimum of the weighted
// objective or stops at a budget with the best plan and a proven gap.
// The method, its bounds and why each is valid: core/EXACT.md.
#include <cstdint>

#include "model/cost_model.hpp"
#include "model/plan.hpp"
#include "search/solve_result.hpp"

namespace geotrain {

struct ExactSettings {
  double time_limit_s = 60;                 // wall-clock budget
  std::int64_t max_nodes = 2'000'000'000;   // node budget
  // Raise a floor under every plan's largest stage time before the search
  // (bottleneck_bound.hpp), with up to half the time and max_nodes of its own
  // nodes. Off, exact explores exactly as before (memetic's final step).
  bool bottleneck_floor = true;
  // When: the plain search runs first and, at floor_check_nodes nodes, starts
  // over with the floor if its proven gap is above floor_check_gap (tests
  // set 0 and -1 to use the floor at once).
  std::int64_t floor_check_nodes = 20'000;
  double floor_check_gap = 0.25;
  // Role evaluations each crossing-flow floor (crossing_flow_bound.hpp) may
  // spend; 0 skips them, leaving the floors of the clusters' relaxation and
  // of the searches over GPU sequences (memetic's final step on large pools:
  // the flows cost about a second at 256 GPUs, the searches milliseconds).
  std::int64_t crossing_flow_work = 200'000'000;
  void validate() const;                    // throws std::invalid_argument naming the setting
};

// Proves the optimum or stops at a budget. Returns the best plan found with:
// method "exact", optimal = true and gap = 0 when proven (stop_reason
// "complete"); otherwise optimal = false, gap = (incumbent - best lower
// bound) / incumbent, stop_reason "time_limit" | "node_limit" | "cancelled".
// nodes = search nodes expanded; evaluations = complete plans costed.
// `incumbent` (may be empty; ignored when invalid or infeasible) seeds the
// upper bound; the solver also builds greedy plans of its own.
// The caller guarantees any_feasible_plan(model); otherwise PlanningError.
SolveResult solve_exact(const CostModel& model, const ExactSettings& settings, const Plan& incumbent = {},
                        const ProgressCallback& progress = {});

}  // namespace geotrain
