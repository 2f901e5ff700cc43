#pragma once
// `geotrain robustness` (docs/simulation.md, "Robustness"): the planner's best
// few plans, each simulated as planned and under many random scenarios of
// link-bandwidth jitter and one straggling GPU, so that a user can prefer the
// plan that degrades least. JSON in, JSON out, like every api/ request.
#include <string>

#include <nlohmann/json.hpp>

#include "api/planner.hpp"
#include "sim/robustness.hpp"

namespace geotrain {

struct RobustnessOptions {
  SolveOptions solve;             // method, seed, time_limit_s, ... of the search
  int plans = 5;                  // candidate plans compared, 1..16
  RobustnessSettings settings;    // scenarios, jitter, straggler_slowdown, sends; seed from the problem's
};

// {"plans": 5, "scenarios": 100, "jitter": 0.3, "straggler_slowdown": 2,
//  "sends": "blocking"|"overlapped", and solve's "method", "seed",
//  "time_limit_s", "lambda", "weights", "parallelism", "micro_batch_size",
//  "stage_count"}; every field optional. The scenario draws take the search's
// seed. Throws InputError naming the field.
RobustnessOptions parse_robustness_options(const nlohmann::json& options);

// Throws InputError (bad problem or options) or PlanningError (no plan fits).
nlohmann::ordered_json robustness_request(const std::string& problem_text, const RobustnessOptions& options);

}  // namespace geotrain
