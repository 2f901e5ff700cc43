#pragma once
// Whether every stage of a plan has the same group shape (tensor degree t and
// data shards d), which Megatron-Core, DeepSpeed and the PyTorch template
// need, and the nearest plan that has one.
#include <string>
#include <vector>

#include "model/group_plan.hpp"
#include "model/problem.hpp"

namespace geotrain {

struct PlanShape {
  int tensor_parallel = 1;  // t of every stage when uniform, else the smallest
  int data_parallel = 1;    // d of every stage when uniform, else the smallest
  std::vector<std::string> mixed;  // one sentence per degree that differs between stages
  bool uniform() const { return mixed.empty(); }
};

PlanShape plan_shape(const GroupPlan& plan);

// Every stage cut down to t tensor ranks of d shards: stage q keeps
// gpus[j*t_q + i] for j < d, i < t, in that order, and its layers. With t and
// d the smallest degrees in the plan this is the nearest uniform plan (no
// stage changes its layers; stages only lose GPUs). Precondition: t <= t_q and
// d <= d_q for every stage.
GroupPlan uniform_subplan(const GroupPlan& plan, int tensor_parallel, int data_parallel);

}  // namespace geotrain
