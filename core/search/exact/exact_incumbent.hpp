#pragma once
// First upper bounds for exact search: plans that are cheap to build and, in
// one case, guaranteed to fit in memory whenever any plan does.
#include <cstdint>
#include <vector>

#include "model/cost_model.hpp"
#include "model/plan.hpp"
#include "search/stopwatch.hpp"

namespace geotrain {

// Whether `plan` is a well-formed plan of this model: 1..N stages on distinct
// valid GPUs, each with at least one layer, L layers in all (memory aside).
bool is_plan_of(const CostModel& model, const Plan& plan);

// A plan that fits in memory, or empty when none does: the fewest stages that
// can hold the model (the construction of feasibility.hpp: some GPU last, the
// roomiest of the rest before it), one layer per stage and the rest poured
// onto the fastest stages with room. O(min(N, L) N^2) at worst.
Plan memory_feasible_plan(const CostModel& model);

// Quick candidates: for each stage count Q up to kGreedyMaxStages, the Q
// fastest GPUs that hold a layer, ordered and split by the metis heuristic.
// Some may not fit in memory; the caller evaluates them.
constexpr int kGreedyMaxStages = 64;
std::vector<Plan> greedy_plans(const CostModel& model);

// Best-improvement hill climbing from a feasible plan over small moves: one
// layer across a stage boundary, a stage's GPU swapped for an unused one or
// with another stage's, a stage dropped into a neighbour, a stage split onto
// an unused GPU. Stops at a local optimum, or once it has costed
// `max_evaluations` plans (large pools have many neighbours), counted in
// `evaluations`, or once `deadline` has passed (then the best neighbour seen
// so far is taken). Returns `plan` itself when infeasible.
Plan improve_locally(const CostModel& model, Plan plan, std::int64_t& evaluations,
                     std::int64_t max_evaluations = 200'000, const Deadline& deadline = {});

}  // namespace geotrain
