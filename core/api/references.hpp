#pragma once
// T_ref and E_ref, the objective's normalisers (Eq. 16). A problem may give
// them; whatever it leaves out comes from the `metis-improved` baseline plan,
// as in the paper (Sect. 6.7), drawn with a fixed seed so that the values
// depend on the problem alone. When even that plan does not fit in memory its
// time and energy still serve: they only scale the two terms. A baseline
// that uses no energy (every GPU it runs on draws 0 W) gives E_ref = 1 J.
#include <string>

#include "model/cost_model.hpp"
#include "model/problem.hpp"

namespace geotrain {

constexpr std::uint64_t kReferenceSeed = 0;

struct References {
  double t_ref_ms = 0;
  double e_ref_j = 0;
  std::string source;  // "problem", "metis-improved" or "problem+metis-improved"
  bool from_infeasible_plan = false;  // the metis-improved plan does not fit in memory
};

References resolve_references(const Problem& problem, const CostModel& model);

// Resolves the references and installs them (with the problem's lambda) in the model.
References apply_references(const Problem& problem, CostModel& model);

}  // namespace geotrain
