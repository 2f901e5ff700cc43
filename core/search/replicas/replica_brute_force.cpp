#include "search/replicas/replica_brute_force.hpp"

#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "model/input_error.hpp"
#include "model/link_table.hpp"
#include "model/replica_cost_model.hpp"
#include "search/replicas/engine_replicas.hpp"
#include "search/space/node_shapes.hpp"

namespace geotrain {

namespace {

double binomial(int n, int k) {
  double c = 1;
  for (int i = 1; i <= k; ++i) c = c * (n - k + i) / i;
  return c;
}

// Plans of R replicas of Q stages over D devices: ordered choices of R * Q
// distinct devices, compositions of L into Q, of M into R.
double space_size(int D, int L, std::int64_t M, int R, int Q) {
  if (R * Q > D || Q > L || M < R) return 0;
  double ordered = 1;
  for (int k = 0; k < R * Q; ++k) ordered *= D - k;
  return ordered * binomial(L - 1, Q - 1) * binomial(static_cast<int>(std::min<std::int64_t>(M, 1 << 20)) - 1, R - 1);
}

class Enumerator {
 public:
  Enumerator(const Problem& problem, const ReplicaCostModel& model, std::int64_t M, const ProgressCallback& progress,
             SolveResult& best, bool& found, bool& cancelled)
      : problem_(problem), model_(model), M_(M), progress_(progress), best_(best), found_(found), cancelled_(cancelled) {}

  void run(int R, int Q) {
    R_ = R, Q_ = Q;
    const int L = model_.devices().num_layers();
    layers_.assign(static_cast<std::size_t>(Q), 1);
    devices_.assign(static_cast<std::size_t>(R * Q), 0);
    shares_.assign(static_cast<std::size_t>(R), 1);
    used_.assign(static_cast<std::size_t>(model_.devices().num_gpus()), 0);
    place_device(0, L);
  }

 private:
  void place_device(int slot, int L) {
    if (cancelled_) return;
    if (slot == R_ * Q_) return split_layers(0, L);
    for (int d = 0; d < static_cast<int>(used_.size()) && !cancelled_; ++d) {
      if (used_[static_cast<std::size_t>(d)]) continue;
      used_[static_cast<std::size_t>(d)] = 1;
      devices_[static_cast<std::size_t>(slot)] = d;
      place_device(slot + 1, L);
      used_[static_cast<std::size_t>(d)] = 0;
    }
  }

  void split_layers(int q, int left) {
    if (q + 1 == Q_) {
      layers_[static_cast<std::size_t>(q)] = left;
      return split_shares(0, M_);
    }
    for (int n = 1; n <= left - (Q_ - q - 1) && !cancelled_; ++n) {
      layers_[static_cast<std::size_t>(q)] = n;
      split_layers(q + 1, left - n);
    }
  }

  void split_shares(int r, std::int64_t left) {
    if (r + 1 == R_) {
      shares_[static_cast<std::size_t>(r)] = left;
      return consider();
    }
    for (std::int64_t m = 1; m <= left - (R_ - r - 1) && !cancelled_; ++m) {
      shares_[static_cast<std::size_t>(r)] = m;
      split_shares(r + 1, left - m);
    }
  }

  ReplicaPlan plan_of(const ReplicaPlanView& view) const {
    ReplicaPlan plan;
    const GroupLayout& layout = model_.devices().layout();
    for (int r = 0; r < R_; ++r) {
      Replica replica{shares_[static_cast<std::size_t>(r)], {}};
      for (int q = 0; q < Q_; ++q) {
        const DeviceGroup& g = layout[static_cast<std::size_t>(view.device(r, q))];
        replica.stages.push_back(GroupStage{g.gpus, g.tensor_parallel, layers_[static_cast<std::size_t>(q)]});
      }
      plan.push_back(std::move(replica));
    }
    return plan;
  }

  void consider() {
    const ReplicaPlanView view{R_, Q_, layers_.data(), devices_.data(), shares_.data()};
    const PlanCost cost = model_.evaluate(view);
    ++best_.evaluations;
    if (cost.feasible && (!found_ || cost.objective < best_.cost.objective)) {
      ReplicaPlan plan = plan_of(view);
      // search.engine: only plans the engine runs (engine_replicas.hpp).
      if (engine_replica_faults(problem_.search.engine, problem_, plan).empty()) {
        found_ = true;
        best_.cost = cost;
        best_.replicas = std::move(plan);
      }
    }
    if (progress_ && (best_.evaluations & 0xFFFF) == 0) {
      Progress p;
      p.evaluations = best_.evaluations;
      p.has_plan = found_;
      p.best_replicas = best_.replicas;
      p.best_cost = best_.cost;
      cancelled_ = !progress_(p);
    }
  }

  const Problem& problem_;
  const ReplicaCostModel& model_;
  std::int64_t M_;
  const ProgressCallback& progress_;
  SolveResult& best_;
  bool& found_;
  bool& cancelled_;
  int R_ = 0, Q_ = 0;
  std::vector<int> layers_, devices_, used_;
  std::vector<std::int64_t> shares_;
};

// Every layout of the plan space: single GPUs, or each choice of node shapes.
std::vector<GroupLayout> layouts_of(const Problem& problem) {
  if (problem.search.parallelism != Parallelism::hybrid)
    return {single_gpu_layout(static_cast<int>(problem.gpus.size()))};
  const std::vector<PoolNode> nodes = pool_nodes(problem);
  std::vector<GroupLayout> layouts;
  ShapeChoice choice(nodes.size(), 0);
  do layouts.push_back(layout_of_choice(nodes, choice));
  while (next_choice(nodes, choice) && layouts.size() <= 4096);
  return layouts;
}

}  // namespace

SolveResult brute_force_replicas(const Problem& problem, const CostModel& model, const ProgressCallback& progress,
                                 double max_plans) {
  const int L = static_cast<int>(problem.model.num_layers);
  const std::int64_t M = problem.model.micro_batches();
  const bool automatic = problem.search.replicas_auto;
  const int lowest = automatic ? 1 : problem.search.replicas;
  const int highest = automatic ? static_cast<int>(std::min<std::int64_t>(kMaxAutoReplicas, M)) : problem.search.replicas;
  const std::vector<GroupLayout> layouts = layouts_of(problem);
  double size = 0;
  for (const GroupLayout& layout : layouts)
    for (int R = lowest; R <= highest; ++R)
      for (int Q = 1; Q <= L; ++Q) size += space_size(static_cast<int>(layout.size()), L, M, R, Q);
  if (!(size <= max_plans)) {
    char text[200];
    std::snprintf(text, sizeof text, "%.3g", size);
    throw PlanningError(std::string("brute force refused: ") + text + " replica plans exceed the limit of " +
                        std::to_string(static_cast<long long>(max_plans)) + "; use the memetic method");
  }
  SolveResult best;
  best.method = "brute-force";
  bool found = false, cancelled = false;
  const auto links = std::make_shared<const LinkTable>(problem);
  for (const GroupLayout& layout : layouts) {
    ReplicaCostModel replica_model(problem, layout, links);
    replica_model.devices().copy_objective_from(model);
    if (model.restricts_stage_count()) replica_model.devices().set_stage_count_range(model.fewest_stages(), model.most_stages());
    Enumerator enumerate(problem, replica_model, M, progress, best, found, cancelled);
    for (int R = lowest; R <= highest && !cancelled; ++R)
      for (int Q = 1; Q <= L && !cancelled; ++Q)
        if (space_size(static_cast<int>(layout.size()), L, M, R, Q) > 0) enumerate.run(R, Q);
  }
  if (!found) throw PlanningError("no replica plan fits in memory");
  best.optimal = !cancelled;
  best.stop_reason = cancelled ? "cancelled" : "complete";
  // One pipeline won: print it as one (its plan over its own groups).
  if (best.replicas.size() == 1) {
    const GroupPlan stages = best.replicas.front().stages;
    best.replicas.clear();
    best.layout = layout_of(stages);
    best.plan = device_plan(stages);
  }
  return best;
}

}  // namespace geotrain
