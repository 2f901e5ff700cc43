#include "api/references.hpp"

#include "search/baselines.hpp"

namespace geotrain {

References resolve_references(const Problem& problem, const CostModel& model) {
  References refs;
  const auto& given_t = problem.objective.t_ref_ms;
  const auto& given_e = problem.objective.e_ref_j;
  if (given_t && given_e) return References{*given_t, *given_e, "problem"};
  const SolveResult baseline = run_metis_improved(model, kReferenceSeed);
  refs.t_ref_ms = given_t ? *given_t : baseline.cost.iteration_s * 1000.0;
  refs.e_ref_j = given_e ? *given_e : baseline.cost.energy_j;
  refs.source = (given_t || given_e) ? "problem+metis-improved" : "metis-improved";
  refs.from_infeasible_plan = !baseline.cost.feasible;
  return refs;
}

References apply_references(const Problem& problem, CostModel& model) {
  const References refs = resolve_references(problem, model);
  model.set_references(refs.t_ref_ms / 1000.0, refs.e_ref_j);
  return refs;
}

}  // namespace geotrain
