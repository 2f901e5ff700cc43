#include "api/replica_launch.hpp"

#include "search/replicas/engine_replicas.hpp"

namespace geotrain {

MergedReplicas merge_identical_replicas(const Problem& problem, const ReplicaPlan& plan) {
  MergedReplicas out;
  out.problem = problem;
  const Replica& first = plan.front();
  const std::size_t R = plan.size();
  for (std::size_t r = 1; r < R; ++r) {
    if (plan[r].micro_batches != first.micro_batches)
      out.cannot.push_back("replicas[" + std::to_string(r) + "] takes " + std::to_string(plan[r].micro_batches) +
                           " micro-batches and replicas[0] " + std::to_string(first.micro_batches) +
                           ": data parallelism gives every replica the same share");
    for (std::size_t q = 0; q < first.stages.size(); ++q) {
      const GroupStage &a = first.stages[q], &b = plan[r].stages[q];
      if (a.size() != b.size() || a.tensor_parallel != b.tensor_parallel)
        out.cannot.push_back("replicas[" + std::to_string(r) + "].stages[" + std::to_string(q) + "] is " +
                             std::to_string(b.size()) + " GPUs at tensor_parallel " + std::to_string(b.tensor_parallel) +
                             ", replicas[0]'s " + std::to_string(a.size()) + " at " +
                             std::to_string(a.tensor_parallel) + ": data parallelism runs the same groups everywhere");
    }
  }
  if (problem.training.sync_every != 1)
    out.cannot.push_back("training.sync_every " + std::to_string(problem.training.sync_every) +
                         ": these engines average gradients every step; local SGD (an outer step every H) needs "
                         "an outer loop such as DiLoCo's, which no bundle generates");
  if (problem.training.sync_compression != 1)
    out.cannot.push_back("training.sync_compression: these engines send the gradients whole; compression is not generated");
  if (!out.cannot.empty()) return out;
  out.problem.model.micro_batch_size = problem.model.micro_batch_size * static_cast<std::int64_t>(R);
  out.plan = join_replicas(plan);
  return out;
}

}  // namespace geotrain
