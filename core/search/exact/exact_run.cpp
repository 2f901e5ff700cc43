// One run of the branch and bound: first plans, the bottleneck floors, the
// stage counts' roots in order of their bound, and the result with its gap.
#include <algorithm>

#include "search/bounds/bottleneck_bound.hpp"
#include "search/bounds/bottleneck_proof.hpp"
#include "search/bounds/crossing_flow_bound.hpp"
#include "search/exact/exact_branch_and_bound.hpp"
#include "search/exact/exact_incumbent.hpp"
#include "model/input_error.hpp"

namespace geotrain {
namespace exact_detail {

// The floor from the clusters' relaxation, raised by deciding makespans
// between it and the incumbent's largest tau (bottleneck_bound.hpp); plans
// met on the way become incumbents.
void BranchAndBound::raise_bottleneck_floor() {
  const Deadline limit(clock_, settings_.time_limit_s * 1000.0);
  const double n = model_.num_gpus();
  // Its tables cost O(N^2) (about 3 ms at 512 GPUs) before it can read the
  // clock: with less time left than a few times that, the floor is skipped.
  if (limit.remaining_ms() < 1.0 + 3e-5 * n * n || std::min(model_.num_gpus(), model_.num_layers()) < 2) return;
  const BottleneckTables tables = make_bottleneck_tables(model_);
  const double root_s = root_bottleneck_floor_s(tables, model_);
  const double ceiling_s = best_.plan.size() > 1 ? largest_tau_s(model_, best_.plan) : 0;  // 0: one stage
  // Role evaluations each crossing-flow floor may spend (a count: the same
  // on every platform; by default 200 million: on 32-GPU pools over 3-12
  // sites they use 10-80 million, 0.05-0.5 s in all). 0: no flows.
  const std::int64_t flow_work = settings_.crossing_flow_work;
  CrossingFlow flow(tables, model_);
  const double flow_s = flow_work == 0 ? root_s
                                       : crossing_bottleneck_floor_s(flow, root_s, ceiling_s > 0 ? ceiling_s : INFINITY,
                                                                     flow_work, limit.share_of_remaining(0.1));
  const BottleneckProof proof = prove_bottleneck_floor(tables, model_, classes_, flow_s, ceiling_s > 0 ? ceiling_s : INFINITY,
                                                       settings_.max_nodes, limit.share_of_remaining(0.3));
  for (const Plan& plan : proof.plans) offer(plan);
  floor_max_tau_s_ = proof.floor_s;
  floor_time_s_ = plan_time_floor_s(tables, model_, proof.floor_s, root_bottleneck_floor_s(tables, model_, true));
  // Then T_iter itself, up to the incumbent's (when it has two or more stages).
  if (best_.plan.size() < 2) return;
  if (flow_work > 0)
    floor_time_s_ = std::max(floor_time_s_, crossing_time_floor_s(flow, tables, model_, floor_max_tau_s_,
                                                                  best_.cost.iteration_s, flow_work,
                                                                  limit.share_of_remaining(0.1)));
  const TimeProof time = prove_time_floor(tables, model_, classes_, floor_max_tau_s_, floor_time_s_,
                                          best_.cost.iteration_s, settings_.max_nodes, limit.share_of_remaining(0.3));
  floor_time_s_ = std::max(floor_time_s_, time.time_floor_s);
}

SolveResult BranchAndBound::run(const Plan& incumbent) {
  best_.method = "exact";
  offer(incumbent);
  offer(memory_feasible_plan(model_));
  for (const Plan& plan : greedy_plans(model_)) offer(plan);
  if (!has_best_) throw PlanningError("no feasible plan");
  offer(improve_locally(model_, best_.plan, best_.evaluations, 200'000,
                        Deadline(clock_, settings_.time_limit_s * 1000.0)));
  if (settings_.bottleneck_floor) raise_bottleneck_floor();

  // Root bound of every allowed stage count (Q = 1 is solved outright), then the
  // stage counts in order of that bound: the most promising first.
  const int most_stages = std::min({model_.num_gpus(), model_.num_layers(), model_.most_stages()});
  std::vector<Choice> roots;
  double unexplored_bound = INFINITY;
  for (int q = model_.fewest_stages(); q <= most_stages; ++q) {
    if (stop_reason_.empty() && out_of_budget()) unexplored_bound = 0;  // never bounded: 0 is all we know
    if (!stop_reason_.empty()) continue;
    setup_stage_count(q);
    if (open_level(0)) roots.push_back({levels_[0].gpus[0].lower_bound, q});
    if (level_aborted_) unexplored_bound = 0;  // its root never bounded
  }
  std::sort(roots.begin(), roots.end(), by_bound);
  roots_bounded_ = unexplored_bound == INFINITY;
  if (roots_bounded_ && !roots.empty()) record_bound(clock_.elapsed_ms(), std::min(roots.front().lower_bound, best_.cost.objective));
  for (std::size_t r = 0; r < roots.size(); ++r) {
    const Choice& root = roots[r];
    later_roots_bound_ = r + 1 < roots.size() ? roots[r + 1].lower_bound : INFINITY;
    if (!stop_reason_.empty()) {
      unexplored_bound = std::min(unexplored_bound, root.lower_bound);
      continue;
    }
    if (promising(root.lower_bound) && !search(root.value, root.lower_bound)) unexplored_bound = std::min(unexplored_bound, stopped_bound_);
  }

  best_.elapsed_ms = clock_.elapsed_ms();
  if (stop_reason_.empty()) best_.bound_history.push_back({best_.elapsed_ms, best_.cost.objective});
  else if (roots_bounded_) best_.bound_history.push_back({best_.elapsed_ms, std::min(unexplored_bound, best_.cost.objective)});
  if (stop_reason_.empty()) {
    best_.stop_reason = "complete";
    best_.optimal = true;
    best_.gap = 0.0;
  } else {
    const double incumbent_objective = best_.cost.objective;
    const double bound = std::min(unexplored_bound, incumbent_objective);
    best_.stop_reason = stop_reason_;
    best_.optimal = false;
    best_.gap = incumbent_objective > 0 ? std::clamp((incumbent_objective - bound) / incumbent_objective, 0.0, 1.0) : 0.0;
  }
  return best_;
}

}  // namespace exact_detail
}  // namespace geotrain
