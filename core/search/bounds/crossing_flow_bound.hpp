#pragma once
// Floors under the largest stage time and under T_iter of every plan of two
// or more stages that see which pairs of clusters (sites) are cheap to cross
// (core/EXACT.md, "Crossings as a flow").
//
// A plan's stage on GPU g in cluster c, with its predecessor in cluster a and
// its successor in cluster b, pays at least s(g, a) + s(g, b), the cheapest
// sends from g into those clusters (for two neighbours in one cluster, the
// cheapest and second cheapest; the first stage has no a, the last no b and
// computes the head). At a makespan x that leaves it at most
// floor((x - sends) / layer_s - [last] rho) layers. Along a plan, each
// boundary from a stage in a to one in b is counted once as "a stage in a
// whose successor is in b" and once as "a stage in b whose predecessor is in
// a", so for every ordered pair (a, b), a = b included, the two counts are
// equal. Dropping those equalities with multipliers lambda_ab (a Lagrangian
// relaxation) leaves a problem where every GPU picks its own role (or none),
// with one first and one last stage, and each cluster's roles (a DP per
// cluster) entered and left as a plan's are, a stage preceded inside it only
// on a run with a head there; subtour cuts (a group of clusters holds the
// first stage or is entered from outside) are dualized too. Its optimum
// bounds the real one for every multiplier (the multiplied terms are zero,
// or for the cuts >= 0, on every real plan), and
// subgradient steps on lambda make it tight. A count of steps, not the
// clock, decides, so the floors are the same on every platform.
#include <cstdint>
#include <vector>

#include "model/cost_model.hpp"
#include "search/bounds/bottleneck_bound.hpp"
#include "search/stopwatch.hpp"

namespace geotrain {

class CrossingFlow {
 public:
  CrossingFlow(const BottleneckTables& t, const CostModel& model);

  // Whether the relaxation proves that no plan of >= 2 stages keeps every
  // tau <= x_s (so every plan's largest tau is above x_s).
  bool proves_no_plan(double x_s, int steps);
  // A lower bound on the sum of the taus (compute, sends, head) of every
  // plan of >= 2 stages whose taus are all <= x_s; the steps stop early once
  // it reaches target_s. +infinity when no role set holds L layers.
  double least_tau_sum_s(double x_s, int steps, double target_s);

  // Role evaluations done so far (the work, for budgets).
  std::int64_t work() const { return work_; }
  // Whether the pool is small enough: every GPU has up to (C + 1)^2 roles,
  // listed at each makespan tried (N (C + 1)^2 at most 2^18).
  bool usable() const { return usable_; }
  // The steps stop at this deadline too (with what they proved so far).
  void set_deadline(const Deadline& deadline) { deadline_ = deadline; }

 private:
  struct Role {
    int gpu, before, after;  // neighbours' clusters, -1 for none (first / last stage)
    int layers;              // the most it holds at x
    double fixed_s;          // its sends, and the head on the last stage
    int type;                // 3 * kind of before + kind of after (none, own cluster, another)
  };
  void list_roles(double x_s);
  // One evaluation at the multipliers: the relaxation's value, its
  // subgradient (in gradient_), and the sum of |terms| (for rounding slack).
  double best_score(bool sum_mode, double nu, double& abs_sum, int& layers);
  double least_sum(double nu, double& abs_sum, int& layers);
  double multiplier(const Role& r) const;
  void add_flows(const Role& r);

  const BottleneckTables& t_;
  int n_ = 0, clusters_ = 0;
  std::vector<double> send1_s_, send2_s_;  // [g * C + d]: cheapest, second cheapest send from g into d
  std::vector<Role> roles_;                // grouped by GPU
  std::vector<int> first_role_;            // roles of g: [first_role_[g], first_role_[g + 1])
  std::vector<double> lambda_, gradient_;  // [a * C + b]
  double nu_ = 0;                          // the sum's multiplier on "L layers in all" (s per layer)
  bool sum_warm_ = false;                  // lambda_, nu_ and the cuts' mu hold least_tau_sum_s's last
  // Subtour cuts (S, c): if cluster c of S is used, S holds the first stage
  // or is entered from outside it; mu >= 0 its multiplier.
  struct Cut {
    std::uint64_t clusters;
    int used;
    double mu, gradient;
  };
  static constexpr std::size_t kMaxCuts = 64;
  void cut_terms();
  void separate_cuts();
  double cut_norm2() const;
  void move_cuts(double move);
  std::vector<Cut> cuts_;
  std::vector<double> entry_bonus_, used_penalty_;  // [c * (C + 1) + before + 1], [c]
  std::vector<char> cluster_used_;
  std::vector<int> chosen_, cut_parent_;

  std::vector<std::vector<int>> members_;  // GPUs of each cluster
  // Scratch of best_score: each GPU's best role of each type and its score,
  // the cluster DP's back pointers, and the clusters' states in the best set.
  std::vector<double> type_score_;
  std::vector<int> type_role_, from_, end_state_, ends_from_;
  std::int64_t work_ = 0;
  bool usable_ = false;
  Deadline deadline_;
};

// The least x in [floor_s, ceiling_s] the relaxation cannot rule out, by
// bisection (to 1e-4 relative): every plan of >= 2 stages has a stage slower
// than it. floor_s must be a valid floor already. Stops after max_work role
// evaluations or at the deadline, with what it proved.
double crossing_bottleneck_floor_s(CrossingFlow& flow, double floor_s, double ceiling_s, std::int64_t max_work,
                                   const Deadline& deadline, int steps = 1000);

// A floor under T_iter = sum tau + (M - 1) max tau of every plan of >= 2
// stages whose T_iter is at most ceiling_s, given that every plan has
// max tau >= floor_s: for x_0 = floor_s < ... < x_K, a plan with max tau in
// [x_i, x_{i+1}] has T_iter >= least_tau_sum(x_{i+1}) + (M - 1) x_i. Returns
// at most ceiling_s (plans above it are not bounded beyond it), 0 when it
// has nothing to add.
double crossing_time_floor_s(CrossingFlow& flow, const BottleneckTables& t, const CostModel& model, double floor_s,
                             double ceiling_s, std::int64_t max_work, const Deadline& deadline, int steps = 200,
                             int intervals = 160);

}  // namespace geotrain
