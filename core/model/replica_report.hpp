#pragma once
// The breakdown of a replica plan (replicas.md, "Reports"): per replica its
// micro-batches, pipeline time and stages (as plan_report.hpp reports a
// pipeline's), and for the plan the cross-replica sync and the site pipes it
// loads.
#include <nlohmann/json.hpp>

#include "model/plan_report.hpp"
#include "model/replica_cost_model.hpp"

namespace geotrain {

struct ReplicaReport {
  ReplicaBreakdown breakdown;
  std::vector<PlanReport> replicas;  // each replica's stages; cost is the plan's
  PlanReport all;                    // every replica's stages in order, for totals per site
};

ReplicaReport report_replica_plan(const ReplicaPlanModel& plan, const Problem& problem);

// The plan-level fields: "replica_count", "cross_replica_sync_ms",
// "sync_every", "sync_compression", "site_pipes" [{"from", "to", "bytes",
// "ms"}], "data_parallel_sync_ms".
void add_replica_figures(nlohmann::ordered_json& out, const ReplicaReport& report, const Problem& problem);

// `geotrain evaluate` of a plan with replicas: the plan's figures, the fields
// above, per replica {"micro_batches", "pipeline_ms", "bottleneck_stage",
// "stages": [per stage as stage_reports_to_json]}, then the practical figures.
nlohmann::ordered_json replica_report_to_json(const ReplicaReport& report, const ReplicaPlan& plan,
                                              const Problem& problem);

}  // namespace geotrain
