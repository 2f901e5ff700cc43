#include "api/simulated_ranking.hpp"

#include <optional>

#include "api/api.hpp"
#include "model/group_layout.hpp"
#include "model/plan_json.hpp"
#include "model/problem_json.hpp"
#include "sim/simulator.hpp"
#include "sim/timing_builder.hpp"

namespace geotrain {

namespace {

// The candidate's analytic figures on its own model, and the objective with
// T_sim: every GPU of the plan idles through the whole iteration, so energy,
// carbon and money change by (T_sim - T) times the plan's idle rates.
RankedCandidate rank(const PreparedProblem& prepared, const CandidatePlan& candidate, SendMode sends) {
  const Problem problem = with_micro_batch_size(prepared.problem, candidate.micro_batch_size);
  const SolveResult& r = candidate.result;
  std::optional<CostModel> own;
  if (!r.layout.empty()) own.emplace(problem, r.layout);
  else if (candidate.micro_batch_size) own.emplace(problem);
  if (own) own->copy_objective_from(prepared.model);
  const CostModel& model = own ? *own : prepared.model;
  const PlanCost cost = model.evaluate(r.plan);
  SimulationOptions options;
  options.sends = sends;
  const double t_sim = simulate(pipeline_timings(problem, model, r.plan), options).iteration_s;
  double idle_w = 0, carbon = 0, money = 0;
  for (const Stage& s : r.plan) {
    idle_w += model.idle_w(s.gpu);
    carbon += model.carbon_idle_g_per_s(s.gpu);
    money += model.money_idle_per_s(s.gpu);
  }
  const double dt = t_sim - cost.iteration_s;
  RankedCandidate out{candidate, t_sim, 0.0};
  out.simulated_objective = model.has_prices()
                                ? model.objective(t_sim, cost.energy_j + dt * idle_w, cost.carbon_g + dt * carbon,
                                                  cost.cost + dt * money)
                                : model.objective(t_sim, cost.energy_j + dt * idle_w);
  return out;
}

}  // namespace

RankedSolve solve_ranked(const PreparedProblem& prepared, const SolveOptions& options, const ProgressCallback& progress) {
  const SendMode sends =
      prepared.problem.search.rank_by == RankBy::simulated_overlapped ? SendMode::overlapped : SendMode::blocking;
  RankedSolve out;
  for (const CandidatePlan& c : candidate_plans(prepared, options, kRankedCandidates, progress))
    out.candidates.push_back(rank(prepared, c, sends));
  // Infeasible candidates (only when nothing fits) never win over a feasible one.
  for (std::size_t i = 1; i < out.candidates.size(); ++i) {
    const RankedCandidate &c = out.candidates[i], &best = out.candidates[static_cast<std::size_t>(out.chosen)];
    const bool fits = c.candidate.cost.feasible, best_fits = best.candidate.cost.feasible;
    if ((fits && !best_fits) || (fits == best_fits && c.simulated_objective < best.simulated_objective))
      out.chosen = static_cast<int>(i);
  }
  return out;
}

nlohmann::ordered_json ranked_result_to_json(const PreparedProblem& prepared, const RankedSolve& ranked,
                                             const std::vector<std::string>& warnings) {
  const RankedCandidate& chosen = ranked.candidates[static_cast<std::size_t>(ranked.chosen)];
  nlohmann::ordered_json out = solve_result_to_json(prepared, chosen.candidate.result, warnings);
  out["rank_by"] = rank_by_name(prepared.problem.search.rank_by);
  out["simulated_iteration_ms"] = chosen.simulated_s * 1000.0;
  out["simulated_objective"] = chosen.simulated_objective;
  out["chosen_candidate"] = ranked.chosen;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const RankedCandidate& c : ranked.candidates) {
    const Problem problem = with_micro_batch_size(prepared.problem, c.candidate.micro_batch_size);
    nlohmann::ordered_json entry = {{"stages", plan_to_json(c.candidate.plan, problem)["stages"]}};
    if (c.candidate.micro_batch_size) entry["micro_batch_size"] = c.candidate.micro_batch_size;
    entry["iteration_ms"] = c.candidate.cost.iteration_s * 1000.0;
    entry["simulated_iteration_ms"] = c.simulated_s * 1000.0;
    entry["objective"] = c.candidate.cost.objective;
    entry["simulated_objective"] = c.simulated_objective;
    entry["feasible"] = c.candidate.cost.feasible;
    list.push_back(entry);
  }
  out["ranked_candidates"] = list;
  return out;
}

}  // namespace geotrain
