#pragma once
// A certificate for any plan: a proven lower bound on the objective of every
// plan of the model, and the plan's gap to it. Computed from the pool alone
// (no search): the tables exact's bounds use, O(N^2), then one relaxation per
// stage count, O(N + L log N) each, so a few milliseconds even at 512 GPUs x
// 128 layers. Exact methods tighten it with what their search proved.
#include <cstdint>

#include "model/cost_model.hpp"
#include "model/plan.hpp"
#include "search/stopwatch.hpp"
#include "search/solve_result.hpp"

namespace geotrain {

// At most the objective of every feasible plan of `model` (stage counts it
// allows): Q = 1 exactly, every other Q by exact's root relaxation with no
// stage placed (core/EXACT.md, "Lower bounds"). +infinity when no plan fits.
double objective_lower_bound(const CostModel& model);

// The same, raised by the floors that see sites and links (issue 23;
// core/EXACT.md, "Certificates that know sites"): the crossing-flow floors on
// the largest stage time and on T_iter (crossing_flow_bound.hpp), searched up
// to `plan`'s own (a feasible plan of the model, or empty). Work counts decide
// how far they go (at most kCertificateFlowWork role evaluations each, so the
// bound is the same on every platform), unless `deadline` passes first: then
// what they proved so far. Pools too large for the flow tables keep the root.
constexpr std::int64_t kCertificateFlowWork = 200'000'000;
double objective_lower_bound(const CostModel& model, const Plan& plan, const Deadline& deadline);

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
