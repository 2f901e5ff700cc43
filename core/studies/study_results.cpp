#include "studies/study_results.hpp"

#include <algorithm>

#include "model/input_error.hpp"
#include "model/message_list.hpp"
#include "studies/network_sweep.hpp"
#include "api/planner.hpp"
#include "model/plan_json.hpp"
#include "model/link_table.hpp"
#include "model/replica_cost_model.hpp"
#include "model/replica_plan_json.hpp"

namespace geotrain {

using json = nlohmann::ordered_json;

namespace {

std::string result_path(const std::string& id) { return "results[" + nlohmann::json(id).dump() + "]"; }

std::string error_text(const nlohmann::json& error) {
  if (error.is_string()) return error.get<std::string>();
  if (error.is_object() && error.contains("messages") && error["messages"].is_array()) {
    std::string text;
    for (const auto& m : error["messages"])
      text += (text.empty() ? "" : "; ") + (m.is_string() ? m.get<std::string>() : m.dump());
    return text;
  }
  return error.dump();
}

// Network sweeps give every point its own network, and where its own GPUs;
// the other studies share one problem.
class JobModels {
 public:
  explicit JobModels(const StudySetup& setup)
      : per_point_(setup.options.kind == StudyKind::latency || setup.options.kind == StudyKind::bandwidth ||
                   setup.options.kind == StudyKind::where || setup.options.kind == StudyKind::replicas) {}
  CostModel& model_for(const StudyJob& job) {
    const int key = per_point_ ? job.point : 0;
    auto it = models_.find(key);
    if (it == models_.end()) it = models_.emplace(key, std::make_unique<CostModel>(job.problem)).first;
    it->second->set_weights(job_weights(job));
    return *it->second;
  }

 private:
  bool per_point_;
  std::map<int, std::unique_ptr<CostModel>> models_;
};

// Group plans (hybrid jobs) get a model over their own groups; pipeline plans
// keep the shared model, so their figures are exactly as before groups.
PlanCost evaluate_outcome(const StudyJob& job, const GroupPlan& plan, JobModels& models) {
  if (is_pipeline(plan)) return models.model_for(job).evaluate(to_pipeline_plan(plan));
  return evaluate_study_plan(job.problem, plan, job_weights(job));
}

JobOutcome read_outcome(const StudyJob& job, const nlohmann::json& result, JobModels& models) {
  const std::string path = result_path(job.id);
  if (!result.is_object()) throw InputError(path + ": must be a solve result or {\"error\": ...}");
  JobOutcome outcome;
  if (result.contains("error")) {
    outcome.state = JobOutcome::State::failed;
    outcome.error = error_text(result["error"]);
    return outcome;
  }
  // search.micro_batch_size "auto" may have planned at another u: figure the plan at that u.
  std::optional<Problem> at_u;
  try {
    const std::int64_t u = parse_plan_micro_batch_size(result, job.problem);
    if (u > 0 && u != job.problem.model.micro_batch_size) at_u = with_micro_batch_size(job.problem, u), outcome.micro_batch_size = u;
    const Problem& problem = at_u ? *at_u : job.problem;
    if (has_replicas(result) || network_has_capacities(problem.network)) {
      // Replicas, or pipes whose capacity sends share: the replica model prices them.
      ReplicaPlan replicas = parse_replica_plan(result, problem);
      CostModel objective(problem);
      objective.set_weights(job_weights(job));
      const ReplicaPlanModel model(problem, replicas, objective);
      outcome.cost = model.model.evaluate(model.view());
      outcome.plan = replicas.front().stages;
      if (replicas.size() > 1) outcome.replicas = std::move(replicas);
      outcome.state = JobOutcome::State::solved;
      return outcome;
    }
    outcome.plan = parse_group_plan(result, problem);
  } catch (const InputError& e) {
    std::vector<std::string> messages;
    for (const auto& m : e.messages()) messages.push_back(path + "." + (m.rfind("plan.", 0) == 0 ? m.substr(5) : m));
    throw InputError(messages);
  }
  const int stages = static_cast<int>(outcome.plan.size());
  if (job.options.stage_count && stages != *job.options.stage_count)
    throw InputError(path + ".stages: has " + count_of(stages, "stage") + ", the job asked for " +
                     std::to_string(*job.options.stage_count));
  outcome.cost = at_u ? evaluate_study_plan(*at_u, outcome.plan, job_weights(job)) : evaluate_outcome(job, outcome.plan, models);
  outcome.state = JobOutcome::State::solved;
  return outcome;
}

}  // namespace

StudyOutcomes read_outcomes(const StudySetup& setup, const nlohmann::json& results) {
  if (!results.is_null() && !results.is_object())
    throw InputError("results: must be an object mapping job ids to solve results");
  StudyOutcomes out;
  JobModels models(setup);
  for (const StudyJob& job : setup.jobs) {
    JobOutcome outcome;
    // null stands for "no result yet", as a missing id does.
    if (results.is_object() && results.contains(job.id) && !results[job.id].is_null())
      outcome = read_outcome(job, results[job.id], models);
    out.missing += outcome.state == JobOutcome::State::missing;
    out.failed += outcome.state == JobOutcome::State::failed;
    out.jobs.push_back(std::move(outcome));
  }
  return out;
}

PlanCost evaluate_study_plan(const Problem& problem, const GroupPlan& plan, const ObjectiveWeights& weights) {
  return report_study_plan(problem, plan, weights).cost;
}

PlanReport report_study_plan(const Problem& problem, const GroupPlan& plan, const ObjectiveWeights& weights) {
  if (is_pipeline(plan)) {
    CostModel model(problem);
    model.set_weights(weights);
    return report_plan(model, to_pipeline_plan(plan), problem);
  }
  CostModel model(problem, layout_of(plan));  // the job problem's pinned references come with it
  model.set_weights(weights);
  return report_plan(model, device_plan(plan), problem);
}

json plan_figures(const Problem& problem, const GroupPlan& plan, const PlanCost& cost) {
  return {{"iteration_ms", cost.iteration_s * 1000.0},
          {"energy_j", cost.energy_j},
          {"objective", cost.objective},
          {"stages", plan_to_json(plan, problem)["stages"]},
          {"gpus_used", gpu_count(plan)},
          {"gpus", gpu_mix(problem, plan)}};
}

std::string gpu_mix(const Problem& problem, const GroupPlan& plan) {
  auto label = [&](int gpu) { return problem.gpus[gpu].type.empty() ? problem.gpus[gpu].id : problem.gpus[gpu].type; };
  std::vector<std::string> labels;
  for (const Gpu& g : problem.gpus) {
    const std::string l = g.type.empty() ? g.id : g.type;
    if (std::find(labels.begin(), labels.end(), l) == labels.end()) labels.push_back(l);
  }
  std::string text;
  for (const std::string& l : labels) {
    long count = 0;
    for (const GroupStage& s : plan) count += std::count_if(s.gpus.begin(), s.gpus.end(), [&](int g) { return label(g) == l; });
    if (count > 0) text += (text.empty() ? "" : ", ") + std::to_string(count) + "\u00d7" + l;
  }
  return text;
}

std::vector<std::string> sites_used(const Problem& problem, const GroupPlan& plan) {
  std::vector<std::string> out;
  // A group lies on one site (plan_json checks it), so its first GPU says where.
  for (const std::string& site : gpu_sites(problem.gpus))
    if (std::any_of(plan.begin(), plan.end(), [&](const GroupStage& s) { return problem.gpus[s.gpus.front()].site == site; }))
      out.push_back(site);
  return out;
}

int best_of(const StudyOutcomes& outcomes, const std::vector<int>& jobs) {
  int best = -1;
  for (int j : jobs)
    if (outcomes.jobs[j].solved() && (best < 0 || outcomes.jobs[j].cost.objective < outcomes.jobs[best].cost.objective))
      best = j;
  return best;
}

json unsolved_side(const StudySetup& setup, const StudyOutcomes& outcomes, const std::vector<int>& jobs) {
  for (int j : jobs)
    if (outcomes.jobs[j].state == JobOutcome::State::failed) return {{"job", setup.jobs[j].id}, {"error", outcomes.jobs[j].error}};
  return nullptr;
}

void add_counts(json& out, const StudyOutcomes& outcomes, const StudySetup& setup) {
  out["jobs"] = setup.jobs.size();
  out["missing"] = outcomes.missing;
  out["failed"] = outcomes.failed;
  if (!setup.warnings.empty()) out["warnings"] = cap_messages(setup.warnings);
}

}  // namespace geotrain
