#pragma once
// Every replica plan of a small problem (replicas.md): the ground truth the
// replica search is held against. R replicas (2..R_max, or exactly
// search.replicas; with "auto" one pipeline too), each an ordered sequence of
// Q distinct devices, one stage template (every composition of L into Q),
// and every division of M into R shares >= 1. Devices are single GPUs or,
// with parallelism "hybrid", the groups of every layout of the stage-group
// space (node_shapes.hpp). Deterministic: the first of equal plans wins.
#include "model/cost_model.hpp"
#include "model/problem.hpp"
#include "search/solve_result.hpp"

namespace geotrain {

// Replica plans enumerated at most (about the cost of kBruteForceMaxPlans
// pipeline plans, each replica plan costing a few pipelines).
constexpr double kReplicaBruteForceMaxPlans = 2e7;

// The feasible plan of least objective; optimal = true when the enumeration
// finished. Throws PlanningError when the space exceeds the limit (naming its
// size) or nothing is feasible.
SolveResult brute_force_replicas(const Problem& problem, const CostModel& model, const ProgressCallback& progress = {},
                                 double max_plans = kReplicaBruteForceMaxPlans);

}  // namespace geotrain
