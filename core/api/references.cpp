#include "api/references.hpp"

#include <cmath>

#include "search/baselines/baselines.hpp"

namespace geotrain {

namespace {

// A reference divides its term, so it is never 0: a baseline on GPUs that all
// draw 0 W uses 0 J, and E_ref is then 1 J. Plans on such GPUs still score
// 0 for energy, others their joules, and the time term ranks as before
// (with lambda 1, 0 x 0 / 0 would make every objective NaN).
constexpr double kFloorEnergyReferenceJ = 1.0;
constexpr double kFloorTimeReferenceMs = 1.0;  // never needed: any plan takes time
constexpr double kFloorCarbonReferenceG = 1e-3;
constexpr double kFloorMoneyReference = 1e-6;

double usable_reference(double value, double floor) { return value > 0 && value < INFINITY ? value : floor; }

}  // namespace

References resolve_references(const Problem& problem, const CostModel& model) {
  References refs;
  const Objective& o = problem.objective;
  const ObjectiveWeights w = o.effective_weights();
  const bool need_c = w.carbon > 0 && !o.c_ref_g, need_m = w.cost > 0 && !o.m_ref;
  refs.c_ref_g = o.c_ref_g;
  refs.m_ref = o.m_ref;
  if (o.t_ref_ms && o.e_ref_j && !need_c && !need_m) {
    refs.t_ref_ms = *o.t_ref_ms, refs.e_ref_j = *o.e_ref_j, refs.source = "problem";
    return refs;
  }
  const SolveResult baseline = run_metis_improved(model, kReferenceSeed);
  refs.t_ref_ms = o.t_ref_ms ? *o.t_ref_ms : usable_reference(baseline.cost.iteration_s * 1000.0, kFloorTimeReferenceMs);
  refs.e_ref_j = o.e_ref_j ? *o.e_ref_j : usable_reference(baseline.cost.energy_j, kFloorEnergyReferenceJ);
  // A zero-weight term gets the baseline's figure only when there is one to show.
  if (!refs.c_ref_g && (w.carbon > 0 || baseline.cost.carbon_g > 0))
    refs.c_ref_g = usable_reference(baseline.cost.carbon_g, kFloorCarbonReferenceG);
  if (!refs.m_ref && (w.cost > 0 || baseline.cost.cost > 0))
    refs.m_ref = usable_reference(baseline.cost.cost, kFloorMoneyReference);
  const bool any_given = o.t_ref_ms || o.e_ref_j || o.c_ref_g || o.m_ref;
  refs.source = any_given ? "problem+metis-improved" : "metis-improved";
  refs.from_infeasible_plan = !baseline.cost.feasible;
  return refs;
}

void install_references(const References& refs, CostModel& model) {
  model.set_references(refs.t_ref_ms / 1000.0, refs.e_ref_j, refs.c_ref_g.value_or(1.0), refs.m_ref.value_or(1.0));
}

References apply_references(const Problem& problem, CostModel& model) {
  const References refs = resolve_references(problem, model);
  install_references(refs, model);
  return refs;
}

}  // namespace geotrain
