#pragma once
// The devices a cost model plans over. In the paper's space every device is
// one GPU; with stage groups (stage-groups.md) a device is a group of GPUs of
// one site that serves a stage together: t-way tensor parallel, d = s / t data
// shards, shard j being gpus[j*t .. j*t + t - 1]. A layout's groups are
// disjoint, so any plan over its devices uses every GPU at most once.
#include <vector>

#include "model/group_plan.hpp"

namespace geotrain {

struct DeviceGroup {
  std::vector<int> gpus;    // indices into Problem::gpus; gpus[0] sends and receives activations
  int tensor_parallel = 1;  // t, divides gpus.size()

  int size() const { return static_cast<int>(gpus.size()); }
  int data_parallel() const { return size() / tensor_parallel; }
  bool single() const { return gpus.size() == 1; }
  bool operator==(const DeviceGroup& o) const { return gpus == o.gpus && tensor_parallel == o.tensor_parallel; }
};

using GroupLayout = std::vector<DeviceGroup>;

// Every GPU a device of its own, in file order: the paper's space.
inline GroupLayout single_gpu_layout(int num_gpus) {
  GroupLayout layout;
  layout.reserve(static_cast<std::size_t>(num_gpus));
  for (int g = 0; g < num_gpus; ++g) layout.push_back(DeviceGroup{{g}, 1});
  return layout;
}

// A plan's own groups, one device per stage, in stage order.
inline GroupLayout layout_of(const GroupPlan& plan) {
  GroupLayout layout;
  layout.reserve(plan.size());
  for (const GroupStage& s : plan) layout.push_back(DeviceGroup{s.gpus, s.tensor_parallel});
  return layout;
}

// The plan over layout_of(plan)'s devices: stage q runs on device q.
inline Plan device_plan(const GroupPlan& plan) {
  Plan out;
  out.reserve(plan.size());
  for (std::size_t q = 0; q < plan.size(); ++q) out.push_back(Stage{static_cast<int>(q), plan[q].layers});
  return out;
}

// A plan over a layout's devices, as GPU groups.
inline GroupPlan to_group_plan(const Plan& plan, const GroupLayout& layout) {
  GroupPlan out;
  out.reserve(plan.size());
  for (const Stage& s : plan) {
    const DeviceGroup& g = layout[static_cast<std::size_t>(s.gpu)];
    out.push_back(GroupStage{g.gpus, g.tensor_parallel, s.layers});
  }
  return out;
}

}  // namespace geotrain
