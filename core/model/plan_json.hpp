#pragma once
// Plan files: {"stages": [{"gpu": "g3", "layers": 4},
//                         {"gpus": ["n0g0", "n0g1"], "tensor_parallel": 2, "layers": 8}]},
// first stage first. `{"gpu": X}` is `{"gpus": [X], "tensor_parallel": 1}`.
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "model/group_plan.hpp"
#include "model/plan.hpp"
#include "model/problem.hpp"

namespace geotrain {

class FieldReader;

// The GPUs of a plan being read: ids to indices, and which stage (by path)
// already holds each GPU, across every stage list of one plan file.
struct PlanGpuIndex {
  explicit PlanGpuIndex(const Problem& problem);
  std::map<std::string, int> gpu_index;
  std::map<int, std::string> used_by;
};

// `owner`'s "stages" (its path `prefix`, "" at the top), every fault recorded
// in `r`: ids, no GPU twice in `index`, layers >= 1 summing to L, groups on
// one site with t dividing the group and d dividing u.
GroupPlan read_plan_stages(FieldReader& r, const nlohmann::json& owner, const std::string& prefix,
                           const Problem& problem, PlanGpuIndex& index);

// Checks ids, distinct GPUs, layer counts >= 1 summing to L and, for groups,
// one site per group, tensor_parallel dividing the group and the data shards
// dividing the micro-batch size; throws InputError listing every fault. Other
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
