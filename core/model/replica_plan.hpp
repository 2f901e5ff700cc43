#pragma once
// A plan of data-parallel replicas (replicas.md): R copies of the pipeline,
// each on its own GPUs and its share m_r of the M micro-batches, sharing one
// stage template (stage q of every replica holds the same layers). Each
// replica's stages are stage groups (stage-groups.md) and may differ from the
// other replicas' in GPU types, group sizes and degrees. A plan of one replica
// with all M micro-batches is exactly a plan of today.
#include <cstdint>
#include <vector>

#include "model/group_layout.hpp"
#include "model/group_plan.hpp"

namespace geotrain {

struct Replica {
  std::int64_t micro_batches = 0;  // m_r >= 1; the m_r of a plan sum to M
  GroupPlan stages;
};

using ReplicaPlan = std::vector<Replica>;

// One replica holding all `micro_batches`: the plan of one pipeline.
inline ReplicaPlan single_replica(GroupPlan stages, std::int64_t micro_batches) {
  return ReplicaPlan{Replica{micro_batches, std::move(stages)}};
}

inline int gpu_count(const ReplicaPlan& plan) {
  int n = 0;
  for (const Replica& r : plan) n += gpu_count(r.stages);
  return n;
}

// Every replica's groups, replica by replica in stage order: the devices a
// cost model of this plan needs (replica r's stage q is device r * Q + q).
inline GroupLayout layout_of(const ReplicaPlan& plan) {
  GroupLayout layout;
  for (const Replica& r : plan)
    for (const GroupStage& s : r.stages) layout.push_back(DeviceGroup{s.gpus, s.tensor_parallel});
  return layout;
}

}  // namespace geotrain
