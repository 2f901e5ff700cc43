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
#include "model/group_plan.hpp"
#include "model/plan_report.hpp"
#include "model/replica_plan.hpp"
#include "studies/studies.hpp"

namespace geotrain {

struct JobOutcome {
  enum class State { missing, failed, solved };
  State state = State::missing;
  std::string error;  // failed: the job's messages, joined
  GroupPlan plan;     // solved; stages may be groups when the job's problem is hybrid (replicas: the first's)
  ReplicaPlan replicas;  // solved with two or more replicas (replicas.md); empty otherwise
  PlanCost cost;      // solved: the plan on the job's problem, with the job's weights
  // When the job chose another micro-batch size (search.micro_batch_size "auto"): that u, at
  // which `cost` is figured; 0 when it planned at the problem's own.
  std::int64_t micro_batch_size = 0;

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

// A plan (its stages may be groups) costed on `problem` with `weights`, with
// the problem's pinned references: the figures a summary reports; the report
// adds the per-stage figures (for run totals).
PlanCost evaluate_study_plan(const Problem& problem, const GroupPlan& plan, const ObjectiveWeights& weights);
PlanReport report_study_plan(const Problem& problem, const GroupPlan& plan, const ObjectiveWeights& weights);

// {"iteration_ms", "energy_j", "objective", "stages", "gpus_used", "gpus"};
// gpus_used counts GPUs (a group of 8 counts 8), not stages.
nlohmann::ordered_json plan_figures(const Problem& problem, const GroupPlan& plan, const PlanCost& cost);

// "2×A100-SXM-80GB, 3×A100-PCIe-40GB": GPU types (ids when typeless) with
// counts of GPUs (every GPU of a group), in order of first appearance in the
// problem's GPU list.
std::string gpu_mix(const Problem& problem, const GroupPlan& plan);

// The sites the plan uses, in order of first appearance in the problem.
std::vector<std::string> sites_used(const Problem& problem, const GroupPlan& plan);

// Shared by the summaries: the solved job of least objective among `jobs`
// (indices), the first of equals, -1 when none; the jobs/missing/failed
// counts and warnings every summary ends with.
int best_of(const StudyOutcomes& outcomes, const std::vector<int>& jobs);
// A side of a comparison while best_of finds nothing: {job, error} of the
// first failed job among `jobs`, or null while they are still running.
nlohmann::ordered_json unsolved_side(const StudySetup& setup, const StudyOutcomes& outcomes, const std::vector<int>& jobs);
void add_counts(nlohmann::ordered_json& out, const StudyOutcomes& outcomes, const StudySetup& setup);

// Job indices of each point, in job order (the metis-improved jobs of the
// network sweeps when `baseline`).
std::vector<std::vector<int>> jobs_by_point(const StudySetup& setup, std::size_t points, bool baseline = false);
bool same_plan(const GroupPlan& a, const GroupPlan& b);

// The summaries kept in their own files.
nlohmann::ordered_json pareto_summary(const StudySetup& setup, const StudyOutcomes& outcomes);       // study_pareto.cpp
nlohmann::ordered_json parallelism_summary(const StudySetup& setup, const StudyOutcomes& outcomes);  // study_parallelism.cpp
nlohmann::ordered_json where_summary(const StudySetup& setup, const StudyOutcomes& outcomes);        // where_study.cpp
nlohmann::ordered_json replicas_summary(const StudySetup& setup, const StudyOutcomes& outcomes);     // study_replicas.cpp

}  // namespace geotrain
