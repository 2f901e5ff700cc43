#include "search/exact/exact.hpp"

#include <algorithm>
#include <vector>

#include "search/exact/exact_branch_and_bound.hpp"
#include "search/stopwatch.hpp"

namespace geotrain {

using exact_detail::BranchAndBound;
using exact_detail::kBoundHistoryPoints;
using exact_detail::kRestartWithFloors;

// The floors pay off on pools the plain search is far from finishing, and
// cost time on those it finishes soon: the plain search runs first, and at
// floor_check_nodes nodes (a count, so the same on every platform), if its
// proven gap is still above floor_check_gap, it starts over with the floors,
// from the best plan so far, with the budgets left. Otherwise it goes on.
SolveResult solve_exact(const CostModel& model, const ExactSettings& settings, const Plan& incumbent,
                        const ProgressCallback& progress) {
  settings.validate();
  if (!settings.bottleneck_floor || settings.max_nodes <= settings.floor_check_nodes)
    return BranchAndBound(model, settings, progress).run(incumbent);
  const Stopwatch clock;
  ExactSettings plain = settings;
  plain.bottleneck_floor = false;
  BranchAndBound first_search(model, plain, progress);
  first_search.check_gap_at(settings.floor_check_nodes, settings.floor_check_gap);
  SolveResult first = first_search.run(incumbent);
  if (first.stop_reason != kRestartWithFloors) return first;
  ExactSettings rest = settings;
  rest.time_limit_s = std::max(1e-6, settings.time_limit_s - clock.elapsed_ms() / 1000.0);
  rest.max_nodes = settings.max_nodes - first.nodes;
  // What the first search proved stays proven: its bound is a floor for the
  // second's, and its counts and time carry on in the second's reports.
  const double offset_ms = clock.elapsed_ms();
  const double first_bound = first.cost.objective * (1.0 - first.gap.value_or(1.0));
  ProgressCallback carried;
  if (progress)
    carried = [&](const Progress& p) {
      Progress q = p;
      q.elapsed_ms += offset_ms;
      q.evaluations += first.evaluations;
      if (q.nodes) *q.nodes += first.nodes;
      if (q.lower_bound) *q.lower_bound = std::max(*q.lower_bound, std::min(first_bound, p.best_cost.objective));
      return progress(q);
    };
  SolveResult second = BranchAndBound(model, rest, carried).run(first.plan);
  second.nodes += first.nodes;
  second.evaluations += first.evaluations;
  second.elapsed_ms = clock.elapsed_ms();
  std::vector<SolveResult::BoundPoint> history = first.bound_history;
  if (!history.empty()) history.pop_back();  // its end point: the second search goes on from there
  for (SolveResult::BoundPoint point : second.bound_history) {
    point.elapsed_ms += offset_ms;
    point.lower_bound = std::max(point.lower_bound, std::min(first_bound, second.cost.objective));
    history.push_back(point);
  }
  if (history.size() > kBoundHistoryPoints)  // the first search's earliest points go
    history.erase(history.begin(), history.end() - static_cast<std::ptrdiff_t>(kBoundHistoryPoints));
  second.bound_history = history;
  if (!second.optimal.value_or(false) && second.cost.objective > 0) {
    const double bound = std::max(second.cost.objective * (1.0 - second.gap.value_or(1.0)), first_bound);
    second.gap = std::clamp((second.cost.objective - bound) / second.cost.objective, 0.0, 1.0);
  }
  return second;
}

}  // namespace geotrain
