#pragma once
// The planner's best few plans (issue 25): what the robustness study compares
// and what search.rank_by "simulated" re-ranks. The method's own plan first,
// then the memetic algorithm's final population at the problem's micro-batch
// size, distinct plans only, best first by the analytic objective.
#include <cstdint>
#include <vector>

#include "api/planner.hpp"
#include "model/group_plan.hpp"

namespace geotrain {

struct CandidatePlan {
  GroupPlan plan;
  std::int64_t micro_batch_size = 0;  // 0: the problem's own u
  PlanCost cost;                      // analytic, on the plan's own model
  // The run that found it, with this plan (plan, layout, cost and u are the
  // candidate's own; evaluations, generations and times are the run's).
  SolveResult result;
};

// At most `count` plans (>= 1), every one feasible when any is. With the
// memetic method on the pipeline space at a fixed u, one run gives them all
// (its best is the plan `solve` prints); otherwise the method runs, then a
// memetic run supplies the rest. Throws as run_method does.
std::vector<CandidatePlan> candidate_plans(const PreparedProblem& prepared, const SolveOptions& options, int count,
                                           const ProgressCallback& progress = {});

}  // namespace geotrain
