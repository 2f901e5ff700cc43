#pragma once
// The property tests draw random pools, some of which no plan fits: those are
// skipped, as prepare_problem says with a PlanningError.
#include <optional>

#include "api/planner.hpp"
#include "model/input_error.hpp"

namespace geotrain::testing {

inline std::optional<PreparedProblem> prepare_if_plannable(const Problem& problem, const SolveOptions& options) {
  try {
    return prepare_problem(problem, options);
  } catch (const PlanningError&) {
    return std::nullopt;
  }
}

}  // namespace geotrain::testing
