#include "search/replicas/sub_pool.hpp"

#include <algorithm>
#include <set>

namespace geotrain {

SubPool make_sub_pool(const Problem& whole, const std::vector<int>& gpus, std::int64_t micro_batches,
                      double t_ref_ms, double e_ref_j, double c_ref_g, double m_ref) {
  SubPool pool;
  pool.problem = whole;
  pool.problem.gpus.clear();
  std::set<std::string> ids;
  for (int g : gpus) {
    pool.problem.gpus.push_back(whole.gpus[static_cast<std::size_t>(g)]);
    pool.to_full.push_back(g);
    ids.insert(whole.gpus[static_cast<std::size_t>(g)].id);
  }
  // Per-GPU links between GPUs outside the sub-pool never apply; drop them.
  auto& links = pool.problem.network.links;
  links.erase(std::remove_if(links.begin(), links.end(),
                             [&](const GpuLink& l) { return !ids.count(l.from_gpu) || !ids.count(l.to_gpu); }),
              links.end());
  pool.problem.model.global_batch_size = whole.model.micro_batch_size * micro_batches;
  pool.problem.search.replicas = 1;
  pool.problem.search.replicas_auto = false;
  pool.problem.search.micro_batch_auto = false;
  Objective& o = pool.problem.objective;
  o.t_ref_ms = t_ref_ms, o.e_ref_j = e_ref_j, o.c_ref_g = c_ref_g, o.m_ref = m_ref;
  return pool;
}

GroupPlan to_full_plan(const SubPool& pool, GroupPlan plan) {
  for (GroupStage& s : plan)
    for (int& g : s.gpus) g = pool.to_full[static_cast<std::size_t>(g)];
  return plan;
}

}  // namespace geotrain
