#include "search/exact.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "search/bottleneck_proof.hpp"
#include "search/exact_incumbent.hpp"
#include "search/gpu_symmetry.hpp"
#include "model/input_error.hpp"
#include "search/lower_bounds.hpp"
#include "search/stopwatch.hpp"

namespace geotrain {

void ExactSettings::validate() const {
  if (!(time_limit_s > 0))
    throw std::invalid_argument("exact.time_limit_s: must be > 0, got " + std::to_string(time_limit_s));
  if (max_nodes < 1) throw std::invalid_argument("exact.max_nodes: must be >= 1, got " + std::to_string(max_nodes));
}

namespace {

// A bound prunes only when clearly above the incumbent: the bound sums the
// same terms as the cost model in another order, so rounding may lift it a
// few ulps above the cost of a plan it covers.
constexpr double kBoundSlack = 1e-12;
constexpr std::int64_t kWorkPerClockCheck = std::int64_t{1} << 15;
constexpr double kProgressEveryMs = 200;
constexpr std::size_t kBoundHistoryPoints = 100;
constexpr const char* kRestartWithFloors = "restart_with_floors";

struct Choice {
  double lower_bound;
  int value;  // a GPU index or a layer count
};

// Total order: ties broken by value, so every platform explores alike.
bool by_bound(const Choice& a, const Choice& b) {
  return a.lower_bound < b.lower_bound || (a.lower_bound == b.lower_bound && a.value < b.value);
}

// What stages 0..q-1 add up to, before stage q is chosen.
struct Partial {
  double closed_sum_s = 0;  // tau of stages 0..q-2, complete
  double closed_max_s = 0;
  double open_tau_s = 0;    // tau of stage q-1 but its forward send, which waits for stage q's GPU
  double idle_w = 0;
  double active_j = 0;      // sum of (P_act - P_idle) * comp
  int prev_gpu = -1;
  int layers_left = 0;
};

// Stage q-1 completed by stage q's GPU, and stage q's backward send.
struct Joined {
  double closed_sum_s, closed_max_s, backward_s;
};

Joined join(const CostModel& model, const Partial& p, int gpu) {
  if (p.prev_gpu < 0) return {0, 0, 0};
  const double tau = p.open_tau_s + model.send_s(p.prev_gpu, gpu);
  return {p.closed_sum_s + tau, std::max(p.closed_max_s, tau), model.send_s(gpu, p.prev_gpu)};
}

// One depth of the search: the choices left for stage q.
struct Level {
  Partial before;
  double min_round_trip_s = 0;  // between any two GPUs free at this level
  Choice* gpus = nullptr;
  int gpu_count = 0, gpu_next = 0;
  int gpu = -1;  // the GPU being explored, -1 before one is taken
  Choice* layers = nullptr;
  int layer_count = 0, layer_next = 0;
};

class BranchAndBound {
 public:
  BranchAndBound(const CostModel& model, const ExactSettings& settings, const ProgressCallback& progress)
      : model_(model), settings_(settings), progress_(progress), tables_(make_pool_tables(model)),
        classes_(interchangeable_gpu_classes(model)) {}

  SolveResult run(const Plan& incumbent);
  // At `nodes` nodes, stop with kRestartWithFloors if the gap is still above
  // `gap` (see solve_exact).
  void check_gap_at(std::int64_t nodes, double gap) { check_nodes_ = nodes, check_gap_ = gap; }

 private:
  void offer(const Plan& plan);
  bool promising(double lower_bound) const { return lower_bound * (1.0 - kBoundSlack) < best_.cost.objective; }
  bool out_of_budget(int depth = -1);
  bool clock_says_stop(int depth);
  void record_bound(double elapsed_ms, double bound);
  void setup_stage_count(int stage_count);
  bool is_candidate(int gpu) const;
  int layer_choices(int q, int gpu, Choice* out);
  void evaluate_leaves(int q);
  bool open_level(int q);
  void take_gpu(int q, int gpu);
  void release_gpu(int q);
  void place_layers(int q, int layers);
  bool search(int stage_count, double root_bound);
  double open_bound(int depth) const;

  const CostModel& model_;
  const ExactSettings& settings_;
  const ProgressCallback& progress_;
  Stopwatch clock_;  // before the tables: the time limit covers building them
  const PoolTables tables_;
  const GpuClasses classes_;
  SolveResult best_;
  bool has_best_ = false;
  std::int64_t work_ = 0, next_check_ = kWorkPerClockCheck;
  double last_report_ms_ = -kProgressEveryMs;  // the first clock check reports
  std::string stop_reason_;
  double stopped_bound_ = INFINITY;  // least bound of what the stopped search left open
  // A level's list costs O(N (N + L)) to build (milliseconds at 512 GPUs), so
  // the clock is read inside it too; a level cut short leaves the choice that
  // opened it (pending_bound_) unexplored.
  std::int64_t check_nodes_ = -1;
  double check_gap_ = 1;
  bool level_aborted_ = false;
  double pending_bound_ = INFINITY;
  // For live progress: whether every stage count has its root bound yet, and
  // the least root bound of the stage counts not yet searched.
  bool roots_bounded_ = false;
  double later_roots_bound_ = INFINITY;
  // Every plan of two or more stages has a stage at least this slow.
  double floor_max_tau_s_ = 0;
  double floor_time_s_ = 0;  // and a T_iter at least this long
  void raise_bottleneck_floor();

  // State of the stage count being searched; buffers sized once per solve.
  int stage_count_ = 0;
  std::vector<int> cap_middle_, cap_last_, class_used_;
  std::vector<char> blocked_;  // used, or unable to hold a layer at this stage count
  std::vector<Level> levels_;
  std::vector<Choice> gpu_buffer_, layer_buffer_, scratch_;
  RemainingCurves curves_;
  Plan stages_;
};

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

// Largest tau of a plan (as the cost model forms it); 0 for one stage.
double largest_tau_s(const CostModel& model, const Plan& plan) {
  double largest = 0;
  for (std::size_t q = 0; plan.size() > 1 && q < plan.size(); ++q) {
    const int g = plan[q].gpu;
    double tau = plan[q].layers * (model.layer_compute_s(g) + model.tensor_layer_s(g));
    if (q + 1 < plan.size()) tau += model.send_s(g, plan[q + 1].gpu);
    else tau += model.head_compute_s(g);
    if (q > 0) tau += model.send_s(g, plan[q - 1].gpu);
    largest = std::max(largest, tau);
  }
  return largest;
}

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
  const double ceiling_s = largest_tau_s(model_, best_.plan);
  const BottleneckProof proof = prove_bottleneck_floor(tables, model_, classes_, root_s, ceiling_s > 0 ? ceiling_s : INFINITY,
                                                       settings_.max_nodes, limit.share_of_remaining(0.3));
  for (const Plan& plan : proof.plans) offer(plan);
  floor_max_tau_s_ = proof.floor_s;
  floor_time_s_ = plan_time_floor_s(tables, model_, proof.floor_s, root_bottleneck_floor_s(tables, model_, true));
  // Then T_iter itself, up to the incumbent's (when it has two or more stages).
  if (best_.plan.size() < 2) return;
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

}  // namespace

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
