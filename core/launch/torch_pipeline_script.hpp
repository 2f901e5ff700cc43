#pragma once
// A self-contained Python script template for torch.distributed.pipelining
// (the API as of PyTorch 2.4): the plan's split points, one PipelineStage per
// rank on the GPU the plan chose, Schedule1F1B with the plan's micro-batch
// count, and data-parallel gradient averaging between the shards of a stage.
// The model is a stand-in GPT of the problem's size; the script says where
// to put your own blocks and data.
#include <string>
#include <vector>

#include "launch/rank_map.hpp"
#include "model/group_plan.hpp"
#include "model/problem.hpp"

namespace geotrain {

constexpr const char* kTorchPipeliningVersion = "2.4";

struct TorchPipelineScript {
  bool expressible = false;
  std::string script;                // Python source when expressible
  std::vector<std::string> cannot;   // "cannot express because ..." otherwise
};

TorchPipelineScript torch_pipeline_script(const Problem& problem, const GroupPlan& plan, const RankMap& map);

}  // namespace geotrain
