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
  // objectives.md, on the stage's site (a group never spans sites): energy
  // times PUE, its carbon, and its electricity plus its GPUs' rent.
  double facility_energy_j = 0;
  double carbon_g = 0;
  double electricity_cost = 0;
  double rental_cost = 0;

  int data_parallel() const { return static_cast<int>(gpus.size()) / tensor_parallel; }
};

struct PlanReport {
  PlanCost cost;
  std::vector<StageReport> stages;
};

// `plan` is over the model's devices (GPUs, or the groups of its layout), and
// `model` a model of `problem`.
PlanReport report_plan(const CostModel& model, const Plan& plan, const Problem& problem);

// {"iteration_ms", "energy_j", "objective", "feasible", "bottleneck_stage",
//  "gpus_used", "micro_batches", "stages": [...], "violations": [...]}, then
// the figures of objectives.md: "carbon_g", "cost", "facility_energy_j",
// "sites" (per site the plan uses) and "run" (totals over
// training.iterations; null without them).
// "carbon_g" ... "run" alone, for outputs that print the rest their own way.
void add_practical_figures(nlohmann::ordered_json& out, const PlanReport& report, const Problem& problem);
nlohmann::ordered_json report_to_json(const PlanReport& report, const Problem& problem);

// Just the per-stage array of report_to_json.
nlohmann::ordered_json stage_reports_to_json(const PlanReport& report, const Problem& problem);

}  // namespace geotrain
