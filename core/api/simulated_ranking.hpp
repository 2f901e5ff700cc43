#pragma once
// search.rank_by "simulated" (docs/simulation.md, "Ranking by the
// simulation"): the planner's best few plans (candidate_plans.hpp), each
// simulated event by event, ranked by the objective with the simulated
// iteration time in place of the formula's (energy, carbon and money follow
// the time: idle power is drawn for the whole iteration). The formula ranks
// the plans the search compares by the million; the simulation only decides
// among the few best, where it can tell what the formula cannot.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/candidate_plans.hpp"
#include "api/planner.hpp"

namespace geotrain {

constexpr int kRankedCandidates = 8;

struct RankedCandidate {
  CandidatePlan candidate;
  double simulated_s = 0;          // T_sim
  double simulated_objective = 0;  // the objective with T_sim
};

struct RankedSolve {
  std::vector<RankedCandidate> candidates;  // in the formula's order (the planner's best first)
  int chosen = 0;                           // the lowest simulated objective (the first of equals)
};

// The problem's search.rank_by must not be "analytic". Throws as run_method does.
RankedSolve solve_ranked(const PreparedProblem& prepared, const SolveOptions& options,
                         const ProgressCallback& progress = {});

// solve_result_to_json of the chosen plan, plus "rank_by", its
// "simulated_iteration_ms" and "simulated_objective", and "ranked_candidates"
// (each candidate's stages, iteration_ms, simulated_iteration_ms, objective,
// simulated_objective), with "chosen_candidate" its index there.
nlohmann::ordered_json ranked_result_to_json(const PreparedProblem& prepared, const RankedSolve& ranked,
                                             const std::vector<std::string>& warnings);

}  // namespace geotrain
