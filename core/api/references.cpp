#include "api/references.hpp"

#include <cmath>

#include "search/baselines.hpp"

namespace geotrain {

namespace {

// A reference divides its term, so it is never 0: a baseline on GPUs that all
// draw 0 W uses 0 J, and E_ref is then 1 J. Plans on such GPUs still score
// 0 for energy, others their joules, and the time term ranks as before
// (with lambda 1, 0 x 0 / 0 would make every objective NaN).
constexpr double kFloorEnergyReferenceJ = 1.0;
constexpr double kFloorTimeReferenceMs = 1.0;  // never needed: any plan takes time

double usable_reference(double value, double floor) { return value > 0 && value < INFINITY ? value : floor; }

}  // namespace

References resolve_references(const Problem& problem, const CostModel& model) {
  References refs;
  const auto& given_t = problem.objective.t_ref_ms;
  const auto& given_e = problem.objective.e_ref_j;
  if (given_t && given_e) return References{*given_t, *given_e, "problem"};
  const SolveResult baseline = run_metis_improved(model, kReferenceSeed);
  refs.t_ref_ms = given_t ? *given_t : usable_reference(baseline.cost.iteration_s * 1000.0, kFloorTimeReferenceMs);
  refs.e_ref_j = given_e ? *given_e : usable_reference(baseline.cost.energy_j, kFloorEnergyReferenceJ);
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
