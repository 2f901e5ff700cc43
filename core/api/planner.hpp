#pragma once
// One entry point for every planning method: applies the caller's overrides to
// the problem, installs the objective's references, checks that some plan is
// feasible at all, runs the method and times it.
#include <cstdint>
#include <optional>
#include <string>

#include "model/cost_model.hpp"
#include "model/problem.hpp"
#include "api/references.hpp"
#include "search/solve_result.hpp"

namespace geotrain {

enum class Method { memetic, exact, brute_force, metis, metis_improved, uniform };

const char* method_name(Method method);
std::optional<Method> method_from_name(const std::string& name);
// "memetic|exact|brute-force|metis|metis-improved|uniform"
std::string method_names();

struct SolveOptions {
  Method method = Method::memetic;
  std::optional<std::uint64_t> seed;       // overrides search.seed
  std::optional<double> lambda;            // overrides objective.lambda
  std::optional<double> time_limit_s;      // overrides search.time_limit_s
  std::optional<std::int64_t> max_nodes;   // exact: node budget
  // Plans of exactly this many stages (GPUs) only; memetic, exact and
  // brute-force honour it, the baselines choose their own and refuse it.
  std::optional<int> stage_count;
  std::optional<Parallelism> parallelism;  // overrides search.parallelism
  std::optional<ObjectiveWeights> weights; // overrides objective.weights (and lambda); lambda wins over the file's weights
  std::optional<bool> micro_batch_auto;    // overrides search.micro_batch_size ("auto" = true)
  std::optional<RankBy> rank_by;           // overrides search.rank_by
  std::optional<int> replicas;             // overrides search.replicas; 0 means "auto"
  std::optional<Engine> engine;            // overrides search.engine
};

// Whether the method can be held to a fixed stage count.
bool honours_stage_count(Method method);

// A problem ready for a method: overrides applied, references installed in
// its cost model, and known to have at least one feasible plan.
struct PreparedProblem {
  Problem problem;
  CostModel model;
  References references;
};

// Throws PlanningError, with the reason, when no plan fits in memory (with
// options.stage_count stages, when set); InputError when the method cannot
// honour a stage count. References come from the problem alone, never from
// the stage count.
PreparedProblem prepare_problem(Problem problem, const SolveOptions& options);

// Runs the options' method to the end and times it; with search.engine, also
// the unconstrained search beside it (engine_price.hpp).
SolveResult run_method(const PreparedProblem& prepared, const SolveOptions& options,
                       const ProgressCallback& progress = {});

// The method in the prepared problem's own space (its engine's, when it has
// one), at every micro-batch size it plans.
SolveResult run_method_in_space(const PreparedProblem& prepared, const SolveOptions& options,
                                const ProgressCallback& progress = {});

// A pipeline model's stage counts: the options' stage count and the engine's
// limit (engine_space.hpp). Throws PlanningError when they do not meet.
void limit_stages(CostModel& model, const Problem& problem, const SolveOptions& options);

// Some plan of the problem's plan space (pipeline, or hybrid when it says so)
// fits in memory; `pipeline` is the problem's model, with any stage count range.
bool some_plan_fits(const Problem& problem, const CostModel& pipeline);

// The problem with the options' overrides applied.
Problem with_overrides(Problem problem, const SolveOptions& options);

// The problem at micro-batch size u (a divisor of B; 0 or the problem's own: unchanged).
Problem with_micro_batch_size(Problem problem, std::int64_t u);

// The method on the prepared problem as it is, at its own micro-batch size.
SolveResult run_method_at_fixed_micro_batch(const PreparedProblem& prepared, const SolveOptions& options,
                                            const ProgressCallback& progress = {});

}  // namespace geotrain
