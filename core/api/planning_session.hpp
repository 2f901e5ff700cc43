#pragma once
// A planning run that advances in slices of wall time, so that a caller
// without threads (the browser's worker) can report progress between slices
// and cancel. The memetic algorithm advances a generation at a time; other
// methods finish within their first slice. With search.engine, the
// unconstrained run follows the engine's (engine_price.hpp). Results are
// identical to solve_request's for the same problem and options.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/planner.hpp"
#include "api/simulated_ranking.hpp"

namespace geotrain {

// A search that advances one generation a step: the memetic algorithm, or
// its hybrid form over stage-group layouts (planning_session.cpp).
class SteppedRun;

class PlanningSession {
 public:
  // Throws InputError (bad problem or options) or PlanningError (no plan fits).
  PlanningSession(const std::string& problem_text, const SolveOptions& options);
  ~PlanningSession();
  PlanningSession(const PlanningSession&) = delete;
  PlanningSession& operator=(const PlanningSession&) = delete;

  // Works for about budget_ms (at least one generation); true once finished.
  // Throws PlanningError when a method refuses. A method that cannot stop
  // between slices (exact, brute force) runs to its end in the first step and
  // reports through `report` meanwhile (returning false cancels it).
  bool step(double budget_ms, const ProgressCallback& report = {});
  void cancel();
  bool done() const { return finished_; }
  const Problem& problem() const { return prepared_->problem; }

  // {generation, evaluations, elapsed_ms, done, and the best plan so far with
  // its iteration_ms, energy_j and objective once there is one}.
  nlohmann::ordered_json progress_json() const;
  // What solve_request prints; after a cancel, the best plan so far.
  nlohmann::ordered_json result_json() const;

 private:
  SolveResult current_result() const;
  bool step_once();  // one generation of whichever run is on; false when none is

  SolveOptions options_;
  std::vector<std::string> warnings_;
  std::unique_ptr<PreparedProblem> prepared_;
  std::unique_ptr<SteppedRun> memetic_;
  // search.engine that removes plans: the unconstrained problem and its run.
  bool compare_ = false;
  std::unique_ptr<PreparedProblem> free_;
  std::unique_ptr<SteppedRun> free_run_;
  std::optional<SolveResult> result_;  // set when a non-memetic method has run
  std::optional<RankedSolve> ranked_;  // set when search.rank_by has ranked the best plans by simulation
  bool finished_ = false;
};

}  // namespace geotrain
