#include "sim/timing_builder.hpp"

#include <algorithm>
#include <cmath>

#include "model/group_layout.hpp"

namespace geotrain {

namespace {

// A send of `total_s` over from -> to: the link's latency, then the bytes.
SendTiming priced_send(PipelineTimings& timings, const std::vector<std::optional<ResolvedLink>>& links, std::size_t n,
                       int from_gpu, int to_gpu, double total_s) {
  const auto& link = links[static_cast<std::size_t>(from_gpu) * n + static_cast<std::size_t>(to_gpu)];
  SendTiming send;
  send.latency_s = link ? std::min(link->link.latency_s(), total_s) : 0.0;
  send.transfer_s = total_s - send.latency_s;
  send.link = timings.link_index(from_gpu, to_gpu);
  return send;
}

}  // namespace

double add_pipeline(PipelineTimings& timings, const Problem& problem, const std::vector<std::optional<ResolvedLink>>& links,
                    const CostModel& model, const Plan& plan,
                    std::int64_t micro_batches, const std::vector<double>* send_forward_s,
                    const std::vector<double>* send_backward_s) {
  PipelineTiming pipeline;
  pipeline.micro_batches = micro_batches;
  pipeline.stages.reserve(plan.size());
  const GroupLayout& layout = model.layout();
  const auto first_gpu = [&](int device) { return layout[static_cast<std::size_t>(device)].gpus.front(); };
  const std::size_t count = plan.size(), n = problem.gpus.size();
  double dp = 0;
  for (std::size_t q = 0; q < count; ++q) {
    const Stage& stage = plan[q];
    const bool last = q + 1 == count;
    // Written as the cost model writes comp_q and tp_q.
    double comp = stage.layers * model.layer_compute_s(stage.gpu);
    if (last) comp += model.head_compute_s(stage.gpu);
    const double tp = stage.layers * model.tensor_layer_s(stage.gpu);
    StageTiming t;
    t.forward_compute_s = comp / (1.0 + kBackwardFactor);
    t.backward_compute_s = kBackwardFactor * comp / (1.0 + kBackwardFactor);
    t.tensor_s = tp / 2.0;
    if (!last) {
      const int next = plan[q + 1].gpu;
      const double s = send_forward_s ? (*send_forward_s)[q] : model.send_s(stage.gpu, next);
      t.forward = priced_send(timings, links, n, first_gpu(stage.gpu), first_gpu(next), s);
    }
    if (q > 0) {
      const int prev = plan[q - 1].gpu;
      const double s = send_backward_s ? (*send_backward_s)[q] : model.send_s(stage.gpu, prev);
      t.backward = priced_send(timings, links, n, first_gpu(stage.gpu), first_gpu(prev), s);
    }
    t.device = static_cast<int>(timings.devices.size());
    timings.devices.push_back(layout[static_cast<std::size_t>(stage.gpu)].gpus);
    pipeline.stages.push_back(t);
    dp = std::max(dp, model.data_parallel_sync_s(stage.gpu, stage.layers, last));
  }
  timings.replicas.push_back(std::move(pipeline));
  return dp;
}

PipelineTimings pipeline_timings(const Problem& problem, const std::vector<std::optional<ResolvedLink>>& links,
                                 const CostModel& model, const Plan& plan) {
  PipelineTimings timings;
  const auto m = static_cast<std::int64_t>(std::llround(model.micro_batches()));
  timings.after_drain_s = add_pipeline(timings, problem, links, model, plan, m);
  timings.data_parallel_sync_s = timings.after_drain_s;
  timings.analytic_iteration_s = model.evaluate(plan).iteration_s;
  return timings;
}

PipelineTimings pipeline_timings(const Problem& problem, const CostModel& model, const Plan& plan) {
  return pipeline_timings(problem, resolve_links(problem.network, problem.gpus), model, plan);
}

PipelineTimings pipeline_timings(const Problem& problem, const GroupPlan& plan) {
  return pipeline_timings(problem, resolve_links(problem.network, problem.gpus), plan);
}

PipelineTimings pipeline_timings(const Problem& problem, const std::vector<std::optional<ResolvedLink>>& links,
                                 const GroupPlan& plan) {
  if (is_pipeline(plan)) {
    const CostModel model(problem, single_gpu_layout(static_cast<int>(problem.gpus.size())), links);
    return pipeline_timings(problem, links, model, to_pipeline_plan(plan));
  }
  return pipeline_timings(problem, links, CostModel(problem, layout_of(plan), links), device_plan(plan));
}

}  // namespace geotrain
