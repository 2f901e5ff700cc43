#include "api/planner.hpp"

#include "api/engine_price.hpp"
#include "api/micro_batch_search.hpp"
#include "search/baselines/baselines.hpp"
#include "search/exact/brute_force.hpp"
#include "search/exact/exact.hpp"
#include "model/derived_checks.hpp"
#include "model/feasibility.hpp"
#include "model/input_error.hpp"
#include "search/memetic/hybrid_memetic.hpp"
#include "search/space/engine_space.hpp"
#include "search/space/hybrid_methods.hpp"
#include "search/memetic/memetic.hpp"
#include "search/replicas/replica_brute_force.hpp"
#include "search/replicas/replica_search.hpp"
#include "search/stopwatch.hpp"

namespace geotrain {

namespace {

// The exact solver's first upper bound: the better of metis-improved and a
// short memetic run (capped so that it stays a small share of the budget).
// Both stop at `deadline` (the run's own time limit) whatever their share.
Plan exact_incumbent(const CostModel& model, const SearchSettings& search, const Deadline& deadline = {}) {
  // A quarter of what is left at most: exact itself needs the rest.
  SolveResult best = run_metis_improved(model, search.seed, deadline.share_of_remaining(0.25));
  SearchSettings quick = search;
  quick.max_generations = std::min(quick.max_generations, 100);
  quick.time_limit_s = std::min({quick.time_limit_s * 0.1, 2.0, std::max(1e-6, deadline.remaining_ms() / 1000.0)});
  const SolveResult memetic = MemeticAlgorithm(quick).evolve(model);
  if (!best.cost.feasible || (memetic.cost.feasible && memetic.cost.objective < best.cost.objective)) best = memetic;
  return best.plan;
}

ExactSettings exact_settings(const PreparedProblem& prepared, const SolveOptions& options) {
  ExactSettings settings;
  settings.time_limit_s = prepared.problem.search.time_limit_s;
  if (options.max_nodes) settings.max_nodes = *options.max_nodes;
  return settings;
}

// search.parallelism "hybrid": every method over stage-group layouts
// (core/search/space/hybrid_methods.hpp, hybrid_memetic.hpp).
SolveResult run_hybrid_method(const PreparedProblem& prepared, const SolveOptions& options,
                              const ProgressCallback& progress) {
  const CostModel& model = prepared.model;
  const SearchSettings& search = prepared.problem.search;
  if (options.method == Method::memetic) return evolve_hybrid(prepared.problem, model, search, progress);
  const LayoutSpace space(prepared.problem, model);
  switch (options.method) {
    case Method::exact:
      return solve_exact_hybrid(space, exact_settings(prepared, options),
                                [&](const CostModel& m) { return exact_incumbent(m, search); }, progress);
    case Method::brute_force: return brute_force_hybrid(space, kBruteForceMaxPlans, progress);
    case Method::metis: return baseline_hybrid(space, [](const CostModel& m) { return run_metis(m); });
    case Method::metis_improved:
      return baseline_hybrid(space, [&](const CostModel& m) { return run_metis_improved(m, search.seed); });
    case Method::uniform: return uniform_hybrid(space);
    case Method::memetic: break;
  }
  return {};
}

// With search.parallelism "hybrid", plans whose stages are groups count too.
bool any_feasible_hybrid_plan(const Problem& problem, const CostModel& pipeline) {
  if (problem.search.parallelism != Parallelism::hybrid) return false;
  const LayoutSpace space(problem, pipeline);
  return any_feasible_layout(space, space.starting_choices(HybridSettings{}.enumerate_up_to));
}

}  // namespace

bool some_plan_fits(const Problem& problem, const CostModel& pipeline) {
  return any_feasible_plan(pipeline) || any_feasible_hybrid_plan(problem, pipeline);
}

namespace {

constexpr Method kMethods[] = {Method::memetic, Method::exact,          Method::brute_force,
                               Method::metis,   Method::metis_improved, Method::uniform};
}

const char* method_name(Method method) {
  switch (method) {
    case Method::memetic: return "memetic";
    case Method::exact: return "exact";
    case Method::brute_force: return "brute-force";
    case Method::metis: return "metis";
    case Method::metis_improved: return "metis-improved";
    case Method::uniform: return "uniform";
  }
  return "";
}

std::optional<Method> method_from_name(const std::string& name) {
  for (Method m : kMethods)
    if (name == method_name(m)) return m;
  return std::nullopt;
}

std::string method_names() {
  std::string text;
  for (Method m : kMethods) text += (text.empty() ? "" : "|") + std::string(method_name(m));
  return text;
}

bool honours_stage_count(Method method) {
  return method == Method::memetic || method == Method::exact || method == Method::brute_force;
}

Problem with_overrides(Problem problem, const SolveOptions& options) {
  if (options.seed) problem.search.seed = *options.seed;
  if (options.lambda) problem.objective.lambda = *options.lambda, problem.objective.weights.reset();
  if (options.weights) problem.objective.weights = *options.weights;
  if (options.micro_batch_auto) problem.search.micro_batch_auto = *options.micro_batch_auto;
  if (options.rank_by) problem.search.rank_by = *options.rank_by;
  if (options.time_limit_s) problem.search.time_limit_s = *options.time_limit_s;
  if (options.parallelism) problem.search.parallelism = *options.parallelism;
  if (options.replicas) {
    problem.search.replicas_auto = *options.replicas == 0;
    problem.search.replicas = std::max(1, *options.replicas);
  }
  if (options.engine) problem.search.engine = *options.engine;
  return problem;
}

void limit_stages(CostModel& model, const Problem& problem, const SolveOptions& options) {
  if (options.stage_count) model.set_stage_count_range(*options.stage_count, *options.stage_count);
  limit_stage_counts(model, problem);
}

PreparedProblem prepare_problem(Problem problem, const SolveOptions& options) {
  if (options.stage_count && !honours_stage_count(options.method))
    throw InputError(std::string("options.stage_count: the ") + method_name(options.method) +
                     " method chooses its own GPUs; only memetic, exact and brute-force take a stage count");
  Problem pr = with_overrides(std::move(problem), options);
  // A file within the limits always passes; problems built in code (sweeps) may not.
  if (auto faults = derived_quantity_errors(pr); !faults.empty()) throw InputError(faults);
  CostModel model(pr);
  References refs = apply_references(pr, model);
  if (const std::string why = engine_refusal(pr); !why.empty()) throw PlanningError(why);
  limit_stages(model, pr, options);
  if (!some_plan_fits(pr, model) && !(pr.search.micro_batch_auto && any_micro_batch_fits(pr, options)))
    throw PlanningError(infeasibility_reason(model, pr));
  return PreparedProblem{std::move(pr), std::move(model), std::move(refs)};
}

Problem with_micro_batch_size(Problem problem, std::int64_t u) {
  if (u > 0) problem.model.micro_batch_size = u;
  return problem;
}

SolveResult run_method(const PreparedProblem& prepared, const SolveOptions& options, const ProgressCallback& progress) {
  return run_for_engine(prepared, options, progress);
}

SolveResult run_method_in_space(const PreparedProblem& prepared, const SolveOptions& options,
                                const ProgressCallback& progress) {
  if (prepared.problem.search.micro_batch_auto) return run_micro_batch_search(prepared, options, progress);
  return run_method_at_fixed_micro_batch(prepared, options, progress);
}

namespace {

// The method on one pipeline's space (search.parallelism picks single GPUs or stage groups).
SolveResult run_pipeline_method(const PreparedProblem& prepared, const SolveOptions& options,
                                const ProgressCallback& progress) {
  const CostModel& model = prepared.model;
  Stopwatch clock;
  SolveResult result;
  if (prepared.problem.search.parallelism == Parallelism::hybrid) {
    result = run_hybrid_method(prepared, options, progress);
    result.elapsed_ms = clock.elapsed_ms();
    return result;
  }
  switch (options.method) {
    case Method::memetic: result = MemeticAlgorithm(prepared.problem.search).evolve(model, progress); break;
    case Method::exact: {
      // The time limit covers the incumbent's search too: exact gets what is left.
      ExactSettings settings = exact_settings(prepared, options);
      const Plan start = exact_incumbent(model, prepared.problem.search, Deadline(clock, settings.time_limit_s * 1000.0));
      settings.time_limit_s = std::max(1e-6, settings.time_limit_s - clock.elapsed_ms() / 1000.0);
      result = solve_exact(model, settings, start, progress);
      break;
    }
    case Method::brute_force: result = brute_force(model, kBruteForceMaxPlans, progress); break;
    case Method::metis: result = run_metis(model); break;
    case Method::metis_improved:
      result = run_metis_improved(model, prepared.problem.search.seed,
                                  Deadline(clock, prepared.problem.search.time_limit_s * 1000.0));
      break;
    case Method::uniform: result = run_uniform(model); break;
  }
  result.elapsed_ms = clock.elapsed_ms();
  return result;
}

}  // namespace

// The replica dimension around the pipeline method (search/replicas/): with
// search.replicas 1 the method alone, as always; otherwise the method plans
// the whole pool and each candidate replica's share (core/search/replicas/).
SolveResult run_method_at_fixed_micro_batch(const PreparedProblem& prepared, const SolveOptions& options,
                                            const ProgressCallback& progress) {
  const SearchSettings& search = prepared.problem.search;
  if (search.replicas == 1 && !search.replicas_auto) return run_pipeline_method(prepared, options, progress);
  if (options.method == Method::brute_force) return brute_force_replicas(prepared.problem, prepared.model, progress);
  Stopwatch clock;
  const PoolPlanner plan_pool = [&](const Problem& problem, const CostModel& model, const ProgressCallback& report) {
    const PreparedProblem pool{problem, model, prepared.references};
    return run_pipeline_method(pool, options, report);
  };
  SolveResult result = search_replicas(prepared.problem, prepared.model, plan_pool, progress);
  result.elapsed_ms = clock.elapsed_ms();
  return result;
}

}  // namespace geotrain
