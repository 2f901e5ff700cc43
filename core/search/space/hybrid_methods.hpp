#pragma once
// The non-memetic methods over stage-group layouts (search.parallelism
// "hybrid"). The hybrid space is every choice of shape per node
// (node_shapes.hpp) times every pipeline plan over that layout's devices.
//
// exact / brute force: every choice, each layout solved by the pipeline
//   method; optimal over the hybrid space when every layout was. Refused
//   beyond kHybridExactMaxLayouts choices (a few 8-GPU nodes already have
//   hundreds: use memetic there).
// metis / metis-improved: Metis searches the data and tensor degrees a
//   stage takes; here each uniform shape (every node in the same shape) is
//   one such degree pair, planned by the pipeline baseline, and the fastest
//   plan wins (time only, as Metis ranks).
// uniform: one group per node, tensor parallel across it, every node in file
//   order with the layers split evenly: the plan an engineer writes by hand.
// Every method takes its choices from the LayoutSpace, so each stays inside
// search.engine's space (engine_space.hpp): exact and brute force see only
// the engine's choices, Metis only its uniform shapes, uniform the largest
// shape the engine allows per node.
#include <functional>

#include "search/exact/exact.hpp"
#include "search/space/hybrid_layouts.hpp"

namespace geotrain {

constexpr long long kHybridExactMaxLayouts = 4096;

using LayoutSolver = std::function<SolveResult(const CostModel& model, const ProgressCallback& progress)>;

// Runs `solver` on every choice whose layout has a feasible plan. The budget
// of `settings` is shared out over the layouts still to solve. method "exact".
SolveResult solve_exact_hybrid(const LayoutSpace& space, const ExactSettings& settings,
                               const std::function<Plan(const CostModel&)>& incumbent,
                               const ProgressCallback& progress = {});

SolveResult brute_force_hybrid(const LayoutSpace& space, double max_plans, const ProgressCallback& progress = {});

// `baseline` (run_metis, run_metis_improved) on each uniform shape's layout;
// the plan of least iteration time among the feasible ones (or, when none is
// feasible, of least time).
SolveResult baseline_hybrid(const LayoutSpace& space, const std::function<SolveResult(const CostModel&)>& baseline);

SolveResult uniform_hybrid(const LayoutSpace& space);

}  // namespace geotrain
