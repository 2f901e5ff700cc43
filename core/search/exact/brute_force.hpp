#pragma once
// Exhaustive enumeration of every plan: the ground truth for small pools.
#include "model/cost_model.hpp"
#include "search/solve_result.hpp"

namespace geotrain {

// Plans enumerated at most; about 10 s at the cost model's speed.
constexpr double kBruteForceMaxPlans = 1e8;

// The feasible plan of least objective (of equal ones, the first in
// enumeration order: fewer stages first, then GPU order, then split).
// Throws PlanningError when f(N, L) exceeds max_plans or no plan is feasible.
SolveResult brute_force(const CostModel& model, double max_plans = kBruteForceMaxPlans,
                        const ProgressCallback& progress = {});

}  // namespace geotrain
