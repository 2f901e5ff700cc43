#pragma once
// Plan files: {"stages": [{"gpu": "g3", "layers": 4}, ...]}, first stage first.
#include <nlohmann/json.hpp>

#include "model/plan.hpp"
#include "model/problem.hpp"

namespace geotrain {

// Checks ids, distinct GPUs, layer counts >= 1 summing to L; throws InputError
// listing every fault. Other top-level fields are ignored, so the output of
// `geotrain solve` is itself a valid plan file.
Plan parse_plan(const nlohmann::json& document, const Problem& problem);

nlohmann::json plan_to_json(const Plan& plan, const Problem& problem);

}  // namespace geotrain
