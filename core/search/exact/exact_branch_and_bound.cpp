// The node search of the branch and bound: levels, choices and their bounds,
// leaves, budgets and the bound's history (core/EXACT.md, "The search").
#include "search/exact/exact_branch_and_bound.hpp"

#include <algorithm>

#include "search/exact/exact_incumbent.hpp"

namespace geotrain {
namespace exact_detail {

void BranchAndBound::offer(const Plan& plan) {
  if (!is_plan_of(model_, plan)) return;
  const PlanCost cost = model_.evaluate(plan);
  ++best_.evaluations;
  if (!cost.feasible || (has_best_ && !(cost.objective < best_.cost.objective))) return;
  has_best_ = true;
  best_.plan = plan;
  best_.cost = cost;
}

// depth: the level the search is at (-1 outside a search), for the live lower bound.
bool BranchAndBound::out_of_budget(int depth) {
  if (!stop_reason_.empty()) return true;  // once stopped, every later check agrees
  if (best_.nodes >= settings_.max_nodes) return stop_reason_ = "node_limit", true;
  if (check_nodes_ >= 0 && best_.nodes >= check_nodes_ && depth >= 0) {
    check_nodes_ = -1;
    const double open = roots_bounded_ ? std::min(later_roots_bound_, open_bound(depth)) : 0.0;
    const double best = best_.cost.objective;
    if (best > 0 && (best - std::min(open, best)) / best > check_gap_) return stop_reason_ = kRestartWithFloors, true;
  }
  return clock_says_stop(depth);
}

// The bound's history: a point whenever it rose by 0.1% or more (at most
// kBoundHistoryPoints, the last always kept).
void BranchAndBound::record_bound(double elapsed_ms, double bound) {
  auto& history = best_.bound_history;
  if (!history.empty() && !(bound > history.back().lower_bound * (1.0 + 1e-3))) return;
  if (history.size() >= kBoundHistoryPoints) history.pop_back();
  history.push_back({elapsed_ms, bound});
}

// The time limit and the progress callback, every kWorkPerClockCheck units of work.
bool BranchAndBound::clock_says_stop(int depth) {
  if (work_ < next_check_) return false;
  next_check_ = work_ + kWorkPerClockCheck;
  const double elapsed_ms = clock_.elapsed_ms();
  if (elapsed_ms >= settings_.time_limit_s * 1000.0) return stop_reason_ = "time_limit", true;
  if (roots_bounded_) {
    const double open = depth >= 0 ? std::min(later_roots_bound_, open_bound(depth)) : later_roots_bound_;
    record_bound(elapsed_ms, has_best_ ? std::min(open, best_.cost.objective) : open);
  }
  if (progress_ && elapsed_ms - last_report_ms_ >= kProgressEveryMs) {
    last_report_ms_ = elapsed_ms;
    Progress p;
    p.evaluations = best_.evaluations;
    p.elapsed_ms = elapsed_ms;
    p.has_plan = has_best_;
    p.best_plan = best_.plan;
    p.best_cost = best_.cost;
    p.nodes = best_.nodes;
    if (roots_bounded_) {
      const double open = depth >= 0 ? std::min(later_roots_bound_, open_bound(depth)) : later_roots_bound_;
      p.lower_bound = has_best_ ? std::min(open, best_.cost.objective) : open;
    }
    if (!progress_(p)) return stop_reason_ = "cancelled", true;
  }
  return false;
}

void BranchAndBound::setup_stage_count(int stage_count) {
  const int n = model_.num_gpus(), L = model_.num_layers();
  stage_count_ = stage_count;
  cap_middle_.assign(n, 0);
  cap_last_.assign(n, 0);
  blocked_.assign(n, 0);
  for (int g = 0; g < n; ++g) {
    cap_middle_[g] = model_.max_layers(g, stage_count, false);
    cap_last_[g] = model_.max_layers(g, stage_count, true);
    blocked_[g] = cap_middle_[g] < 1;
  }
  class_used_.assign(classes_.members.size(), 0);
  if (static_cast<int>(levels_.size()) < stage_count) {
    levels_.resize(stage_count);
    gpu_buffer_.resize(static_cast<std::size_t>(stage_count) * n);
    layer_buffer_.resize(static_cast<std::size_t>(stage_count) * (L + 1));
  }
  for (int q = 0; q < stage_count; ++q) {
    levels_[q].gpus = &gpu_buffer_[static_cast<std::size_t>(q) * n];
    levels_[q].layers = &layer_buffer_[static_cast<std::size_t>(q) * (L + 1)];
  }
  scratch_.resize(L + 1);
  if (static_cast<int>(curves_.extra_s.size()) < L + 1) curves_ = RemainingCurves(L, n);
  stages_.assign(stage_count, Stage{});
  levels_[0].before = Partial{};
  levels_[0].before.layers_left = L;
}

// Of interchangeable GPUs only the lowest-index unused one may come next.
bool BranchAndBound::is_candidate(int gpu) const {
  if (blocked_[gpu]) return false;
  const int c = classes_.class_of[gpu];
  const std::vector<int>& members = classes_.members[c];
  return class_used_[c] < static_cast<int>(members.size()) && members[class_used_[c]] == gpu;
}

// Layer counts stage q may give `gpu` (already blocked), each with a lower
// bound on every plan that completes it. Stage q is not the last.
int BranchAndBound::layer_choices(int q, int gpu, Choice* out) {
  const Level& level = levels_[q];
  const Partial& p = level.before;
  const int later = stage_count_ - q - 1, left = p.layers_left, extra_max = left - 1 - later;
  work_ += model_.num_gpus() + 2 * left;
  RemainingBound rest;
  if (extra_max < 0 ||
      !bound_remaining(tables_, cap_middle_, cap_last_, blocked_, later, extra_max, rest, curves_))
    return 0;
  const Joined joined = join(model_, p, gpu);
  const NeighbourLinks next = cheapest_neighbour_links(model_, gpu, blocked_);
  const double inner_links_s = later > 1 ? (later - 1) * level.min_round_trip_s : 0.0;
  const double rho = tables_.head_in_layers, M = model_.micro_batches();
  const double head_s = rho * rest.min_layer_s, head_j = rho * rest.min_layer_j;
  const double idle_w = p.idle_w + model_.bound_idle_w(gpu) + rest.idle_w;
  const int most = std::min(cap_middle_[gpu], left - later), least = std::max(1, left - rest.capacity_layers);
  int count = 0;
  for (int n = least; n <= most; ++n) {
    const int rest_layers = left - n, extra = rest_layers - later;
    const double rest_compute_s = rest.first_layers_s + curves_.extra_s[extra] + head_s;
    if (!(rest_compute_s < INFINITY)) continue;
    const double compute_s = n * tables_.layer_s[gpu], tau_s = compute_s + joined.backward_s;
    // sum of tau: stages so far, this one, its round trip to the next, the rest's compute and inner round trips
    const double sum_s = joined.closed_sum_s + tau_s + next.round_trip_s + rest_compute_s + inner_links_s;
    const double rest_tau_sum_s = rest_compute_s + inner_links_s + next.backward_s;
    const double max_s = std::max({joined.closed_max_s, tau_s + next.forward_s, rest.one_layer_stage_s,
                                   rest.min_send_s + curves_.bottleneck_s[extra], rest_tau_sum_s / later,
                                   floor_max_tau_s_});
    const double time_s = std::max(sum_s + (M - 1.0) * max_s, floor_time_s_);
    const double active_j = p.active_j + n * tables_.layer_j[gpu] + rest.first_layers_j + curves_.extra_j[extra] + head_j;
    const double bound = model_.bound_objective(time_s, time_s * idle_w + M * active_j);
    if (bound < INFINITY) out[count++] = {bound, n};  // also drops NaN, which would break the sort
  }
  return count;
}

// Stage q is the last: it takes every layer left, so each candidate GPU
// completes a plan, costed here incrementally and confirmed by the model.
void BranchAndBound::evaluate_leaves(int q) {
  const Partial& p = levels_[q].before;
  const int left = p.layers_left;
  const double M = model_.micro_batches();
  work_ += model_.num_gpus();
  for (int g = 0; g < model_.num_gpus(); ++g) {
    if (!is_candidate(g) || cap_last_[g] < left) continue;
    const Joined joined = join(model_, p, g);
    const double compute_s = left * model_.layer_compute_s(g) + model_.head_compute_s(g);
    const double tau_s = compute_s + joined.backward_s;
    const double time_s = joined.closed_sum_s + tau_s + (M - 1.0) * std::max(joined.closed_max_s, tau_s);
    const double active_j = p.active_j + model_.bound_active_extra_w(g) * compute_s;
    const double idle_w = p.idle_w + model_.bound_idle_w(g);
    ++best_.evaluations;
    if (!promising(model_.bound_objective(time_s, time_s * idle_w + M * active_j))) continue;
    stages_[q] = {g, left};
    offer(stages_);
  }
}

// Lists stage q's GPU choices, best bound first; false when there is nothing
// to explore below (no promising choice, or q is the last stage).
bool BranchAndBound::open_level(int q) {
  ++best_.nodes;
  Level& level = levels_[q];
  level.gpu = -1;
  level.gpu_count = level.gpu_next = 0;
  if (q + 1 == stage_count_) return evaluate_leaves(q), false;
  level.min_round_trip_s = min_round_trip_s(tables_, blocked_);
  // Slowest first: the bounds of all but the fastest few GPUs share one
  // bottleneck curve, which RemainingCurves then computes once.
  for (auto it = tables_.by_layer_s.rbegin(); it != tables_.by_layer_s.rend(); ++it) {
    const int g = *it;
    if (!is_candidate(g)) continue;
    if (work_ >= next_check_ && clock_says_stop(q - 1)) {
      level_aborted_ = true;
      level.gpu_count = 0;
      return false;
    }
    blocked_[g] = 1;
    const int count = layer_choices(q, g, scratch_.data());
    blocked_[g] = 0;
    double bound = INFINITY;
    for (int k = 0; k < count; ++k) bound = std::min(bound, scratch_[k].lower_bound);
    if (count > 0 && promising(bound)) level.gpus[level.gpu_count++] = {bound, g};
  }
  std::sort(level.gpus, level.gpus + level.gpu_count, by_bound);
  return level.gpu_count > 0;
}

void BranchAndBound::take_gpu(int q, int gpu) {
  Level& level = levels_[q];
  blocked_[gpu] = 1;
  ++class_used_[classes_.class_of[gpu]];
  level.gpu = gpu;
  level.layer_count = layer_choices(q, gpu, level.layers);
  level.layer_next = 0;
  std::sort(level.layers, level.layers + level.layer_count, by_bound);
}

void BranchAndBound::release_gpu(int q) {
  Level& level = levels_[q];
  blocked_[level.gpu] = 0;
  --class_used_[classes_.class_of[level.gpu]];
  level.gpu = -1;
}

void BranchAndBound::place_layers(int q, int layers) {
  const Level& level = levels_[q];
  const Partial& p = level.before;
  const int g = level.gpu;
  const Joined joined = join(model_, p, g);
  const double compute_s = layers * model_.layer_compute_s(g);
  Partial& next = levels_[q + 1].before;
  next.closed_sum_s = joined.closed_sum_s;
  next.closed_max_s = joined.closed_max_s;
  next.open_tau_s = compute_s + joined.backward_s;
  next.idle_w = p.idle_w + model_.bound_idle_w(g);
  next.active_j = p.active_j + model_.bound_active_extra_w(g) * compute_s;
  next.prev_gpu = g;
  next.layers_left = p.layers_left - layers;
  stages_[q] = {g, layers};
}

// Depth-first over stages, best bound first. False when a budget stopped it.
bool BranchAndBound::search(int stage_count, double root_bound) {
  setup_stage_count(stage_count);
  pending_bound_ = root_bound;
  const bool opened = open_level(0);
  pending_bound_ = INFINITY;
  if (level_aborted_) {
    stopped_bound_ = root_bound;
    return false;
  }
  if (!opened) return true;
  int depth = 0;
  while (depth >= 0) {
    if (out_of_budget(depth)) {
      stopped_bound_ = open_bound(depth);
      return false;
    }
    Level& level = levels_[depth];
    if (level.gpu >= 0) {
      if (level.layer_next < level.layer_count && promising(level.layers[level.layer_next].lower_bound)) {
        pending_bound_ = level.layers[level.layer_next].lower_bound;
        place_layers(depth, level.layers[level.layer_next++].value);
        const bool opened = open_level(depth + 1);
        if (level_aborted_) {
          stopped_bound_ = open_bound(depth);  // pending_bound_ included
          pending_bound_ = INFINITY;
          return false;
        }
        pending_bound_ = INFINITY;
        if (opened) ++depth;
        continue;
      }
      release_gpu(depth);
    }
    if (level.gpu_next < level.gpu_count && promising(level.gpus[level.gpu_next].lower_bound)) {
      take_gpu(depth, level.gpus[level.gpu_next++].value);
      continue;
    }
    --depth;
  }
  return true;
}

// Least bound over the choices not yet explored at depths 0..depth. The
// choice being explored at a depth is covered by the depths below it, and
// lists are sorted, so the next entry of each list is its least.
double BranchAndBound::open_bound(int depth) const {
  double bound = pending_bound_;  // a choice whose level is being listed
  for (int q = 0; q <= depth; ++q) {
    const Level& level = levels_[q];
    if (level.gpu >= 0 && level.layer_next < level.layer_count)
      bound = std::min(bound, level.layers[level.layer_next].lower_bound);
    if (level.gpu_next < level.gpu_count) bound = std::min(bound, level.gpus[level.gpu_next].lower_bound);
  }
  return bound;
}

}  // namespace exact_detail
}  // namespace geotrain
