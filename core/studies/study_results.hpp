#pragma once
// Reading a study's results back: each job's outcome, its plan re-evaluated
// on the job's own problem, and the labels summaries print. Internal to the
// studies (studies.hpp); not part of the API.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/cost_model.hpp"
#include "studies/studies.hpp"

namespace geotrain {

struct JobOutcome {
  enum class State { missing, failed, solved };
  State state = State::missing;
  std::string error;  // failed: the job's messages, joined
  Plan plan;          // solved
  PlanCost cost;      // solved: the plan on the job's problem, at the job's lambda

  bool solved() const { return state == State::solved; }
};

// Every job's outcome, in job order, and the counts the summaries report.
struct StudyOutcomes {
  std::vector<JobOutcome> jobs;
  int missing = 0, failed = 0;
};

// Throws InputError naming the malformed result, e.g.
// results["k=2/seed=1"].stages[0].gpu: unknown GPU id "x".
StudyOutcomes read_outcomes(const StudySetup& setup, const nlohmann::json& results);

// {"iteration_ms", "energy_j", "objective", "stages", "gpus_used", "gpus"}.
nlohmann::ordered_json plan_figures(const Problem& problem, const Plan& plan, const PlanCost& cost);

// "2×A100-SXM-80GB, 3×A100-PCIe-40GB": GPU types (ids when typeless) with
// counts, in order of first appearance in the problem's GPU list.
std::string gpu_mix(const Problem& problem, const Plan& plan);

// The sites the plan uses, in order of first appearance in the problem.
std::vector<std::string> sites_used(const Problem& problem, const Plan& plan);

// "sxm0:2 sxm1:3": a plan on one line, for CSV.
std::string plan_text(const Problem& problem, const Plan& plan);

}  // namespace geotrain
