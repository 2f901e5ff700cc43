#pragma once
// The branch and bound behind solve_exact (exact.hpp), shared by its files:
// exact_branch_and_bound.cpp (the node search, its budgets and bound
// history), exact_run.cpp (one run: first plans, the floors, the stage
// counts' roots, the result) and exact.cpp (when to restart with the floors).
// core/EXACT.md explains the method.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "model/cost_model.hpp"
#include "model/plan.hpp"
#include "search/exact/exact.hpp"
#include "search/exact/gpu_symmetry.hpp"
#include "search/bounds/lower_bounds.hpp"
#include "search/solve_result.hpp"
#include "search/stopwatch.hpp"

namespace geotrain {
namespace exact_detail {

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
inline bool by_bound(const Choice& a, const Choice& b) {
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


inline Joined join(const CostModel& model, const Partial& p, int gpu) {
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

}  // namespace exact_detail
}  // namespace geotrain
