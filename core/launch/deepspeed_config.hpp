#pragma once
// DeepSpeed's pipeline engine for a plan: a ds_config (batch figures and
// precision) and a PipelineModule whose stage boundaries are the plan's.
//
// What DeepSpeed can express: one GPU per stage, or the same number d of data
// shards in every stage (its PipeDataParallelTopology puts the data rank
// fastest, the stage slowest: rank = stage * d + data rank, the rank map's
// order). What it cannot: tensor parallelism (DeepSpeed's PipelineModule has
// none of its own; Megatron-DeepSpeed adds it, use the Megatron-Core target),
// and stages with different shard counts. Its partition_method offers
// "uniform", "parameters" and "type:regex", all balancing rules, none a
// given split: the module here fixes the plan's boundaries itself.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/group_plan.hpp"
#include "model/problem.hpp"

namespace geotrain {

struct DeepSpeedPipeline {
  bool expressible = false;
  nlohmann::ordered_json config;    // ds_config.json
  std::vector<int> parts;           // layer-spec boundaries: [0, 1 + n_1, ..., L + 2] (embedding and head are specs)
  std::string module;               // Python: the PipelineModule with the plan's boundaries
  std::vector<std::string> cannot;  // "cannot express because ..."
};

DeepSpeedPipeline deepspeed_pipeline(const Problem& problem, const GroupPlan& plan);

}  // namespace geotrain
