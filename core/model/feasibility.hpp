#pragma once
// Whether any plan fits in memory at all, and if not, why: searches must know
// before they sample (resampling infeasible plans would never end), and users
// need to hear which constraint rules every plan out.
#include <string>

#include "model/cost_model.hpp"
#include "model/problem.hpp"

namespace geotrain {

// True when some stage count Q admits Q distinct GPUs whose memory holds all
// layers, at least one each, with the LM head on the last. Exact, O(N^2 log N).
bool any_feasible_plan(const CostModel& model);

// Most layers any Q-stage plan can hold (0 when Q GPUs cannot each hold one,
// or Q is outside the model's allowed stage counts).
int max_layers_with_stages(const CostModel& model, int stage_count);

// One paragraph for the user when any_feasible_plan is false (about the
// allowed stage counts when the model restricts them).
std::string infeasibility_reason(const CostModel& model, const Problem& problem);

}  // namespace geotrain
