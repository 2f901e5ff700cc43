#pragma once
// T_ref, E_ref, C_ref and M_ref, the objective's normalisers (Eq. 16 and
// objectives.md). A problem may give them; whatever it leaves out comes from
// the `metis-improved` baseline plan, as in the paper (Sect. 6.7), drawn with
// a fixed seed so that the values depend on the problem alone. When even that
// plan does not fit in memory its figures still serve: they only scale the
// terms. A reference that would be 0 (a baseline on GPUs that draw 0 W, or on
// sites with no carbon or prices) is floored at 1 J, 1 mg or 1e-6 money.
// C_ref and M_ref are resolved only when their weight is > 0 or the baseline
// runs anyway; a term with weight 0 needs none.
#include <optional>
#include <string>

#include "model/cost_model.hpp"
#include "model/problem.hpp"

namespace geotrain {

constexpr std::uint64_t kReferenceSeed = 0;

struct References {
  double t_ref_ms = 0;
  double e_ref_j = 0;
  std::optional<double> c_ref_g;  // empty: not needed and not computed (1 in the model)
  std::optional<double> m_ref;
  std::string source;  // "problem", "metis-improved" or "problem+metis-improved"
  bool from_infeasible_plan = false;  // the metis-improved plan does not fit in memory
};

References resolve_references(const Problem& problem, const CostModel& model);

// Resolves the references and installs them (with the problem's weights) in the model.
References apply_references(const Problem& problem, CostModel& model);

// Installs resolved references in a model of the same problem.
void install_references(const References& refs, CostModel& model);

}  // namespace geotrain
