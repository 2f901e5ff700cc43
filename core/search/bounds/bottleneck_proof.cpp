#include "search/bounds/bottleneck_proof.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace geotrain {

using bottleneck_detail::kSlack;
using bottleneck_detail::layers_within;

namespace {

// Depth-first search for a plan of >= 2 stages with every tau <= x: GPUs
// front to back; a stage's layers are bounded once its next GPU is known.
class PathSearch {
 public:
  PathSearch(const BottleneckTables& t, const CostModel& model, const GpuClasses& classes)
      : t_(t), model_(model), classes_(classes), blocked_(t.num_gpus, 0), class_used_(classes.members.size(), 0),
        levels_(t.most_stages + 1), candidates_(static_cast<std::size_t>(t.most_stages + 1) * t.num_gpus) {}

  enum Outcome { kNoPlan, kPlan, kUndecided };
  // With a target, only plans whose T_iter may be below it count: a path's
  // round trips plus its least compute plus `later_s` (M - 1 times the
  // floor) bound its T_iter from below.
  void set_target(double target_s, double later_s) {
    target_s_ = target_s, later_s_ = later_s;
    compute_floor_s_ = (t_.num_layers + t_.head_in_layers) * *std::min_element(t_.layer_s.begin(), t_.layer_s.end());
  }
  // budget: nodes this test may expand; `deadline` stops it too.
  Outcome test(double x_s, std::int64_t budget, const Deadline& deadline, std::int64_t& nodes, Plan& plan);

 private:
  struct Candidate {
    int layers, gpu;  // layers the open stage holds with `gpu` next
  };
  struct Level {
    int gpu = -1, layers = 0;  // this stage's GPU and (once the next is taken) its layers
    double back_s = 0;         // its send to the previous stage
    int closed = 0;            // layers held by stages before it
    double trips_s = 0;        // round trips of the boundaries up to it
    int count = 0, next = 0;   // candidates for the next stage
  };
  bool is_candidate(int g) const {
    if (blocked_[g]) return false;
    const int c = classes_.class_of[g];
    const std::vector<int>& members = classes_.members[c];
    return class_used_[c] < static_cast<int>(members.size()) && members[class_used_[c]] == g;
  }
  void place(int q, int g, double back_s, int closed, double trips_s) {
    levels_[q] = Level{g, 0, back_s, closed, trips_s, 0, 0};
    blocked_[g] = 1;
    ++class_used_[classes_.class_of[g]];
  }
  void unplace(int q) {
    blocked_[levels_[q].gpu] = 0;
    --class_used_[classes_.class_of[levels_[q].gpu]];
  }
  bool ends_here(int q, double x, Plan& plan);
  double least_compute_s(const Plan& caps);
  void list_next(int q, double x);

  const BottleneckTables& t_;
  const CostModel& model_;
  const GpuClasses& classes_;
  std::vector<char> blocked_;
  std::vector<int> class_used_;
  std::vector<Level> levels_;
  std::vector<Candidate> candidates_;
  CapacityScratch scratch_;
  double target_s_ = INFINITY, later_s_ = 0, compute_floor_s_ = 0;
  std::vector<std::pair<double, int>> by_speed_;
};

// Whether stage q as the last completes a plan of Q = q + 1 stages with every
// tau <= x that holds L layers in memory at Q; if so, `plan` is it.
bool PathSearch::ends_here(int q, double x, Plan& plan) {
  const int Q = q + 1, n = t_.num_gpus, L = t_.num_layers;
  if (Q < 2 || Q > L || !model_.allows_stage_count(Q)) return false;
  const Level& end = levels_[q];
  const double xs = x * (1 + kSlack);
  int last = layers_within(xs - end.back_s, t_.layer_s[end.gpu], t_.head_in_layers,
                           t_.cap_last[static_cast<std::size_t>(Q) * n + end.gpu]);
  if (last < 1) return false;
  int total = last;
  plan.assign(Q, Stage{});
  for (int k = 0; k < q; ++k) {
    const int g = levels_[k].gpu;
    plan[k] = {g, std::min(levels_[k].layers, t_.cap_middle[static_cast<std::size_t>(Q) * n + g])};
    if (plan[k].layers < 1) return false;
    total += plan[k].layers;
  }
  if (total < L) return false;
  plan[q] = {end.gpu, last};
  if (target_s_ < INFINITY && !(end.trips_s + least_compute_s(plan) + later_s_ < target_s_)) return false;
  for (int k = 0; k < Q && total > L; ++k) {  // give back what is not needed, one layer per stage at least
    const int drop = std::min(total - L, plan[k].layers - 1);
    plan[k].layers -= drop, total -= drop;
  }
  return true;
}

// Least compute of L layers and the head on the plan's GPUs, each stage
// holding 1..(its layers in `caps`): one layer each, the rest fastest first.
double PathSearch::least_compute_s(const Plan& caps) {
  by_speed_.clear();
  double compute_s = t_.head_in_layers * t_.layer_s[caps.back().gpu];
  int left = t_.num_layers;
  for (const Stage& s : caps) {
    compute_s += t_.layer_s[s.gpu], --left;
    by_speed_.push_back({t_.layer_s[s.gpu], s.layers - 1});
  }
  std::sort(by_speed_.begin(), by_speed_.end());
  for (const auto& [layer_s, room] : by_speed_) {
    const int take = std::min(left, room);
    compute_s += take * layer_s, left -= take;
  }
  return compute_s;
}

// The next stage's GPUs after stage q, most layers for stage q first, those
// whose best completion cannot reach L left out.
void PathSearch::list_next(int q, double x) {
  Level& level = levels_[q];
  level.count = level.next = 0;
  const int Q = q + 2, n = t_.num_gpus;  // at least one more stage
  if (Q > t_.most_stages) return;
  const int rest = path_capacity(t_, model_, x, blocked_, level.gpu, Q, scratch_);
  if (rest < 1) return;  // no run of stages can follow
  const double xs = x * (1 + kSlack), budget = xs - level.back_s;
  const int memory = t_.cap_middle[static_cast<std::size_t>(Q) * n + level.gpu];
  Candidate* out = &candidates_[static_cast<std::size_t>(q) * n];
  for (int g = 0; g < n; ++g) {
    if (!is_candidate(g) || t_.cap_middle[static_cast<std::size_t>(Q) * n + g] < 1) continue;
    const int layers = layers_within(budget - model_.send_s(level.gpu, g), t_.layer_s[level.gpu], 0, memory);
    if (layers < 1 || level.closed + layers + rest < t_.num_layers) continue;
    if (target_s_ < INFINITY) {
      const double trips_s = level.trips_s + model_.send_s(level.gpu, g) + model_.send_s(g, level.gpu);
      if (!(trips_s + compute_floor_s_ + later_s_ < target_s_)) continue;
    }
    out[level.count++] = {layers, g};
  }
  std::sort(out, out + level.count, [](const Candidate& a, const Candidate& b) {
    return a.layers > b.layers || (a.layers == b.layers && a.gpu < b.gpu);
  });
}

PathSearch::Outcome PathSearch::test(double x, std::int64_t budget, const Deadline& deadline, std::int64_t& nodes,
                                     Plan& plan) {
  const int n = t_.num_gpus;
  std::int64_t used = 0;
  Outcome outcome = kNoPlan;
  // The first stage: every GPU that may lead (its class's lowest member).
  for (int g0 = 0; g0 < n && outcome == kNoPlan; ++g0) {
    if (!is_candidate(g0)) continue;
    place(0, g0, 0.0, 0, 0.0);
    list_next(0, x);
    ++used;
    int depth = 0;
    while (depth >= 0) {
      if (used >= budget || ((used & 255) == 0 && deadline.passed())) {
        outcome = kUndecided;
        break;
      }
      Level& level = levels_[depth];
      if (level.next == level.count) {
        unplace(depth--);
        continue;
      }
      const Candidate c = candidates_[static_cast<std::size_t>(depth) * n + level.next++];
      level.layers = c.layers;
      place(depth + 1, c.gpu, model_.send_s(c.gpu, level.gpu), level.closed + c.layers,
            level.trips_s + model_.send_s(level.gpu, c.gpu) + model_.send_s(c.gpu, level.gpu));
      ++used;
      ++depth;
      if (ends_here(depth, x, plan)) {
        outcome = kPlan;
        break;
      }
      list_next(depth, x);
    }
    while (depth >= 0) unplace(depth--);  // leave the tables clean after a stop
  }
  nodes += used;
  return outcome;
}

// Where to test next between a proven lo and an unproven hi: halfway while
// tests are decided (bisection); after an undecided one the step halves, and
// doubles again after each proof, so that hard tests near hi do not stop
// easier progress above lo.
//
// A test may expand kTestNodes nodes, twice that after each undecided one
// (and never more than half of what is left): counts, not the clock, so the
// same tests are decided on every platform until the deadline stops them.
constexpr std::int64_t kTestNodes = 100'000;

struct Bracket {
  double lo, hi, share = 0.5;
  int undecided = 0;
  bool open() const { return hi - lo > 1e-3 * hi; }
  std::int64_t test_nodes(std::int64_t left) const {
    const std::int64_t grown = kTestNodes << std::min(undecided, 20);
    return std::max<std::int64_t>(1, std::min(grown, left / 2));
  }
  double next() const { return lo + share * (hi - lo); }
  void record(double x, PathSearch::Outcome outcome) {
    if (outcome == PathSearch::kNoPlan) {
      lo = x, share = std::min(0.5, 2 * share);
    } else {
      hi = x;  // above x nothing is tried again, whether a plan was found or not
      share = outcome == PathSearch::kPlan ? 0.5 : std::max(1.0 / 64, 0.5 * share);
      undecided += outcome == PathSearch::kUndecided;
    }
  }
};

}  // namespace

BottleneckProof prove_bottleneck_floor(const BottleneckTables& t, const CostModel& model, const GpuClasses& classes,
                                       double floor_s, double ceiling_s, std::int64_t max_nodes,
                                       const Deadline& deadline) {
  BottleneckProof proof;
  proof.floor_s = floor_s;
  if (!(floor_s > 0) || t.most_stages < 2) return proof;
  double lo = floor_s, hi = std::isfinite(ceiling_s) && ceiling_s > lo ? ceiling_s : 2 * lo;
  PathSearch search(t, model, classes);
  Plan plan;
  // Each test may use half the nodes left, so a hard one leaves room for the
  // easier ones below it.
  Bracket bracket{lo, hi};
  while (bracket.open() && proof.nodes < max_nodes) {
    const double x = bracket.next();
    const auto outcome = search.test(x, bracket.test_nodes(max_nodes - proof.nodes), deadline, proof.nodes, plan);
    ++proof.tests;
    if (deadline.passed()) {
      proof.timed_out = true;
      break;
    }
    bracket.record(x, outcome);
    if (outcome == PathSearch::kPlan) proof.plans.push_back(plan);
  }
  lo = bracket.lo;
  proof.floor_s = lo;
  return proof;
}

TimeProof prove_time_floor(const BottleneckTables& t, const CostModel& model, const GpuClasses& classes,
                           double floor_s, double time_floor_s, double ceiling_s, std::int64_t max_nodes,
                           const Deadline& deadline) {
  TimeProof proof;
  proof.time_floor_s = time_floor_s;
  const double later = model.micro_batches() - 1;
  if (!(later > 0) || !(time_floor_s > 0) || !std::isfinite(ceiling_s) || t.most_stages < 2) return proof;
  const double fastest_s = *std::min_element(t.layer_s.begin(), t.layer_s.end());
  // Every plan of >= 2 stages sums at least this much: its compute and one round trip.
  const double sum_s = (t.num_layers + t.head_in_layers) * fastest_s + t.min_round_trip_s;
  PathSearch search(t, model, classes);
  Plan plan;
  double lo = time_floor_s, hi = std::max(ceiling_s, lo);
  Bracket bracket{lo, hi};
  while (bracket.open() && proof.nodes < max_nodes) {
    const double target = bracket.next();
    // Plans whose largest tau exceeds x have T_iter above the target; the
    // search covers the others.
    const double x = (target - sum_s) / later;
    PathSearch::Outcome outcome = PathSearch::kNoPlan;
    if (x > floor_s) {
      search.set_target(target, later * floor_s);
      outcome = search.test(x, bracket.test_nodes(max_nodes - proof.nodes), deadline, proof.nodes, plan);
    }
    ++proof.tests;
    if (deadline.passed()) break;
    bracket.record(target, outcome);
  }
  lo = bracket.lo;
  proof.time_floor_s = lo;
  return proof;
}

}  // namespace geotrain
