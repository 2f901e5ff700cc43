#pragma once
// Plan files: {"stages": [{"gpu": "g3", "layers": 4},
//                         {"gpus": ["n0g0", "n0g1"], "tensor_parallel": 2, "layers": 8}]},
// first stage first. `{"gpu": X}` is `{"gpus": [X], "tensor_parallel": 1}`.
#include <nlohmann/json.hpp>

#include "model/group_plan.hpp"
#include "model/plan.hpp"
#include "model/problem.hpp"

namespace geotrain {

// Checks ids, distinct GPUs, layer counts >= 1 summing to L and, for groups,
// one site per group, tensor_parallel dividing the group (and, when the model
// gives num_attention_heads, the heads and H) and the data shards dividing the
// micro-batch size; throws InputError listing every fault. Other
// top-level fields are ignored, so the output of `geotrain solve` is itself a
// valid plan file.
GroupPlan parse_group_plan(const nlohmann::json& document, const Problem& problem);
// The same, for the paper's space: every stage must be one GPU.
Plan parse_plan(const nlohmann::json& document, const Problem& problem);

// A plan file's own `micro_batch_size` (the u `solve` chose with
// search.micro_batch_size "auto"), checked to divide the global batch; 0 when
// the plan has none (then it is at the problem's u).
std::int64_t parse_plan_micro_batch_size(const nlohmann::json& document, const Problem& problem);

// Single-GPU stages print as {"gpu", "layers"}, as before stage groups.
nlohmann::json plan_to_json(const GroupPlan& plan, const Problem& problem);
nlohmann::json plan_to_json(const Plan& plan, const Problem& problem);

}  // namespace geotrain
