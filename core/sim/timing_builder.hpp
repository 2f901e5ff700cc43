#pragma once
// The simulation's operations, priced from the cost model's own figures
// (simulator.md, "Operations"), so that the simulated and the analytic time
// of a plan rest on the same numbers: comp_q, tp_q, the sends, the
// data-parallel sync.
//
// One builder per kind of plan, all appending to PipelineTimings through
// add_pipeline: pipeline plans (one GPU per stage) and stage-group plans
// here; a plan of replicas adds one pipeline per replica, with the sends as
// its shared site pipes price them, and sets after_drain_s to the largest
// data-parallel sync plus the cross-replica sync over sync_every.
#include <vector>

#include "model/cost_model.hpp"
#include "model/group_plan.hpp"
#include "model/network.hpp"
#include "model/plan.hpp"
#include "model/problem.hpp"
#include "sim/simulator.hpp"
#include "sim/timing.hpp"

namespace geotrain {

// Appends one pipeline: `plan`'s stages over `model`'s devices, running
// `micro_batches`. Sends cost model.send_s unless the caller gives each
// boundary's time (replicas whose sends share a site pipe's capacity):
// send_forward_s[q] from stage q to q + 1, send_backward_s[q] from stage q to
// q - 1. Their latency is the link's (from the problem's network), the rest
// is transfer (`links`: the problem's resolve_links, resolved once). Returns
// the pipeline's largest data-parallel sync, dp.
double add_pipeline(PipelineTimings& timings, const Problem& problem, const std::vector<std::optional<ResolvedLink>>& links,
                    const CostModel& model, const Plan& plan,
                    std::int64_t micro_batches, const std::vector<double>* send_forward_s = nullptr,
                    const std::vector<double>* send_backward_s = nullptr);

// A plan over `model`'s devices (GPUs, or the groups of its layout): one
// pipeline of all M micro-batches, dp after the drain, and the model's T_iter.
PipelineTimings pipeline_timings(const Problem& problem, const CostModel& model, const Plan& plan);
PipelineTimings pipeline_timings(const Problem& problem, const std::vector<std::optional<ResolvedLink>>& links,
                                 const CostModel& model, const Plan& plan);

// A plan file's plan (pipeline or stage groups) at the problem's micro-batch
// size, on its own model as `geotrain evaluate` figures it.
PipelineTimings pipeline_timings(const Problem& problem, const GroupPlan& plan);
PipelineTimings pipeline_timings(const Problem& problem, const std::vector<std::optional<ResolvedLink>>& links,
                                 const GroupPlan& plan);

// The plan built and simulated in one call: simulate(problem, plan, options).
inline Schedule simulate(const Problem& problem, const GroupPlan& plan, const SimulationOptions& options = {}) {
  return simulate(pipeline_timings(problem, plan), options);
}

}  // namespace geotrain
