#include "api/api.hpp"

#include <algorithm>
#include <optional>

#include "model/gpu_catalogue.hpp"
#include "model/input_error.hpp"
#include "model/json_fields.hpp"
#include "model/message_list.hpp"
#include "model/plan_json.hpp"
#include "model/link_table.hpp"
#include "model/plan_report.hpp"
#include "model/replica_plan_json.hpp"
#include "model/problem_json.hpp"
#include "model/objective_json.hpp"
#include "api/engine_price.hpp"
#include "api/micro_batch_search.hpp"
#include "api/references.hpp"
#include "api/simulated_ranking.hpp"
#include "api/replica_output.hpp"
#include "search/bounds/certificate.hpp"
#include "search/bounds/group_floor.hpp"
#include "search/bounds/pool_relaxation.hpp"
#include "search/stopwatch.hpp"

namespace geotrain {

using json = nlohmann::ordered_json;

namespace {

void add_objective_settings(json& out, const Problem& problem, const References& refs) {
  out["lambda"] = problem.objective.lambda;
  out["t_ref_ms"] = refs.t_ref_ms;
  out["e_ref_j"] = refs.e_ref_j;
  out["references"] = refs.source;
  // objectives.md: the weights in use (lambda's when the file gives none) and
  // the carbon and money references (null when their weight is 0 and no
  // baseline ran).
  out["weights"] = weights_to_json(problem.objective.effective_weights());
  out["c_ref_g"] = refs.c_ref_g ? json(*refs.c_ref_g) : json(nullptr);
  out["m_ref"] = refs.m_ref ? json(*refs.m_ref) : json(nullptr);
  // Said only when true: an infeasible plan's time may be short, so a good plan's objective may exceed 1.
  if (refs.from_infeasible_plan) out["references_from_infeasible_plan"] = true;
}

void add_warnings(json& out, const std::vector<std::string>& warnings) {
  if (!warnings.empty()) out["warnings"] = cap_messages(warnings);  // the first 100, then "... and N more"
}

}  // namespace

namespace {

// search.engine: the engine, and beside its plan the unconstrained one with
// what the engine costs (core/api/engine_price.hpp).
void add_engine_price(json& out, const Problem& problem, const SolveResult& r) {
  out["engine"] = engine_name(problem.search.engine);
  if (!r.unconstrained) return;
  const SolveResult& u = *r.unconstrained;
  // Its plan as the result's own would print: one pipeline (a refined one is one replica), or replicas.
  const bool replicas = u.replicas.size() > 1;
  const GroupPlan plan = u.replicas.size() == 1 ? u.replicas.front().stages
                         : u.layout.empty()     ? to_group_plan(u.plan)
                                                : to_group_plan(u.plan, u.layout);
  const Problem at_u = with_micro_batch_size(problem, u.micro_batch_size);
  out["unconstrained"] = {{"objective", u.cost.objective},
                          {"iteration_ms", u.cost.iteration_s * 1000.0},
                          {"energy_j", u.cost.energy_j},
                          {"feasible", u.cost.feasible},
                          {"gpus_used", replicas ? gpu_count(u.replicas) : gpu_count(plan)},
                          {"stage_count", replicas ? u.replicas.front().stages.size() : plan.size()},
                          {"micro_batch_size", at_u.model.micro_batch_size},
                          {"elapsed_ms", u.elapsed_ms}};
  if (replicas) {
    out["unconstrained"]["replica_count"] = u.replicas.size();
    out["unconstrained"]["replicas"] = replica_plan_to_json(u.replicas, at_u)["replicas"];
  } else {
    out["unconstrained"]["stages"] = plan_to_json(plan, at_u)["stages"];
  }
  auto percent = [](double engine, double free) { return free > 0 ? 100.0 * (engine / free - 1.0) : 0.0; };
  out["engine_price"] = {{"restricts", engine_restricts(problem)},
                         {"objective_pct", percent(r.cost.objective, u.cost.objective)},
                         {"iteration_pct", percent(r.cost.iteration_s, u.cost.iteration_s)}};
}

void add_micro_batch(json& out, const Problem& problem) {
  out["micro_batch_size"] = problem.model.micro_batch_size;
  out["micro_batch_size_mode"] = problem.search.micro_batch_auto ? "auto" : "fixed";
}

}  // namespace

json evaluate_request(const std::string& problem_text, const std::string& plan_text) {
  const ParsedProblem parsed = parse_problem_text(problem_text);
  const json plan_document = parse_json_text(plan_text, "plan");
  // References come from the problem alone (its pipeline baseline at its own
  // u), so a group plan's objective, or one at another u, compares directly.
  CostModel file_model(parsed.problem);
  const References refs = apply_references(parsed.problem, file_model);
  const std::int64_t plan_u = parse_plan_micro_batch_size(plan_document, parsed.problem);
  const Problem problem = with_micro_batch_size(parsed.problem, plan_u);
  std::vector<std::string> warnings = parsed.warnings;
  const bool other_u = plan_u && plan_u != parsed.problem.model.micro_batch_size;
  if (other_u)
    warnings.push_back("plan.micro_batch_size: evaluated at the plan's " + std::to_string(plan_u) +
                       " (chosen by search.micro_batch_size \"auto\"), not model.micro_batch_size " +
                       std::to_string(parsed.problem.model.micro_batch_size));
  const ReplicaPlan replicas = parse_replica_plan(plan_document, problem);
  json out = {{"problem", problem.name}};
  if (needs_replica_model(replicas, problem)) {
    out.update(replica_evaluation_json(replicas, problem, file_model));
  } else {
    const GroupPlan& plan = replicas.front().stages;
    // The file's model serves a pipeline plan at its own u; others get their own.
    std::optional<CostModel> own_model;
    if (!is_pipeline(plan)) own_model.emplace(problem, layout_of(plan));
    else if (other_u) own_model.emplace(problem);
    if (own_model) own_model->copy_objective_from(file_model);
    const CostModel& model = own_model ? *own_model : file_model;
    const Plan device_stages = is_pipeline(plan) ? to_pipeline_plan(plan) : device_plan(plan);
    out.update(report_to_json(report_plan(model, device_stages, problem), problem));
  }
  add_objective_settings(out, problem, refs);
  add_micro_batch(out, problem);
  add_warnings(out, warnings);
  return out;
}

SolveOptions parse_solve_options(const nlohmann::json& options) {
  FieldReader r;
  SolveOptions out;
  if (options.is_null()) return out;
  if (!r.open_object(options, "options",
                     {"method", "seed", "lambda", "weights", "time_limit_s", "max_nodes", "stage_count", "parallelism",
                      "micro_batch_size", "replicas", "engine", "rank_by"}))
    throw InputError(r.errors());
  if (auto name = r.string(options, "options", "method", false)) {
    if (auto method = method_from_name(*name)) out.method = *method;
    else r.error("options.method", "must be one of " + method_names() + ", got " + FieldReader::describe(*name));
  }
  if (auto seed = r.integer(options, "options", "seed", false, 0, (std::int64_t{1} << 53) - 1))
    out.seed = static_cast<std::uint64_t>(*seed);
  out.lambda = r.number(options, "options", "lambda", false, Range::unit_closed);
  out.time_limit_s = r.number(options, "options", "time_limit_s", false, Range::positive);
  if (out.time_limit_s && *out.time_limit_s > 86400) {
    r.error("options.time_limit_s", "must be at most 86400 (one day), got " + FieldReader::describe(*out.time_limit_s));
  }
  out.max_nodes = r.integer(options, "options", "max_nodes", false, 1, std::int64_t{1} << 50);
  if (auto stages = r.integer(options, "options", "stage_count", false, 1, kMaxGpus))
    out.stage_count = static_cast<int>(*stages);
  if (auto parallelism = r.string(options, "options", "parallelism", false)) {
    if (*parallelism == "hybrid") out.parallelism = Parallelism::hybrid;
    else if (*parallelism == "pipeline") out.parallelism = Parallelism::pipeline;
    else r.error("options.parallelism", "must be \"pipeline\" or \"hybrid\", got " + FieldReader::describe(*parallelism));
  }
  if (auto engine = r.string(options, "options", "engine", false)) {
    if (auto e = engine_from_name(*engine)) out.engine = *e;
    else r.error("options.engine", "must be one of " + engine_names() + ", got " + FieldReader::describe(*engine));
  }
  if (options.contains("weights") && !options["weights"].is_null()) {
    out.weights = read_weights(r, options, "options");  // the file's rules, named under options
  }
  if (auto mode = r.string(options, "options", "micro_batch_size", false)) {
    if (*mode == "auto") out.micro_batch_auto = true;
    else if (*mode == "fixed") out.micro_batch_auto = false;
    else r.error("options.micro_batch_size", "must be \"fixed\" or \"auto\", got " + FieldReader::describe(*mode));
  }
  if (auto rank = r.string(options, "options", "rank_by", false)) {
    if (auto parsed = rank_by_from_name(*rank)) out.rank_by = *parsed;
    else r.error("options.rank_by", "must be \"analytic\", \"simulated\" or \"simulated_overlapped\", got " +
                                        FieldReader::describe(*rank));
  }
  if (options.contains("replicas") && !options["replicas"].is_null()) {
    const auto& value = options["replicas"];
    if (value.is_string() && value.get<std::string>() == "auto") out.replicas = 0;
    else if (value.is_string())
      r.error("options.replicas", "must be 1, an integer number of replicas or \"auto\", got " + FieldReader::describe(value));
    else if (auto count = r.integer(options, "options", "replicas", false, 1, kMaxGpus)) out.replicas = static_cast<int>(*count);
  }
  if (!r.errors().empty()) throw InputError(r.errors());
  return out;
}

namespace {

// The certificate: a proven lower bound on every plan of the space searched
// and this plan's gap to it (docs/planners.md, "The certificate"), raised by what the
// search itself proved. One pipeline model is bounded by exact's root
// relaxation; stage groups, several micro-batch sizes and replicas by the
// bound valid for every plan (pool_relaxation.hpp).
void add_certificate(json& out, const PreparedProblem& prepared, const Problem& problem, const SolveResult& r) {
  Stopwatch clock;
  // The floors that see sites and links may use what the run left of its
  // time limit (issue 23; counts of work bound them too).
  const Deadline budget = Deadline::after_ms(std::max(0.0, problem.search.time_limit_s * 1000.0 - r.elapsed_ms));
  const bool replicas = problem.search.replicas != 1 || problem.search.replicas_auto;
  const bool one_model =
      r.layout.empty() && problem.search.parallelism != Parallelism::hybrid && !r.lower_bound && !replicas;
  double relaxation = one_model ? objective_lower_bound(prepared.model, r.plan, budget)
                                : std::max(any_plan_lower_bound(prepared.model), r.lower_bound.value_or(0.0));
  // One pipeline of stage groups at one micro-batch size: the floor that
  // knows sites and nodes too.
  if (!one_model && problem.search.parallelism == Parallelism::hybrid && !problem.search.micro_batch_auto && !replicas)
    relaxation = std::max(relaxation, group_plan_lower_bound(prepared.problem, prepared.model, budget));
  const Certificate certificate = certify_with_bound(relaxation, r);
  out["lower_bound"] = certificate.lower_bound;
  if (r.cost.feasible) out["gap"] = certificate.gap;  // an infeasible plan is no answer to bound
  out["lower_bound_ms"] = clock.elapsed_ms();
}

// What the search did, after the plan's figures: the objective's settings,
// its counts and stop reason, the certificate and the micro-batch choice.
void add_search_fields(json& out, const PreparedProblem& prepared, const Problem& problem, const SolveResult& r,
                       std::size_t stage_count) {
  add_objective_settings(out, problem, prepared.references);
  out["evaluations"] = r.evaluations;
  out["elapsed_ms"] = r.elapsed_ms;
  out["stop_reason"] = r.stop_reason;
  if (r.method == "memetic") {
    out["generations"] = r.generations;
    out["seed"] = problem.search.seed;
  }
  if (r.method == "metis-improved") out["seed"] = problem.search.seed;
  if (problem.search.parallelism == Parallelism::hybrid) {
    out["parallelism"] = "hybrid";
    out["stage_count"] = stage_count;
    out["layouts_tried"] = r.layouts_tried;
  }
  if (problem.search.replicas != 1 || problem.search.replicas_auto) {
    out["replicas_mode"] = problem.search.replicas_auto ? json("auto") : json(problem.search.replicas);
    out["replica_partition"] = r.replicas.empty() ? std::string("one pipeline") : r.replica_partition;
    out["replica_partitions_tried"] = r.replica_partitions_tried;
  }
  if (r.optimal) out["optimal"] = *r.optimal;
  if (problem.search.engine != Engine::any) add_engine_price(out, problem, r);
  add_certificate(out, prepared, problem, r);
  if (r.method == "exact") out["nodes"] = r.nodes;
  if (!r.bound_history.empty()) {
    json history = json::array();
    for (const auto& point : r.bound_history) history.push_back({point.elapsed_ms, point.lower_bound});
    out["bound_history"] = history;  // [elapsed_ms, lower_bound] pairs
  }
  out["micro_batches"] = problem.model.micro_batches();
  add_micro_batch(out, problem);
  if (problem.search.micro_batch_auto) {
    out["micro_batch_sizes_planned"] = r.micro_batch_sizes_planned;
    out["micro_batch_sizes_pruned"] = r.micro_batch_sizes_pruned;
  }
}

// A plan the replica model prices (replicas, or shared site pipes).
json replica_solution_to_json(const PreparedProblem& prepared, const Problem& problem, const SolveResult& r,
                              const std::vector<std::string>& warnings) {
  const ReplicaPlan plan =
      !r.replicas.empty()
          ? r.replicas
          : single_replica(r.layout.empty() ? to_group_plan(r.plan) : to_group_plan(r.plan, r.layout),
                           problem.model.micro_batches());
  CostModel objective(problem);
  objective.copy_objective_from(prepared.model);
  json out = {{"method", r.method}, {"problem", problem.name}};
  add_replica_solution(out, plan, problem, objective);
  add_search_fields(out, prepared, problem, r, plan.front().stages.size());
  // Practical figures and the stage metrics go last, as for one pipeline.
  for (const char* key : {"carbon_g", "cost", "facility_energy_j", "sites", "run", "stage_metrics"}) {
    if (!out.contains(key)) continue;
    json value = out[key];
    out.erase(key);
    out[key] = std::move(value);
  }
  std::vector<std::string> notes = warnings;
  if (r.replicas.size() > 1 && r.method == "exact")
    notes.push_back("search.replicas: exact proves each pool's pipeline, not the choice of replicas; "
                    "brute-force enumerates every replica plan of a small pool");
  add_warnings(out, notes);
  return out;
}

}  // namespace

json solve_result_to_json(const PreparedProblem& prepared, const SolveResult& r,
                          const std::vector<std::string>& warnings) {
  // "auto" may have chosen another u than the file's.
  const Problem problem = with_micro_batch_size(prepared.problem, r.micro_batch_size);
  if (!r.replicas.empty() || network_has_capacities(problem.network))
    return replica_solution_to_json(prepared, problem, r, warnings);
  const bool other_u = problem.model.micro_batch_size != prepared.problem.model.micro_batch_size;
  // A hybrid search's plan indexes its own layout's groups: figure it on that
  // layout's model, with the prepared objective settings.
  std::optional<CostModel> own_model;
  if (!r.layout.empty()) own_model.emplace(problem, r.layout);
  else if (other_u) own_model.emplace(problem);
  if (own_model) own_model->copy_objective_from(prepared.model);
  const CostModel& model = own_model ? *own_model : prepared.model;
  const PlanReport report = report_plan(model, r.plan, problem);
  const GroupPlan plan = r.layout.empty() ? to_group_plan(r.plan) : to_group_plan(r.plan, r.layout);
  json out = {{"method", r.method}, {"problem", problem.name}};
  out["stages"] = plan_to_json(plan, problem)["stages"];
  out["iteration_ms"] = report.cost.iteration_s * 1000.0;
  out["energy_j"] = report.cost.energy_j;
  out["objective"] = report.cost.objective;
  out["feasible"] = report.cost.feasible;
  out["gpus_used"] = gpu_count(plan);
  out["bottleneck_stage"] = report.cost.bottleneck;
  add_search_fields(out, prepared, problem, r, r.plan.size());
  add_practical_figures(out, report, problem);
  out["stage_metrics"] = stage_reports_to_json(report, problem);
  add_warnings(out, warnings);
  return out;
}

json solve_request(const std::string& problem_text, const SolveOptions& options, const ProgressCallback& progress) {
  ParsedProblem parsed = parse_problem_text(problem_text);
  const PreparedProblem prepared = prepare_problem(std::move(parsed.problem), options);
  // search.rank_by "simulated": the best few plans, ranked by their simulated iteration (simulated_ranking.hpp).
  if (prepared.problem.search.rank_by != RankBy::analytic)
    return ranked_result_to_json(prepared, solve_ranked(prepared, options, progress), parsed.warnings);
  return solve_result_to_json(prepared, run_method(prepared, options, progress), parsed.warnings);
}

json progress_to_json(const Progress& progress, const Problem& problem) {
  json out = {{"generation", progress.generation},
              {"evaluations", progress.evaluations},
              {"elapsed_ms", progress.elapsed_ms}};
  if (progress.has_plan && !progress.best_replicas.empty()) {
    out["replicas"] = replica_plan_to_json(progress.best_replicas, problem)["replicas"];
    out["iteration_ms"] = progress.best_cost.iteration_s * 1000.0;
    out["energy_j"] = progress.best_cost.energy_j;
    out["carbon_g"] = progress.best_cost.carbon_g;
    out["cost"] = progress.best_cost.cost;
    out["objective"] = progress.best_cost.objective;
  } else if (progress.has_plan) {
    const GroupPlan plan = progress.best_layout.empty() ? to_group_plan(progress.best_plan)
                                                        : to_group_plan(progress.best_plan, progress.best_layout);
    out["stages"] = plan_to_json(plan, problem)["stages"];
    out["iteration_ms"] = progress.best_cost.iteration_s * 1000.0;
    out["energy_j"] = progress.best_cost.energy_j;
    out["carbon_g"] = progress.best_cost.carbon_g;
    out["cost"] = progress.best_cost.cost;
    out["objective"] = progress.best_cost.objective;
  }
  if (progress.nodes) out["nodes"] = *progress.nodes;
  if (progress.lower_bound) out["lower_bound"] = *progress.lower_bound;
  return out;
}

json validate_request(const std::string& problem_text) {
  const ParsedProblem parsed = parse_problem_text(problem_text);
  return {{"problem", problem_to_json(parsed.problem)}, {"warnings", cap_messages(parsed.warnings)}};
}

json catalogue_json() {
  json list = json::array();
  for (const auto& e : gpu_catalogue()) {
    list.push_back({{"type", e.name},
                    {"fp16_tflops", e.fp16_tflops},
                    {"bf16_tflops", e.bf16_tflops},
                    {"fp32_tflops", e.fp32_tflops},
                    {"memory_gib", e.memory_gib},
                    {"idle_w", e.idle_w},
                    {"active_w", e.active_w},
                    {"source", e.source},
                    {"price_per_hour", e.price_per_hour},
                    {"price_source", e.price_source}});
  }
  return list;
}

json error_to_json(const std::exception& error) {
  json messages = json::array();
  std::string kind = "internal";
  if (auto* input = dynamic_cast<const InputError*>(&error)) {
    kind = "input";
    for (const auto& m : cap_messages(input->messages())) messages.push_back(m);
  } else {
    if (dynamic_cast<const PlanningError*>(&error)) kind = "planning";
    messages.push_back(error.what());
  }
  return {{"error", {{"kind", kind}, {"messages", messages}}}};
}

}  // namespace geotrain
