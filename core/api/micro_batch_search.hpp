#pragma once
// search.micro_batch_size "auto" (objectives.md; the paper's future work): u
// is a decision too. u changes M = B / u, every compute and send time, the
// bubble, the memory and, with stage groups, which data shards divide it, so
// each candidate u is a problem of its own. The method plans each divisor of
// B under the same references (the file's u's), the file's u first, and the
// best plan over all of them wins: never worse than the file's u alone.
#include <cstdint>
#include <vector>

#include "api/planner.hpp"

namespace geotrain {

// The divisors of B, the problem's own u first, then ascending.
std::vector<std::int64_t> micro_batch_candidates(const ModelConfig& model);

// Runs the method at every candidate u, sharing the time limit among those
// left; a candidate whose proven lower bound (pipeline space) cannot beat the
// best plan so far is skipped. The result's plan is at result.micro_batch_size.
SolveResult run_micro_batch_search(const PreparedProblem& prepared, const SolveOptions& options,
                                   const ProgressCallback& progress);

// The prepared problem at micro-batch size u: the same references and stage
// count; throws PlanningError when no plan fits at that u.
PreparedProblem prepare_at_micro_batch(const PreparedProblem& prepared, std::int64_t u,
                                       const SolveOptions& options);

// Whether some candidate u has a plan that fits (with the options' stage count).
bool any_micro_batch_fits(const Problem& problem, const SolveOptions& options);

}  // namespace geotrain
