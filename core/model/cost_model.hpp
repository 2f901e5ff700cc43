#pragma once
// The analytical cost of a 1F1B pipeline plan (contract: Time, Memory, Energy,
// Objective). Everything that depends only on the problem is computed once in
// the constructor, so that evaluating a plan is a few multiply-adds per stage
// with no allocation: the searches call it millions of times.
//
// A model plans over devices: by default each GPU is one (cost-model.md);
// built with a GroupLayout, each device is a stage group (stage-groups.md)
// with its tensor traffic, data-parallel gradient sync, memory divided by the
// tensor degree and the slowest shard's compute. Every search works on device
// indices and never needs to know which kind it has.
#include <algorithm>
#include <limits>
#include <vector>

#include "model/group_layout.hpp"
#include "model/plan.hpp"
#include "model/problem.hpp"

namespace geotrain {

struct PlanCost {
  double iteration_s = 0;  // T_iter
  double energy_j = 0;     // E_iter
  double carbon_g = 0;     // C_iter: facility energy times its sites' grid intensity (objectives.md)
  double cost = 0;         // M_iter: facility energy times its sites' price, plus the GPUs' rent
  double objective = 0;    // wt T/T_ref + we E/E_ref + wc C/C_ref + wm M/M_ref
  bool feasible = false;   // every stage fits its GPU's memory
  int bottleneck = 0;      // stage with the largest tau_q (first of equals)
};

class CostModel {
 public:
  explicit CostModel(const Problem& problem);
  // Devices are `layout`'s groups, in its order (validated by the caller:
  // indices valid and distinct, t dividing each group, d dividing u).
  CostModel(const Problem& problem, GroupLayout layout);
  // The same, with the problem's links already resolved (resolve_links): the
  // hybrid search builds a model per candidate layout and resolves once.
  CostModel(const Problem& problem, GroupLayout layout, const std::vector<std::optional<ResolvedLink>>& links);

  // Normalisers of the objective, in seconds, joules, grams and money; all
  // default to 1 until set (see references.hpp for where the planner takes
  // them from).
  void set_references(double t_ref_s, double e_ref_j);
  void set_references(double t_ref_s, double e_ref_j, double c_ref_g, double m_ref);
  // lambda is the two-term shorthand: weights {lambda, 1 - lambda, 0, 0}.
  void set_lambda(double lambda) { set_weights(ObjectiveWeights{lambda, 1.0 - lambda, 0, 0}); }
  void set_weights(const ObjectiveWeights& weights);
  const ObjectiveWeights& weights() const { return weights_; }
  double t_ref_s() const { return t_ref_s_; }
  double e_ref_j() const { return e_ref_j_; }
  double c_ref_g() const { return c_ref_g_; }
  double m_ref() const { return m_ref_; }
  // Weights and references together, to give another model of the same
  // problem (a stage-group layout's) the same objective.
  void copy_objective_from(const CostModel& other) {
    set_weights(other.weights_);
    set_references(other.t_ref_s_, other.e_ref_j_, other.c_ref_g_, other.m_ref_);
  }

  // Stages in pipeline order, over devices; they must be distinct and valid indices.
  PlanCost evaluate(const Stage* stages, int count) const noexcept;
  PlanCost evaluate(const Plan& plan) const noexcept { return evaluate(plan.data(), static_cast<int>(plan.size())); }
  // A chromosome: one GPU index per layer (num_layers() of them), each GPU's
  // layers contiguous. Decoded in one scan, without building the stage list.
  PlanCost evaluate_genes(const int* genes) const noexcept;

  // Only plans of fewest..most stages are allowed (by default every count):
  // others evaluate as infeasible and max_layers is 0 for them, so every
  // search that reads feasibility or capacities honours the range. Throws
  // std::invalid_argument unless 1 <= fewest <= most.
  void set_stage_count_range(int fewest, int most);
  int fewest_stages() const { return fewest_stages_; }
  int most_stages() const { return most_stages_; }
  bool allows_stage_count(int count) const noexcept {
    // One unsigned compare: counts below `fewest` wrap to large values.
    return static_cast<unsigned>(count - fewest_stages_) <= static_cast<unsigned>(most_stages_ - fewest_stages_);
  }
  // Whether the range excludes some count from 1..min(N, L).
  bool restricts_stage_count() const {
    return fewest_stages_ > 1 || most_stages_ < std::min(num_gpus_, num_layers_);
  }

  // Written as the paper's two terms, so that a problem without carbon or
  // money gives bit for bit the objective it always had.
  double objective(double iteration_s, double energy_j) const noexcept {
    return weights_.time * iteration_s / t_ref_s_ + weights_.energy * energy_j / e_ref_j_;
  }
  double objective(double iteration_s, double energy_j, double carbon_g, double cost) const noexcept {
    return objective(iteration_s, energy_j) + weights_.carbon * carbon_g / c_ref_g_ + weights_.cost * cost / m_ref_;
  }
  // Some device emits or costs something: only then are carbon and money computed.
  bool has_prices() const { return has_prices_; }
  // Per second of the iteration and per second of compute, what the device
  // emits (g/s) and costs (money/s), PUE included; rent counts while idle too.
  double carbon_idle_g_per_s(int gpu) const { return carbon_idle_g_per_s_[gpu]; }
  double carbon_active_g_per_s(int gpu) const { return carbon_active_g_per_s_[gpu]; }
  double money_idle_per_s(int gpu) const { return money_idle_per_s_[gpu]; }
  double money_active_per_s(int gpu) const { return money_active_per_s_[gpu]; }

  // For lower bounds: the objective's non-time terms as one energy-like sum.
  // bound_objective(T, T * sum bound_idle_w + M * sum bound_active_extra_w * comp)
  // equals objective(T, E, C, M) of the same plan; the powers are never
  // negative, so every relaxation of E is one of this too. Without carbon or
  // money weights they are the plain powers and bound_objective is objective.
  double bound_idle_w(int gpu) const { return bound_idle_w_[gpu]; }
  double bound_active_extra_w(int gpu) const { return bound_active_extra_w_[gpu]; }
  double bound_objective(double iteration_s, double equivalent_j) const noexcept {
    return weights_.time * iteration_s / t_ref_s_ + bound_energy_weight_ * equivalent_j / bound_energy_ref_;
  }

  // Building blocks, exposed for reports, bounds and heuristics. "gpu" below
  // means a device: a GPU, or a stage group of the layout.
  int num_gpus() const { return num_gpus_; }  // devices
  // The site of each device (of its first GPU), numbered 0.. in the order the
  // problem's GPUs first name them: the search's moves at the scale of sites.
  int site_of(int gpu) const { return site_of_[gpu]; }
  int num_sites() const { return num_sites_; }
  const GroupLayout& layout() const { return layout_; }
  bool has_groups() const { return has_groups_; }  // some device is more than one GPU
  int num_layers() const { return num_layers_; }
  double micro_batches() const { return micro_batches_; }
  double layer_compute_s(int gpu) const { return layer_compute_s_[gpu]; }  // one layer, fwd + bwd, one micro-batch
  double head_compute_s(int gpu) const { return head_compute_s_[gpu]; }    // the LM head on the last stage
  double tensor_layer_s(int gpu) const { return tensor_layer_s_[gpu]; }    // tensor-parallel all-reduces of one layer
  double send_s(int from, int to) const { return send_s_[from * num_gpus_ + to]; }  // one activation, from -> to
  double idle_w(int gpu) const { return idle_w_[gpu]; }
  double active_w(int gpu) const { return idle_w_[gpu] + active_extra_w_[gpu]; }
  // Watts above idle while computing, weighted by each shard's share of the
  // stage's compute time (a group's faster shards idle part of it).
  double active_extra_w(int gpu) const { return active_extra_w_[gpu]; }
  double memory_limit_bytes(int gpu) const { return memory_limit_bytes_[gpu]; }
  // Bytes one layer needs on one GPU in a plan of `stage_count` stages: of a
  // single GPU (no arguments) or of a device (divided by its tensor degree,
  // activations of its shard's u / d samples).
  double layer_memory_bytes(int stage_count) const {
    return layer_param_bytes_ + (stage_count + 1) * layer_activation_bytes_;
  }
  double layer_memory_bytes(int gpu, int stage_count) const {
    return device_param_bytes_[gpu] + (stage_count + 1) * device_activation_bytes_[gpu];
  }
  double head_memory_bytes() const { return head_bytes_; }  // extra on the last stage
  double head_memory_bytes(int gpu) const { return device_head_bytes_[gpu]; }
  double layer_param_bytes() const { return layer_param_bytes_; }            // 4 P kappa
  double layer_activation_bytes() const { return layer_activation_bytes_; }  // per micro-batch kept
  // Per GPU of the device, against memory_limit_bytes (its tightest GPU).
  double stage_memory_bytes(int gpu, int layers, int stage_count, bool last) const {
    return layers * layer_memory_bytes(gpu, stage_count) + (last ? device_head_bytes_[gpu] : 0.0);
  }
  // dp_q: the device's gradient all-reduce after the pipeline drains; 0 for
  // one data shard.
  double data_parallel_sync_s(int gpu, int layers, bool last) const noexcept;
  // Most layers GPU `gpu` can hold as a stage of a `stage_count`-stage plan
  // (may be 0; always 0 when the stage count is not allowed).
  int max_layers(int gpu, int stage_count, bool last) const;
  double activation_bytes() const { return activation_bytes_; }

 private:
  int num_gpus_ = 0;
  int num_layers_ = 0;
  int num_sites_ = 0;
  std::vector<int> site_of_;  // per device
  double micro_batches_ = 1;
  GroupLayout layout_;
  bool has_groups_ = false;
  bool has_prices_ = false;
  ObjectiveWeights weights_;
  double t_ref_s_ = 1;
  double e_ref_j_ = 1;
  double c_ref_g_ = 1;
  double m_ref_ = 1;
  double bound_energy_weight_ = 0, bound_energy_ref_ = 1;
  int fewest_stages_ = 1;
  int most_stages_ = std::numeric_limits<int>::max();
  double activation_bytes_ = 0;        // S = kappa u T H
  double layer_param_bytes_ = 0;       // 4 P kappa
  double layer_activation_bytes_ = 0;  // alpha kappa u T H, times (Q + 1)
  double head_bytes_ = 0;              // 4 H V kappa + 2 kappa u T V
  std::vector<double> layer_compute_s_, head_compute_s_, tensor_layer_s_, idle_w_, active_extra_w_,
      memory_limit_bytes_;
  std::vector<double> device_param_bytes_, device_activation_bytes_, device_head_bytes_;
  std::vector<double> carbon_idle_g_per_s_, carbon_active_g_per_s_, money_idle_per_s_, money_active_per_s_;
  std::vector<double> bound_idle_w_, bound_active_extra_w_;
  std::vector<double> send_s_;  // devices x devices, row-major; diagonal 0
  // Gradient sync: X_q = layers * sync_layer_bytes + (last) sync_head_bytes
  // over each of the device's t rings, ring r costing latency + X * per_byte.
  struct SyncRing {
    double latency_s;   // 2 (d - 1) Lat_max
    double per_byte_s;  // 2 (d - 1) / (d Bw_min)
  };
  std::vector<double> sync_layer_bytes_, sync_head_bytes_;
  std::vector<int> sync_ring_begin_;  // rings of device v: [begin[v], begin[v + 1])
  std::vector<SyncRing> sync_rings_;

  void add_device(const Problem& problem, const DeviceGroup& group,
                  const std::vector<std::optional<ResolvedLink>>& links);
  void add_device_prices(const Problem& problem, const DeviceGroup& group, const std::vector<double>& shard_share);
  void refresh_bound_powers();
  template <typename StageAt>
  PlanCost dispatch(int count, StageAt stage) const noexcept;
};

}  // namespace geotrain
