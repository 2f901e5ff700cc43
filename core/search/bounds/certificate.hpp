#pragma once
// A certificate for any plan: a proven lower bound on the objective of every
// plan of the model, and the plan's gap to it. Computed from the pool alone
// (no search): the tables exact's bounds use, O(N^2), then one relaxation per
// stage count, O(N + L log N) each, so a few milliseconds even at 512 GPUs x
// 128 layers. Exact methods tighten it with what their search proved.
#include "model/cost_model.hpp"
#include "search/solve_result.hpp"

namespace geotrain {

// At most the objective of every feasible plan of `model` (stage counts it
// allows): Q = 1 exactly, every other Q by exact's root relaxation with no
// stage placed (core/EXACT.md, "Lower bounds"). +infinity when no plan fits.
double objective_lower_bound(const CostModel& model);

struct Certificate {
  double lower_bound = 0;  // objective units, at most result's objective
  double gap = 0;          // (objective - lower_bound) / objective, in [0, 1]; meaningless for an infeasible plan
  double elapsed_ms = 0;   // what computing it cost
};

// result.plan must be a plan of `model`. Uses result.optimal and result.gap
// (exact's proof) when they say more.
Certificate certify(const CostModel& model, const SolveResult& result);

// The same from a bound `relaxation` already proven for every plan of the
// result's space (e.g. pool_relaxation.hpp's), raised by the result's own
// proof; elapsed_ms is left 0 for the caller, who computed the bound.
Certificate certify_with_bound(double relaxation, const SolveResult& result);

}  // namespace geotrain
