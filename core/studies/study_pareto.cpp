// The pareto study's summary: the trade-off between two of time, energy,
// carbon and money (Table 7 and Fig. 10 on the paper's two), its frontier,
// knee and Table 7's deltas. Shapes: core/STUDIES.md.
#include <algorithm>

#include "model/objective_json.hpp"
#include "model/plan_json.hpp"
#include "search/baselines/baselines.hpp"
#include "studies/pareto.hpp"
#include "studies/study_results.hpp"

namespace geotrain {

using json = nlohmann::ordered_json;

namespace {

// plan_figures with carbon and money after time and energy: every figure of
// a point on a trade-off other than the paper's.
json all_figures(const Problem& problem, const GroupPlan& plan, const PlanCost& cost) {
  json figures = plan_figures(problem, plan, cost), out;
  for (auto it = figures.begin(); it != figures.end(); ++it) {
    out[it.key()] = it.value();
    if (it.key() == "energy_j") out["carbon_g"] = cost.carbon_g, out["cost"] = cost.cost;
  }
  return out;
}

// The per-lambda bests (Table 7's rows, in the order of the lambdas), every
// solved point, and what the frontier makes of them.
struct Tradeoff {
  std::vector<int> row_job;         // the best job of each row
  std::vector<double> row_lambda;
  std::vector<TradeoffPoint> rows;
  std::vector<TradeoffPoint> solved;    // every solved job, in job order
  std::vector<TradeoffPoint> frontier;  // the rows no row dominates
  std::vector<bool> row_on_frontier;
  std::optional<std::size_t> knee;  // a row
  std::size_t reference_row = 0;    // Table 7's: the largest lambda

  bool on_frontier(const TradeoffPoint& p) const {
    return std::any_of(frontier.begin(), frontier.end(),
                       [&](const TradeoffPoint& f) { return f.time == p.time && f.energy == p.energy; });
  }
  bool frontier_dominates(const TradeoffPoint& p) const {
    return std::any_of(frontier.begin(), frontier.end(), [&](const TradeoffPoint& f) { return dominates(f, p); });
  }
};

Tradeoff analyse_tradeoff(const StudySetup& setup, const StudyOutcomes& outcomes,
                          const std::vector<std::vector<int>>& by_lambda) {
  Tradeoff t;
  const StudyAxes& axes = setup.options.axes;
  auto point_of = [&](int j) {
    return TradeoffPoint{axis_value(outcomes.jobs[j].cost, axes.x), axis_value(outcomes.jobs[j].cost, axes.y)};
  };
  for (std::size_t i = 0; i < by_lambda.size(); ++i)
    if (const int best = best_of(outcomes, by_lambda[i]); best >= 0) {
      t.row_job.push_back(best);
      t.row_lambda.push_back(setup.options.lambdas[i]);
      t.rows.push_back(point_of(best));
    }
  for (std::size_t j = 0; j < setup.jobs.size(); ++j)
    if (outcomes.jobs[j].solved()) t.solved.push_back(point_of(static_cast<int>(j)));
  const std::vector<std::size_t> frontier = pareto_frontier(t.rows);
  t.row_on_frontier.assign(t.rows.size(), false);
  for (std::size_t r : frontier) t.frontier.push_back(t.rows[r]), t.row_on_frontier[r] = true;
  t.knee = frontier_knee(t.rows, frontier);
  t.reference_row = largest_lambda_row(t.row_lambda).value_or(0);
  return t;
}

json pareto_points(const StudySetup& setup, const StudyOutcomes& outcomes, const Tradeoff& t) {
  const bool four_figures = !setup.options.axes.is_time_energy();
  json points = json::array();
  const std::vector<bool> dominated = dominated_by(t.solved, t.solved);
  for (std::size_t j = 0, s = 0; j < setup.jobs.size(); ++j) {
    const StudyJob& job = setup.jobs[j];
    const JobOutcome& o = outcomes.jobs[j];
    if (o.state == JobOutcome::State::missing) continue;
    json p = {{"job", job.id}, {"lambda", setup.options.lambdas[job.point]}};
    if (four_figures) p["weights"] = weights_to_json(job_weights(job));
    p["seed"] = *job.options.seed;
    if (o.solved()) {
      p.update(four_figures ? all_figures(job.problem, o.plan, o.cost) : plan_figures(job.problem, o.plan, o.cost));
      p["on_frontier"] = t.on_frontier(t.solved[s]);
      p["dominated"] = static_cast<bool>(dominated[s++]);
    } else {
      p["error"] = o.error;
    }
    points.push_back(std::move(p));
  }
  return points;
}

json pareto_table(const StudySetup& setup, const StudyOutcomes& outcomes, const Tradeoff& t,
                  const std::vector<std::vector<int>>& by_lambda) {
  const StudyAxes& axes = setup.options.axes;
  const bool four_figures = !axes.is_time_energy();
  json table = json::array();
  const TradeoffPoint& ref = t.rows[t.reference_row];
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    const StudyJob& job = setup.jobs[t.row_job[r]];
    const JobOutcome& o = outcomes.jobs[t.row_job[r]];
    int agreeing = 0, finished = 0;
    for (int j : by_lambda[job.point])
      if (outcomes.jobs[j].solved()) ++finished, agreeing += same_plan(outcomes.jobs[j].plan, o.plan);
    json row = {{"lambda", t.row_lambda[r]}};
    if (four_figures) row["weights"] = weights_to_json(job_weights(job));
    row["job"] = job.id;
    row["iteration_ms"] = o.cost.iteration_s * 1000.0;
    row["energy_j"] = o.cost.energy_j;
    if (four_figures) row["carbon_g"] = o.cost.carbon_g, row["cost"] = o.cost.cost;
    row[axis_delta_field(axes.x)] = percent_change(t.rows[r].time, ref.time);
    row[axis_delta_field(axes.y)] = percent_change(t.rows[r].energy, ref.energy);
    row["gpus"] = gpu_mix(job.problem, o.plan);
    row["gpus_used"] = gpu_count(o.plan);
    row["stages"] = plan_to_json(o.plan, job.problem)["stages"];
    row["objective"] = o.cost.objective;
    row["seeds_agreeing"] = agreeing;
    row["seeds_finished"] = finished;
    row["on_frontier"] = static_cast<bool>(t.row_on_frontier[r]);
    row["knee"] = t.knee == r;
    table.push_back(std::move(row));
  }
  return table;
}

// metis-improved with the references' own seed, as the paper's Table 7 compares.
json pareto_reference(const StudySetup& setup, const Tradeoff& t) {
  const StudyAxes& axes = setup.options.axes;
  const CostModel model(setup.problem);
  const SolveResult metis = run_metis_improved(model, kReferenceSeed);
  json reference = {{"method", "metis-improved"}};
  const GroupPlan plan = to_group_plan(metis.plan);
  reference.update(axes.is_time_energy() ? plan_figures(setup.problem, plan, metis.cost)
                                         : all_figures(setup.problem, plan, metis.cost));
  reference.erase("objective");  // at the problem's lambda: not comparable with the points'
  reference["feasible"] = metis.cost.feasible;
  reference["dominated"] = t.frontier_dominates({axis_value(metis.cost, axes.x), axis_value(metis.cost, axes.y)});
  return reference;
}

}  // namespace

json pareto_summary(const StudySetup& setup, const StudyOutcomes& outcomes) {
  const StudyAxes& axes = setup.options.axes;
  const bool four_figures = !axes.is_time_energy();
  const auto by_lambda = jobs_by_point(setup, setup.options.lambdas.size());
  const Tradeoff t = analyse_tradeoff(setup, outcomes, by_lambda);
  json out = {{"study", "pareto"}};
  if (four_figures) out["axes"] = {axis_name(axes.x), axis_name(axes.y)};
  out["method"] = method_name(setup.options.method);
  out["t_ref_ms"] = setup.references.t_ref_ms;
  out["e_ref_j"] = setup.references.e_ref_j;
  if (four_figures && setup.references.c_ref_g) out["c_ref_g"] = *setup.references.c_ref_g;
  if (four_figures && setup.references.m_ref) out["m_ref"] = *setup.references.m_ref;
  out["references"] = setup.references.source;
  out["reference"] = pareto_reference(setup, t);
  out["points"] = pareto_points(setup, outcomes, t);
  out["table"] = t.rows.empty() ? json::array() : pareto_table(setup, outcomes, t, by_lambda);
  out["knee"] = nullptr;
  if (t.knee) {
    const int job = t.row_job[*t.knee];
    const PlanCost& cost = outcomes.jobs[job].cost;
    json knee = {{"lambda", t.row_lambda[*t.knee]},
                 {"job", setup.jobs[job].id},
                 {"iteration_ms", cost.iteration_s * 1000.0},
                 {"energy_j", cost.energy_j}};
    if (four_figures) knee["carbon_g"] = cost.carbon_g, knee["cost"] = cost.cost;
    knee["gpus"] = gpu_mix(setup.problem, outcomes.jobs[job].plan);
    out["knee"] = std::move(knee);
  }
  add_counts(out, outcomes, setup);
  return out;
}

}  // namespace geotrain
