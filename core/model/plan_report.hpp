#pragma once
// A plan's full breakdown, stage by stage, in the units of the files (ms, GiB,
// J): what `geotrain evaluate` prints and what the page's views draw.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/cost_model.hpp"
#include "model/problem.hpp"

namespace geotrain {

struct StageReport {
  int gpu = 0;
  int layers = 0;
  double compute_s = 0;        // comp_q, one micro-batch, forward and backward
  double send_forward_s = 0;   // to stage q+1; 0 on the last stage
  double send_backward_s = 0;  // to stage q-1; 0 on the first stage
  double stage_s = 0;          // tau_q
  double memory_bytes = 0;
  double memory_limit_bytes = 0;
  double energy_j = 0;  // this GPU's share of E_iter
};

struct PlanReport {
  PlanCost cost;
  std::vector<StageReport> stages;
};

PlanReport report_plan(const CostModel& model, const Plan& plan);

// {"iteration_ms", "energy_j", "objective", "feasible", "bottleneck_stage",
//  "gpus_used", "micro_batches", "stages": [...], "violations": [...]}
nlohmann::ordered_json report_to_json(const PlanReport& report, const Problem& problem);

// Just the per-stage array of report_to_json.
nlohmann::ordered_json stage_reports_to_json(const PlanReport& report, const Problem& problem);

}  // namespace geotrain
