#include "sim/replica_timing_builder.hpp"

#include <cstddef>

#include "model/replica_cost_model.hpp"
#include "sim/timing_builder.hpp"

namespace geotrain {

PipelineTimings replica_timings(const Problem& problem, const std::vector<std::optional<ResolvedLink>>& links,
                                const ReplicaPlan& plan) {
  const ReplicaCostModel model(problem, layout_of(plan));
  const int R = static_cast<int>(plan.size());
  const int Q = static_cast<int>(plan.front().stages.size());
  // Replica r's stage q is device r * Q + q of the plan's own layout.
  std::vector<int> layers, devices;
  std::vector<std::int64_t> micro_batches;
  for (const GroupStage& s : plan.front().stages) layers.push_back(s.layers);
  for (int d = 0; d < R * Q; ++d) devices.push_back(d);
  for (const Replica& r : plan) micro_batches.push_back(r.micro_batches);
  const ReplicaPlanView view{R, Q, layers.data(), devices.data(), micro_batches.data()};
  const ReplicaBreakdown priced = model.breakdown(view);

  PipelineTimings timings;
  for (int r = 0; r < R; ++r) {
    Plan stages;
    std::vector<double> forward_s, backward_s;
    for (int q = 0; q < Q; ++q) {
      const auto i = static_cast<std::size_t>(r * Q + q);
      stages.push_back(Stage{r * Q + q, layers[static_cast<std::size_t>(q)]});
      forward_s.push_back(priced.send_forward_s[i]);
      backward_s.push_back(priced.send_backward_s[i]);
    }
    add_pipeline(timings, problem, links, model.devices(), stages, micro_batches[static_cast<std::size_t>(r)],
                 &forward_s, &backward_s);
  }
  timings.data_parallel_sync_s = priced.data_parallel_sync_s;
  timings.cross_replica_sync_s = priced.cross_replica_sync_s;
  timings.sync_every = model.sync_every();
  // As the replica model adds them, in its order: dp, then T_xsync / H.
  timings.after_drain_s = priced.data_parallel_sync_s + priced.cross_replica_sync_s / static_cast<double>(model.sync_every());
  timings.analytic_iteration_s = priced.cost.iteration_s;
  return timings;
}

}  // namespace geotrain
