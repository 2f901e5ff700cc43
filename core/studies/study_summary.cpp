// The summaries of the subset, network and split studies, and the dispatch
// to every study's summary (shapes: core/STUDIES.md).
#include <algorithm>

#include "search/baselines/baselines.hpp"
#include "model/feasibility.hpp"
#include "studies/network_sweep.hpp"
#include "studies/pareto.hpp"
#include "model/plan_json.hpp"
#include "studies/study_results.hpp"

namespace geotrain {

using json = nlohmann::ordered_json;

bool same_plan(const GroupPlan& a, const GroupPlan& b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](const GroupStage& x, const GroupStage& y) {
           return x.gpus == y.gpus && x.tensor_parallel == y.tensor_parallel && x.layers == y.layers;
         });
}

// Job indices of each point, in job order.
std::vector<std::vector<int>> jobs_by_point(const StudySetup& setup, std::size_t points, bool baseline) {
  std::vector<std::vector<int>> out(points);
  for (std::size_t j = 0; j < setup.jobs.size(); ++j)
    if (setup.jobs[j].baseline == baseline) out[setup.jobs[j].point].push_back(static_cast<int>(j));
  return out;
}

namespace {

json failed_point(const StudyJob& job, const JobOutcome& outcome) {
  return {{"job", job.id}, {"error", outcome.error}};
}

// ---- subset ----

json subset_summary(const StudySetup& setup, const StudyOutcomes& outcomes) {
  const Problem& problem = setup.jobs.empty() ? setup.problem : setup.jobs.front().problem;
  CostModel model(problem);
  const int most = std::min(model.num_gpus(), model.num_layers());
  const auto by_k = jobs_by_point(setup, static_cast<std::size_t>(most));
  json points = json::array();
  int best_k = 0;
  double best_objective = 0;
  for (int k = 1; k <= most; ++k) {
    const std::vector<int>& jobs = by_k[k - 1];
    json p = {{"k", k}, {"job", nullptr}};
    if (jobs.empty()) {  // no job: no k-stage plan fits (prepare_study only skips those)
      model.set_stage_count_range(k, k);
      p["feasible"] = false;
      p["reason"] = infeasibility_reason(model, problem);
      points.push_back(std::move(p));
      continue;
    }
    p["feasible"] = true;
    const int best = best_of(outcomes, jobs);
    if (best >= 0) {
      const JobOutcome& o = outcomes.jobs[best];
      p["job"] = setup.jobs[best].id;
      p.update(plan_figures(problem, o.plan, o.cost));
      if (best_k == 0 || o.cost.objective < best_objective) best_k = k, best_objective = o.cost.objective;
    } else {
      const auto failed = std::find_if(jobs.begin(), jobs.end(), [&](int j) {
        return outcomes.jobs[j].state == JobOutcome::State::failed;
      });
      if (failed != jobs.end()) p.update(failed_point(setup.jobs[*failed], outcomes.jobs[*failed]));
      else p["missing"] = true;
    }
    points.push_back(std::move(p));
  }
  json out = {{"study", "subset"}, {"method", method_name(setup.options.method)}, {"points", std::move(points)}};
  // In hybrid mode k counts stages and a stage may be a group: gpus_used counts the GPUs.
  if (problem.search.parallelism == Parallelism::hybrid) out["parallelism"] = "hybrid";
  out["best_k"] = best_k > 0 ? json(best_k) : json(nullptr);
  add_counts(out, outcomes, setup);
  return out;
}

// ---- latency and bandwidth ----

json network_side(const StudySetup& setup, const StudyOutcomes& outcomes, const std::vector<int>& jobs) {
  const int best = best_of(outcomes, jobs);
  if (best < 0) {
    for (int j : jobs)
      if (outcomes.jobs[j].state == JobOutcome::State::failed) return failed_point(setup.jobs[j], outcomes.jobs[j]);
    return nullptr;
  }
  const StudyJob& job = setup.jobs[best];
  json side = {{"job", job.id}};
  side.update(plan_figures(job.problem, outcomes.jobs[best].plan, outcomes.jobs[best].cost));
  side["sites_used"] = sites_used(job.problem, outcomes.jobs[best].plan);
  return side;
}

json network_summary(const StudySetup& setup, const StudyOutcomes& outcomes) {
  const bool latency = setup.options.kind == StudyKind::latency;
  const NetworkFigure figure = latency ? NetworkFigure::latency_ms : NetworkFigure::bandwidth_gbps;
  const auto& values = setup.options.values;
  const auto planner = jobs_by_point(setup, values.size()), baseline = jobs_by_point(setup, values.size(), true);
  json points = json::array();
  for (std::size_t i = 0; i < values.size(); ++i) {
    json p = {{"value", values[i]},
              {"planner", network_side(setup, outcomes, planner[i])},
              {"metis_improved", network_side(setup, outcomes, baseline[i])},
              {"gain_pct", nullptr}};
    const json &a = p["planner"], &b = p["metis_improved"];
    if (a.contains("iteration_ms") && b.contains("iteration_ms"))
      p["gain_pct"] = -percent_change(a["iteration_ms"].get<double>(), b["iteration_ms"].get<double>());
    points.push_back(std::move(p));
  }
  const std::optional<double> base = cross_site_base(setup.problem, figure);
  json out = {{"study", study_kind_name(setup.options.kind)},
              {"unit", network_figure_unit(figure)},
              {"base", base ? json(*base) : json(nullptr)},
              {"method", method_name(setup.options.method)},
              {"points", std::move(points)}};
  add_counts(out, outcomes, setup);
  return out;
}

// ---- split ----

json split_side(const Problem& problem, const GroupPlan& plan, const PlanCost& cost) {
  return {{"iteration_ms", cost.iteration_s * 1000.0},
          {"energy_j", cost.energy_j},
          {"objective", cost.objective},
          {"feasible", cost.feasible},
          {"stages", plan_to_json(plan, problem)["stages"]},
          {"bottleneck_stage", cost.bottleneck}};
}

json split_summary(const StudySetup& setup, const StudyOutcomes& outcomes) {
  std::vector<int> all(setup.jobs.size());
  for (std::size_t j = 0; j < all.size(); ++j) all[j] = static_cast<int>(j);
  const int best = best_of(outcomes, all);
  json out = {{"study", "split"}, {"method", method_name(setup.options.method)}, {"gpus", json::array()},
              {"uniform", nullptr}, {"non_uniform", nullptr}, {"gain_pct", nullptr}};
  if (best >= 0) {
    const StudyJob& job = setup.jobs[best];
    const GroupPlan& chosen = outcomes.jobs[best].plan;
    // The same GPUs (or groups) in the same order, L / Q layers each, the first L mod Q one more.
    const int Q = static_cast<int>(chosen.size()), L = static_cast<int>(job.problem.model.num_layers);
    GroupPlan uniform = chosen;
    for (int q = 0; q < Q; ++q) uniform[q].layers = L / Q + (q < L % Q ? 1 : 0);
    const PlanCost uniform_cost = evaluate_study_plan(job.problem, uniform, job_weights(job));
    for (const GroupStage& s : chosen) {
      std::string ids;  // a group's GPUs joined by "+", as the CSV writes them
      for (int g : s.gpus) ids += (ids.empty() ? "" : "+") + job.problem.gpus[g].id;
      out["gpus"].push_back(ids);
    }
    out["uniform"] = split_side(job.problem, uniform, uniform_cost);
    out["non_uniform"] = {{"job", job.id}};
    out["non_uniform"].update(split_side(job.problem, chosen, outcomes.jobs[best].cost));
    out["gain_pct"] = -percent_change(outcomes.jobs[best].cost.iteration_s, uniform_cost.iteration_s);
  } else {
    for (std::size_t j = 0; j < setup.jobs.size(); ++j)
      if (outcomes.jobs[j].state == JobOutcome::State::failed) {
        out["non_uniform"] = failed_point(setup.jobs[j], outcomes.jobs[j]);
        break;
      }
  }
  add_counts(out, outcomes, setup);
  return out;
}

}  // namespace

json summarise_study(const StudySetup& setup, const nlohmann::json& results) {
  const StudyOutcomes outcomes = read_outcomes(setup, results);
  switch (setup.options.kind) {
    case StudyKind::pareto: return pareto_summary(setup, outcomes);
    case StudyKind::subset: return subset_summary(setup, outcomes);
    case StudyKind::latency:
    case StudyKind::bandwidth: return network_summary(setup, outcomes);
    case StudyKind::split: return split_summary(setup, outcomes);
    case StudyKind::parallelism: return parallelism_summary(setup, outcomes);
    case StudyKind::where: return where_summary(setup, outcomes);
    case StudyKind::replicas: return replicas_summary(setup, outcomes);
  }
  return nullptr;
}

}  // namespace geotrain
