#include "api/micro_batch_search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

#include "model/derived_checks.hpp"
#include "model/feasibility.hpp"
#include "model/input_error.hpp"
#include "search/bounds/certificate.hpp"
#include "search/stopwatch.hpp"

namespace geotrain {

std::vector<std::int64_t> micro_batch_candidates(const ModelConfig& model) {
  const std::int64_t B = model.global_batch_size;
  std::vector<std::int64_t> low, high;  // divisors up to sqrt(B), and their partners
  for (std::int64_t d = 1; d * d <= B; ++d) {
    if (B % d != 0) continue;
    low.push_back(d);
    if (d * d != B) high.push_back(B / d);
  }
  std::vector<std::int64_t> out{model.micro_batch_size};
  low.insert(low.end(), high.rbegin(), high.rend());
  for (std::int64_t u : low)
    if (u != model.micro_batch_size) out.push_back(u);
  return out;
}

namespace {

// The problem at u and its model (with the options' stage count), or nothing
// when u breaks a limit or no plan fits at u.
std::optional<std::pair<Problem, CostModel>> model_at(const Problem& base, std::int64_t u, const SolveOptions& options) {
  Problem problem = with_micro_batch_size(base, u);
  if (!derived_quantity_errors(problem).empty()) return std::nullopt;
  CostModel model(problem);
  try {
    limit_stages(model, problem, options);
  } catch (const PlanningError&) {
    return std::nullopt;  // the engine allows no stage count asked for at this u
  }
  if (!some_plan_fits(problem, model)) return std::nullopt;
  return std::make_pair(std::move(problem), std::move(model));
}

// A candidate ready to plan, under the file's references; the file's own u
// is the prepared problem itself.
std::optional<PreparedProblem> try_prepare(const PreparedProblem& prepared, std::int64_t u, const SolveOptions& options) {
  if (u == prepared.problem.model.micro_batch_size && some_plan_fits(prepared.problem, prepared.model)) return prepared;
  auto at_u = model_at(prepared.problem, u, options);
  if (!at_u) return std::nullopt;
  at_u->second.copy_objective_from(prepared.model);
  return PreparedProblem{std::move(at_u->first), std::move(at_u->second), prepared.references};
}

bool better(const SolveResult& a, const SolveResult& b) {
  if (a.cost.feasible != b.cost.feasible) return a.cost.feasible;
  return a.cost.objective < b.cost.objective;
}

// What the run proved about its own u: exact's proof or gap, else the root bound.
double proven_bound(const SolveResult& r, double root_bound) {
  if (r.optimal.value_or(false) && r.cost.feasible) return r.cost.objective;
  if (r.gap && r.cost.feasible) return std::max(root_bound, r.cost.objective * (1.0 - *r.gap));
  return root_bound;
}

}  // namespace

PreparedProblem prepare_at_micro_batch(const PreparedProblem& prepared, std::int64_t u, const SolveOptions& options) {
  if (u <= 0 || u == prepared.problem.model.micro_batch_size) return prepared;
  auto candidate = try_prepare(prepared, u, options);
  if (!candidate) throw PlanningError("no plan fits in memory at micro_batch_size " + std::to_string(u));
  return std::move(*candidate);
}

bool any_micro_batch_fits(const Problem& problem, const SolveOptions& options) {
  for (std::int64_t u : micro_batch_candidates(problem.model))
    if (model_at(problem, u, options)) return true;
  return false;
}

SolveResult run_micro_batch_search(const PreparedProblem& prepared, const SolveOptions& options,
                                   const ProgressCallback& progress) {
  Stopwatch clock;
  const double limit_ms = prepared.problem.search.time_limit_s * 1000.0;
  const bool pipeline_space = prepared.problem.search.parallelism == Parallelism::pipeline;
  const std::vector<std::int64_t> candidates = micro_batch_candidates(prepared.problem.model);
  SolveResult best;
  bool has_best = false, all_proven = true, cancelled = false;
  double lower_bound = std::numeric_limits<double>::infinity();
  std::int64_t evaluations = 0, nodes = 0;
  int planned = 0, pruned = 0;
  for (std::size_t k = 0; k < candidates.size() && !cancelled; ++k) {
    const double left_ms = limit_ms - clock.elapsed_ms();
    if (has_best && left_ms <= 0) {
      all_proven = false;  // the rest go unplanned: the bound below covers only what was seen
      lower_bound = -std::numeric_limits<double>::infinity();
      break;
    }
    std::optional<PreparedProblem> at_u = try_prepare(prepared, candidates[k], options);
    if (!at_u) continue;
    // The pipeline space has a proven bound per u: a u that cannot beat the
    // best plan so far needs no search (exact and memetic alike).
    const double root = pipeline_space ? objective_lower_bound(at_u->model) : -INFINITY;
    if (has_best && best.cost.feasible && root >= best.cost.objective) {
      ++pruned;
      lower_bound = std::min(lower_bound, root);
      continue;
    }
    // An equal share of what is left for each candidate still to plan.
    at_u->problem.search.time_limit_s = std::max(1e-3, left_ms / 1000.0 / static_cast<double>(candidates.size() - k));
    SolveOptions at_options = options;
    at_options.time_limit_s = at_u->problem.search.time_limit_s;
    SolveResult r = run_method_at_fixed_micro_batch(*at_u, at_options, progress);
    ++planned;
    evaluations += r.evaluations, nodes += r.nodes;
    cancelled = r.stop_reason == "cancelled";
    all_proven = all_proven && r.optimal.value_or(false);
    lower_bound = std::min(lower_bound, pipeline_space ? proven_bound(r, root) : -INFINITY);
    r.micro_batch_size = candidates[k];
    if (!has_best || better(r, best)) best = std::move(r), has_best = true;
  }
  best.evaluations = evaluations;
  best.nodes = nodes;
  best.micro_batch_sizes_planned = planned;
  best.micro_batch_sizes_pruned = pruned;
  if (cancelled) best.stop_reason = "cancelled";
  if (best.optimal) best.optimal = all_proven;
  best.gap.reset();
  if (pipeline_space && best.cost.feasible) {
    // Unplanned, unbounded candidates (the time ran out) leave only 0 proven.
    best.lower_bound = std::isfinite(lower_bound) ? std::min(lower_bound, best.cost.objective) : 0.0;
    if (best.cost.objective > 0)
      best.gap = std::clamp((best.cost.objective - *best.lower_bound) / best.cost.objective, 0.0, 1.0);
  } else if (all_proven && best.optimal) {
    best.gap = 0.0;
  }
  best.elapsed_ms = clock.elapsed_ms();
  return best;
}

}  // namespace geotrain
