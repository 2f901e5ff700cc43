#include "search/space/hybrid_methods.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "model/feasibility.hpp"
#include "model/input_error.hpp"
#include "search/baselines/baselines.hpp"
#include "search/exact/brute_force.hpp"
#include "search/space/plan_space.hpp"
#include "search/stopwatch.hpp"

namespace geotrain {

namespace {

// The best result over layouts, and what every method reports of the search.
struct LayoutTally {
  SolveResult best;
  bool found = false;

  void offer(SolveResult r, const CostModel& model) {
    const bool wins = !found || better_result(r.cost, best.cost);
    best.evaluations += r.evaluations;
    best.nodes += r.nodes;
    ++best.layouts_tried;
    if (!wins) return;
    r.evaluations = best.evaluations, r.nodes = best.nodes, r.layouts_tried = best.layouts_tried;
    best = std::move(r);
    best.layout = model.layout();
    found = true;
  }

  // Inner progress with the layout, and the best plan of any layout so far.
  ProgressCallback wrap(const ProgressCallback& progress, const CostModel& model) const {
    if (!progress) return {};
    return [this, &progress, &model](const Progress& inner) {
      Progress p = inner;
      p.evaluations += best.evaluations;
      p.best_layout = model.layout();
      if (found && (!inner.has_plan || better_result(best.cost, inner.best_cost))) {
        p.has_plan = true;
        p.best_plan = best.plan, p.best_cost = best.cost, p.best_layout = best.layout;
      }
      return progress(p);
    };
  }
};

}  // namespace

SolveResult solve_exact_hybrid(const LayoutSpace& space, const ExactSettings& settings,
                               const std::function<Plan(const CostModel&)>& incumbent,
                               const ProgressCallback& progress) {
  const std::vector<ShapeChoice> choices = space.every_choice(kHybridExactMaxLayouts, "exact");
  Stopwatch clock;
  LayoutTally tally;
  double lower_bound = INFINITY;
  bool all_proven = true, stopped = false;
  std::string reason = "complete";
  for (std::size_t k = 0; k < choices.size(); ++k) {
    const auto model = space.model(choices[k]);
    if (!any_feasible_plan(*model)) continue;
    const double left_s = settings.time_limit_s - clock.elapsed_ms() / 1000.0;
    if (left_s <= 0 || stopped) {
      all_proven = false, lower_bound = 0;  // an unsolved layout bounds nothing
      if (!stopped) reason = "time_limit";
      continue;
    }
    ExactSettings share = settings;
    share.time_limit_s = left_s / static_cast<double>(choices.size() - k);
    share.max_nodes = std::max<std::int64_t>(1, (settings.max_nodes - tally.best.nodes) /
                                                    static_cast<std::int64_t>(choices.size() - k));
    SolveResult r = solve_exact(*model, share, incumbent(*model), tally.wrap(progress, *model));
    const bool proven = r.optimal.value_or(false);
    lower_bound = std::min(lower_bound, proven ? r.cost.objective : r.cost.objective * (1.0 - r.gap.value_or(1.0)));
    if (!proven) {
      all_proven = false;
      if (r.stop_reason == "cancelled") stopped = true, reason = "cancelled";
      else if (reason == "complete") reason = r.stop_reason;
    }
    tally.offer(std::move(r), *model);
  }
  if (!tally.found) throw PlanningError("no feasible plan");
  SolveResult out = std::move(tally.best);
  out.method = "exact";
  out.optimal = all_proven;
  out.gap = all_proven ? 0.0 : std::max(0.0, (out.cost.objective - lower_bound) / out.cost.objective);
  out.stop_reason = reason;
  return out;
}

SolveResult brute_force_hybrid(const LayoutSpace& space, double max_plans, const ProgressCallback& progress) {
  const std::vector<ShapeChoice> choices = space.every_choice(kHybridExactMaxLayouts, "brute force");
  std::vector<std::unique_ptr<CostModel>> models;
  double plans = 0;
  for (const ShapeChoice& c : choices) {
    models.push_back(space.model(c));
    plans += plan_space_size(models.back()->num_gpus(), models.back()->num_layers());
  }
  if (plans > max_plans) {
    char text[300];
    std::snprintf(text, sizeof text,
                  "brute force refused: %zu stage-group layouts give %.4g plans, more than its limit of %.4g; "
                  "use --method exact or memetic",
                  choices.size(), plans, max_plans);
    throw PlanningError(text);
  }
  LayoutTally tally;
  for (const auto& model : models) {
    if (!any_feasible_plan(*model)) continue;
    SolveResult r = brute_force(*model, max_plans, tally.wrap(progress, *model));
    const bool cancelled = r.stop_reason == "cancelled";
    tally.offer(std::move(r), *model);
    if (cancelled) break;
  }
  if (!tally.found) throw PlanningError("no feasible plan");
  SolveResult out = std::move(tally.best);
  out.method = "brute-force";
  return out;
}

SolveResult baseline_hybrid(const LayoutSpace& space, const std::function<SolveResult(const CostModel&)>& baseline) {
  const std::vector<ShapeChoice> choices = space.uniform_choices();
  SolveResult best;
  bool found = false;
  int tried = 0;
  std::int64_t evaluations = 0;
  for (const ShapeChoice& c : choices) {
    const auto model = space.model(c);
    SolveResult r = baseline(*model);
    ++tried, evaluations += r.evaluations;
    // Metis ranks by time: feasible first, then the shorter iteration.
    const bool wins = !found || (r.cost.feasible != best.cost.feasible ? r.cost.feasible
                                                                        : r.cost.iteration_s < best.cost.iteration_s);
    if (!wins) continue;
    best = std::move(r);
    best.layout = model->layout();
    found = true;
  }
  best.layouts_tried = tried;
  best.evaluations = evaluations;
  return best;
}

SolveResult uniform_hybrid(const LayoutSpace& space) {
  const auto model = space.model(space.whole_node_choice());
  SolveResult r = run_uniform(*model);
  r.layout = model->layout();
  r.layouts_tried = 1;
  return r;
}

}  // namespace geotrain
