#pragma once
// What an engine costs (search.engine): the method plans inside the engine's
// space, then, when the engine removes some plan of the problem's space, runs
// again with engine "any" (same method, seed and settings, its own time
// limit), so that the unconstrained figures are exactly what "any" returns.
// The two answers are then made consistent: a plan of the unconstrained run
// that the engine can run and that beats the engine's own is the engine's
// answer, and the engine's plan, being a plan of the whole space, is the
// unconstrained answer when it is the better one. So the price reported,
// engine over unconstrained, is never negative.
#include "api/planner.hpp"

namespace geotrain {

// Whether the problem's engine removes some plan of its space.
bool engine_restricts(const Problem& problem);

// The prepared problem with engine "any", under the same references.
PreparedProblem unconstrained_problem(const PreparedProblem& prepared, const SolveOptions& options);

// Throws std::logic_error (a bug: every method must stay in the engine's
// space) when the engine cannot run the result's plan.
void check_engine_plan(const Problem& problem, const SolveResult& result);

// The engine's result with the unconstrained one beside it (see above).
SolveResult with_unconstrained(SolveResult engine_result, SolveResult unconstrained, const Problem& problem);

// Progress of the unconstrained run, shown as the engine's best plan so far
// with the unconstrained run's counters.
ProgressCallback unconstrained_progress(const ProgressCallback& progress, const SolveResult& engine_result);

// run_method's body: the engine's run, checked, and the unconstrained one.
SolveResult run_for_engine(const PreparedProblem& prepared, const SolveOptions& options,
                           const ProgressCallback& progress);

}  // namespace geotrain
