// The parallelism study's summary: pipeline-only against stage groups on the
// same pool (shape: core/STUDIES.md).
#include "model/feasibility.hpp"
#include "studies/pareto.hpp"
#include "studies/study_results.hpp"

namespace geotrain {

using json = nlohmann::ordered_json;

namespace {

// The best seed of one side, its failure, or null while nothing finished.
json parallelism_side(const StudySetup& setup, const StudyOutcomes& outcomes, int point) {
  std::vector<int> jobs;
  for (std::size_t j = 0; j < setup.jobs.size(); ++j)
    if (setup.jobs[j].point == point) jobs.push_back(static_cast<int>(j));
  if (jobs.empty()) {  // only the pipeline side goes without a job: no pipeline plan fits
    const CostModel model(setup.problem);
    return {{"job", nullptr}, {"feasible", false}, {"reason", infeasibility_reason(model, setup.problem)}};
  }
  const int best = best_of(outcomes, jobs);
  if (best < 0) return unsolved_side(setup, outcomes, jobs);
  const StudyJob& job = setup.jobs[best];
  const JobOutcome& o = outcomes.jobs[best];
  int agreeing = 0, finished = 0;
  for (int j : jobs)
    if (outcomes.jobs[j].solved()) ++finished, agreeing += outcomes.jobs[j].cost.objective == o.cost.objective;
  json side = {{"job", job.id}, {"feasible", o.cost.feasible}};
  side.update(plan_figures(job.problem, o.plan, o.cost));
  side["stage_count"] = o.plan.size();
  side["seeds_agreeing"] = agreeing;
  side["seeds_finished"] = finished;
  return side;
}

}  // namespace

json parallelism_summary(const StudySetup& setup, const StudyOutcomes& outcomes) {
  json out = {{"study", "parallelism"},
              {"method", method_name(setup.options.method)},
              {"pipeline", parallelism_side(setup, outcomes, 0)},
              {"hybrid", parallelism_side(setup, outcomes, 1)},
              {"gain_pct", nullptr},
              {"energy_change_pct", nullptr},
              {"objective_change_pct", nullptr}};
  const json &p = out["pipeline"], &h = out["hybrid"];
  if (p.contains("iteration_ms") && h.contains("iteration_ms")) {
    // gain_pct: time saved by groups, (T_pipeline - T_hybrid) / T_pipeline x 100, as the sweeps' gain.
    out["gain_pct"] = -percent_change(h["iteration_ms"].get<double>(), p["iteration_ms"].get<double>());
    out["energy_change_pct"] = percent_change(h["energy_j"].get<double>(), p["energy_j"].get<double>());
    out["objective_change_pct"] = percent_change(h["objective"].get<double>(), p["objective"].get<double>());
  }
  add_counts(out, outcomes, setup);
  return out;
}

}  // namespace geotrain
