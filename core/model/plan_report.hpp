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
  int gpu = 0;            // index into Problem::gpus: the stage's GPU, or its group's first
  std::vector<int> gpus;  // the group, in shard order (one GPU in the paper's space)
  int tensor_parallel = 1;
  int layers = 0;
  double compute_s = 0;        // comp_q, one micro-batch, forward and backward (slowest shard)
  double tensor_parallel_s = 0;  // tp_q: the tensor-parallel all-reduces of its layers
  double send_forward_s = 0;   // to stage q+1; 0 on the last stage
  double send_backward_s = 0;  // to stage q-1; 0 on the first stage
  double stage_s = 0;          // tau_q
  double data_parallel_sync_s = 0;  // dp_q, once per iteration after the drain
  double memory_bytes = 0;          // per GPU of the stage
  double memory_limit_bytes = 0;    // of its tightest GPU
  double energy_j = 0;  // this stage's GPUs' share of E_iter

  int data_parallel() const { return static_cast<int>(gpus.size()) / tensor_parallel; }
};

struct PlanReport {
  PlanCost cost;
  std::vector<StageReport> stages;
};

// `plan` is over the model's devices (GPUs, or the groups of its layout).
PlanReport report_plan(const CostModel& model, const Plan& plan);

// {"iteration_ms", "energy_j", "objective", "feasible", "bottleneck_stage",
//  "gpus_used", "micro_batches", "stages": [...], "violations": [...]}
nlohmann::ordered_json report_to_json(const PlanReport& report, const Problem& problem);

// Just the per-stage array of report_to_json.
nlohmann::ordered_json stage_reports_to_json(const PlanReport& report, const Problem& problem);

}  // namespace geotrain
