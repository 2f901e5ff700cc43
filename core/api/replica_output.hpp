#pragma once
// What `evaluate` and `solve` print for plans the replica model prices
// (replicas.md, "Reports"): several replicas, or one pipeline on a problem
// whose site pipes have capacity_gbps. Everything else prints as before.
#include <nlohmann/json.hpp>

#include "model/cost_model.hpp"
#include "model/problem.hpp"
#include "model/replica_plan.hpp"

namespace geotrain {

// Several replicas, or a problem with shared site pipes.
bool needs_replica_model(const ReplicaPlan& plan, const Problem& problem);

// The plan's report priced by the replica model, with `objective`'s weights
// and references: one replica prints as a pipeline does today (its "stages"
// at the top) plus the replica figures; several print per replica
// (replica_report.hpp).
nlohmann::ordered_json replica_evaluation_json(const ReplicaPlan& plan, const Problem& problem,
                                               const CostModel& objective);

// The same for `solve`: per replica its plan ("micro_batches", "stages" as a
// plan file lists them), "pipeline_ms" and "stage_metrics", so that the output
// is itself a plan file; one replica keeps today's "stages" and
// "stage_metrics" at the top. Adds the figures to `out`.
void add_replica_solution(nlohmann::ordered_json& out, const ReplicaPlan& plan, const Problem& problem,
                          const CostModel& objective);

}  // namespace geotrain
