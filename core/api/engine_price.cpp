#include "api/engine_price.hpp"

#include <stdexcept>

#include "model/input_error.hpp"
#include "search/replicas/engine_replicas.hpp"
#include "search/space/engine_space.hpp"
#include "search/space/node_shapes.hpp"

namespace geotrain {

namespace {

Problem at_result_micro_batch(const Problem& problem, const SolveResult& r) {
  return with_micro_batch_size(problem, r.micro_batch_size);
}

GroupPlan group_plan_of(const SolveResult& r) {
  return r.layout.empty() ? to_group_plan(r.plan) : to_group_plan(r.plan, r.layout);
}

// Why the engine cannot run the result's plan (one pipeline or replicas).
std::vector<std::string> result_faults(const Problem& problem, const SolveResult& r) {
  const Problem at_u = at_result_micro_batch(problem, r);
  if (!r.replicas.empty()) return engine_replica_faults(problem.search.engine, at_u, r.replicas);
  return engine_plan_faults(problem.search.engine, at_u, group_plan_of(r));
}

bool has_plan(const SolveResult& r) { return !r.plan.empty() || !r.replicas.empty(); }

// `to` takes `from`'s plan, whatever its kind, and its figures.
void take_plan(SolveResult& to, const SolveResult& from) {
  to.plan = from.plan;
  to.layout = from.layout;
  to.replicas = from.replicas;
  to.replica_partition = from.replica_partition;
  to.cost = from.cost;
  to.micro_batch_size = from.micro_batch_size;
}

bool beats(const PlanCost& a, const PlanCost& b) {
  if (a.feasible != b.feasible) return a.feasible;
  return a.objective < b.objective;
}

}  // namespace

bool engine_restricts(const Problem& problem) {
  // Replicas: the engines that join them want equal shares and groups, and
  // none runs a sync period or compression (engine_replicas.hpp).
  const bool replicas = problem.search.replicas_auto || problem.search.replicas > 1;
  if (replicas && problem.search.engine != Engine::any) return true;
  return EngineSpace(problem).restricts(pool_nodes(problem), problem);
}

PreparedProblem unconstrained_problem(const PreparedProblem& prepared, const SolveOptions& options) {
  Problem problem = prepared.problem;
  problem.search.engine = Engine::any;
  CostModel model(problem);
  model.copy_objective_from(prepared.model);
  limit_stages(model, problem, options);
  return PreparedProblem{std::move(problem), std::move(model), prepared.references};
}

void check_engine_plan(const Problem& problem, const SolveResult& result) {
  if (problem.search.engine == Engine::any || !has_plan(result)) return;
  const auto faults = result_faults(problem, result);
  if (!faults.empty())
    throw std::logic_error("the " + result.method + " plan left the space of search.engine \"" +
                           engine_name(problem.search.engine) + "\": " + faults.front());
}

SolveResult with_unconstrained(SolveResult engine_result, SolveResult unconstrained, const Problem& problem) {
  const bool engine_runs_it = has_plan(unconstrained) && result_faults(problem, unconstrained).empty();
  if (engine_runs_it && beats(unconstrained.cost, engine_result.cost)) {
    take_plan(engine_result, unconstrained);
  } else if (beats(engine_result.cost, unconstrained.cost)) {
    take_plan(unconstrained, engine_result);
  }
  unconstrained.unconstrained.reset();
  engine_result.unconstrained = std::make_shared<const SolveResult>(std::move(unconstrained));
  return engine_result;
}

ProgressCallback unconstrained_progress(const ProgressCallback& progress, const SolveResult& engine_result) {
  if (!progress) return {};
  return [progress, &engine_result](const Progress& inner) {
    Progress p = inner;
    p.has_plan = true;
    p.best_plan = engine_result.plan;
    p.best_replicas = engine_result.replicas;
    p.best_layout = engine_result.layout;
    p.best_cost = engine_result.cost;
    p.nodes.reset();
    p.lower_bound.reset();
    return progress(p);
  };
}

SolveResult run_for_engine(const PreparedProblem& prepared, const SolveOptions& options,
                           const ProgressCallback& progress) {
  SolveResult result = run_method_in_space(prepared, options, progress);
  const Problem& problem = prepared.problem;
  if (problem.search.engine == Engine::any) return result;
  check_engine_plan(problem, result);
  if (!engine_restricts(problem)) {
    SolveResult same = result;  // the engine runs every plan of this space: it costs nothing
    return with_unconstrained(std::move(result), std::move(same), problem);
  }
  if (result.stop_reason == "cancelled") return result;
  const PreparedProblem free = unconstrained_problem(prepared, options);
  SolveResult unconstrained = run_method_in_space(free, options, unconstrained_progress(progress, result));
  if (unconstrained.stop_reason == "cancelled") result.stop_reason = "cancelled";
  return with_unconstrained(std::move(result), std::move(unconstrained), problem);
}

}  // namespace geotrain
