#include "api/robustness_request.hpp"

#include <algorithm>

#include "api/api.hpp"
#include "api/candidate_plans.hpp"
#include "api/simulate_request.hpp"
#include "model/input_error.hpp"
#include "model/json_fields.hpp"
#include "model/message_list.hpp"
#include "model/plan_json.hpp"
#include "model/problem_json.hpp"
#include "sim/timing_builder.hpp"

namespace geotrain {

using json = nlohmann::ordered_json;

namespace {

constexpr int kMaxPlans = 16;
constexpr int kMaxScenarios = 10000;
constexpr double kMaxSlowdown = 100;

const char* const kOwnKeys[] = {"plans", "scenarios", "jitter", "straggler_slowdown", "sends"};

double ms(double s) { return s * 1000.0; }

}  // namespace

RobustnessOptions parse_robustness_options(const nlohmann::json& options) {
  RobustnessOptions out;
  if (options.is_null()) return out;
  if (!options.is_object()) throw InputError("options: must be an object");
  FieldReader r;
  nlohmann::json solve = options;
  for (const char* key : kOwnKeys) solve.erase(key);
  std::vector<std::string> errors;
  try {
    out.solve = parse_solve_options(solve);
  } catch (const InputError& e) {
    errors = e.messages();
  }
  if (auto plans = r.integer(options, "options", "plans", false, 1, kMaxPlans)) out.plans = static_cast<int>(*plans);
  if (auto n = r.integer(options, "options", "scenarios", false, 0, kMaxScenarios)) out.settings.scenarios = static_cast<int>(*n);
  if (auto jitter = r.number(options, "options", "jitter", false, Range::non_negative)) {
    if (*jitter >= 1) r.error("options.jitter", "must be in [0, 1), got " + FieldReader::describe(*jitter));
    else out.settings.jitter = *jitter;
  }
  if (auto slow = r.number(options, "options", "straggler_slowdown", false, Range::positive)) {
    if (*slow < 1 || *slow > kMaxSlowdown)
      r.error("options.straggler_slowdown", "must be in [1, 100], got " + FieldReader::describe(*slow));
    else out.settings.straggler_slowdown = *slow;
  }
  if (options.contains("sends")) {
    const nlohmann::json sends = {{"sends", options["sends"]}};
    try {
      out.settings.sends = parse_simulate_options(sends).sends;
    } catch (const InputError& e) {
      for (const auto& m : e.messages()) errors.push_back(m);
    }
  }
  for (const auto& m : r.errors()) errors.push_back(m);
  if (!errors.empty()) throw InputError(errors);
  return out;
}

namespace {

json plan_entry(const Problem& base, const CandidatePlan& candidate, const RobustnessSettings& settings, int rank,
                RobustnessFigures& figures_out) {
  const Problem problem = with_micro_batch_size(base, candidate.micro_batch_size);
  const PipelineTimings timings = pipeline_timings(problem, candidate.plan);
  const RobustnessFigures f = assess_robustness(timings, settings);
  json out = {{"rank", rank}};
  out["stages"] = plan_to_json(candidate.plan, problem)["stages"];
  if (candidate.micro_batch_size) out["micro_batch_size"] = candidate.micro_batch_size;
  out["objective"] = candidate.cost.objective;
  out["analytic_iteration_ms"] = ms(timings.analytic_iteration_s);
  out["simulated_iteration_ms"] = ms(f.nominal_s);
  if (settings.scenarios > 0) {
    out["mean_ms"] = ms(f.mean_s);
    out["median_ms"] = ms(f.median_s);
    out["p90_ms"] = ms(f.p90_s);
    out["worst_ms"] = ms(f.worst_s);
    out["worst_straggler"] = problem.gpus[static_cast<std::size_t>(f.worst_straggler_gpu)].id;
    // How much slower than planned, on average and in the bad 10%.
    out["mean_degradation"] = f.mean_s / f.nominal_s - 1.0;
    out["p90_degradation"] = f.p90_s / f.nominal_s - 1.0;
    json times = json::array();
    for (double t : f.scenario_s) times.push_back(ms(t));
    out["scenario_ms"] = times;
  }
  figures_out = f;
  return out;
}

}  // namespace

json robustness_request(const std::string& problem_text, const RobustnessOptions& options) {
  ParsedProblem parsed = parse_problem_text(problem_text);
  const PreparedProblem prepared = prepare_problem(std::move(parsed.problem), options.solve);
  RobustnessSettings settings = options.settings;
  settings.seed = prepared.problem.search.seed;
  const std::vector<CandidatePlan> candidates = candidate_plans(prepared, options.solve, options.plans);
  json plans = json::array();
  int most_robust = 0, fastest = 0;
  double best_p90 = 0, best_nominal = 0;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    RobustnessFigures f;
    plans.push_back(plan_entry(prepared.problem, candidates[i], settings, static_cast<int>(i) + 1, f));
    const double p90 = settings.scenarios > 0 ? f.p90_s : f.nominal_s;
    if (i == 0 || p90 < best_p90) best_p90 = p90, most_robust = static_cast<int>(i);
    if (i == 0 || f.nominal_s < best_nominal) best_nominal = f.nominal_s, fastest = static_cast<int>(i);
  }
  json out = {{"study", "robustness"}, {"problem", prepared.problem.name}};
  out["method"] = method_name(options.solve.method);
  out["seed"] = settings.seed;
  out["scenarios"] = settings.scenarios;
  out["jitter"] = settings.jitter;
  out["straggler_slowdown"] = settings.straggler_slowdown;
  out["sends"] = send_mode_name(settings.sends);
  out["plans"] = plans;
  out["fastest_as_planned"] = fastest;   // index into plans: the lowest simulated iteration without disturbance
  out["most_robust"] = most_robust;      // index into plans: the lowest p90 under the scenarios
  if (!parsed.warnings.empty()) out["warnings"] = cap_messages(parsed.warnings);
  return out;
}

}  // namespace geotrain
