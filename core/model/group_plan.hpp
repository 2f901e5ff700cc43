#pragma once
// A plan whose stages may be groups of GPUs (stage-groups.md): stage q runs on
// s GPUs of one site, as d = s / t data shards of t tensor-parallel GPUs each.
// Shard j is gpus[j*t .. j*t + t - 1], in that order (its tensor ranks).
// A pipeline Plan is the special case s = t = 1 everywhere.
#include <vector>

#include "model/plan.hpp"

namespace geotrain {

struct GroupStage {
  std::vector<int> gpus;    // indices into Problem::gpus; gpus[0] sends and receives activations
  int tensor_parallel = 1;  // t, divides gpus.size()
  int layers = 0;           // n_q >= 1

  int size() const { return static_cast<int>(gpus.size()); }
  int data_parallel() const { return size() / tensor_parallel; }  // d
  bool single() const { return gpus.size() == 1; }
};

using GroupPlan = std::vector<GroupStage>;

inline GroupPlan to_group_plan(const Plan& plan) {
  GroupPlan out;
  out.reserve(plan.size());
  for (const Stage& s : plan) out.push_back(GroupStage{{s.gpu}, 1, s.layers});
  return out;
}

// Whether every stage is one GPU: then the plan is the paper's, and its
// figures are exactly cost-model.md's.
inline bool is_pipeline(const GroupPlan& plan) {
  for (const GroupStage& s : plan)
    if (!s.single()) return false;
  return true;
}

inline Plan to_pipeline_plan(const GroupPlan& plan) {  // precondition: is_pipeline(plan)
  Plan out;
  out.reserve(plan.size());
  for (const GroupStage& s : plan) out.push_back(Stage{s.gpus.front(), s.layers});
  return out;
}

inline int gpu_count(const GroupPlan& plan) {
  int n = 0;
  for (const GroupStage& s : plan) n += s.size();
  return n;
}

}  // namespace geotrain
