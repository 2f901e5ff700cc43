#include "planner.hpp"

#include "baselines.hpp"
#include "brute_force.hpp"
#include "feasibility.hpp"
#include "input_error.hpp"
#include "stopwatch.hpp"

namespace geotrain {

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

Problem with_overrides(Problem problem, const SolveOptions& options) {
  if (options.seed) problem.search.seed = *options.seed;
  if (options.lambda) problem.objective.lambda = *options.lambda;
  if (options.time_limit_s) problem.search.time_limit_s = *options.time_limit_s;
  return problem;
}

PlannedProblem plan_problem(Problem problem, const SolveOptions& options, const ProgressCallback& progress) {
  PlannedProblem out;
  out.problem = with_overrides(std::move(problem), options);
  const Problem& pr = out.problem;
  CostModel model(pr);
  out.references = apply_references(pr, model);
  if (!any_feasible_plan(model)) throw PlanningError(infeasibility_reason(model, pr));
  Stopwatch clock;
  switch (options.method) {
    case Method::brute_force: out.result = brute_force(model, kBruteForceMaxPlans, progress); break;
    case Method::metis: out.result = run_metis(model); break;
    case Method::metis_improved: out.result = run_metis_improved(model, pr.search.seed); break;
    case Method::uniform: out.result = run_uniform(model); break;
    default:
      throw PlanningError(std::string("method ") + method_name(options.method) + " is not available in this build");
  }
  out.result.elapsed_ms = clock.elapsed_ms();
  return out;
}

}  // namespace geotrain
