#pragma once
// A replica's share of the pool as a problem of its own: its GPUs (renumbered
// from 0, in file order), the same model, network and sites, and the global
// batch of its micro-batches, B' = u * m. The objective keeps the whole
// problem's weights and references, so that plans of sub-pools are ranked as
// the whole problem ranks them.
#include <cstdint>
#include <vector>

#include "model/group_plan.hpp"
#include "model/problem.hpp"

namespace geotrain {

struct SubPool {
  Problem problem;
  std::vector<int> to_full;  // sub-pool GPU index -> index into the whole problem's gpus
};

// `gpus` are indices into `whole.gpus`; references are given in file units.
SubPool make_sub_pool(const Problem& whole, const std::vector<int>& gpus, std::int64_t micro_batches,
                      double t_ref_ms, double e_ref_j, double c_ref_g, double m_ref);

// A plan of the sub-pool's GPUs as a plan of the whole pool's.
GroupPlan to_full_plan(const SubPool& pool, GroupPlan plan);

}  // namespace geotrain
