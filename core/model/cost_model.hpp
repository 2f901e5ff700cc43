#pragma once
// The analytical cost of a 1F1B pipeline plan (contract: Time, Memory, Energy,
// Objective). Everything that depends only on the problem is computed once in
// the constructor, so that evaluating a plan is a few multiply-adds per stage
// with no allocation: the searches call it millions of times.
#include <algorithm>
#include <limits>
#include <vector>

#include "model/plan.hpp"
#include "model/problem.hpp"

namespace geotrain {

struct PlanCost {
  double iteration_s = 0;  // T_iter
  double energy_j = 0;     // E_iter
  double objective = 0;    // lambda * T/T_ref + (1 - lambda) * E/E_ref
  bool feasible = false;   // every stage fits its GPU's memory
  int bottleneck = 0;      // stage with the largest tau_q (first of equals)
};

class CostModel {
 public:
  explicit CostModel(const Problem& problem);

  // Normalisers of the objective, in seconds and joules; both default to 1
  // until set (see references.hpp for where the planner takes them from).
  void set_references(double t_ref_s, double e_ref_j);
  void set_lambda(double lambda) { lambda_ = lambda; }
  double lambda() const { return lambda_; }
  double t_ref_s() const { return t_ref_s_; }
  double e_ref_j() const { return e_ref_j_; }

  // Stages in pipeline order; GPUs must be distinct and valid indices.
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

  double objective(double iteration_s, double energy_j) const noexcept {
    return lambda_ * iteration_s / t_ref_s_ + (1.0 - lambda_) * energy_j / e_ref_j_;
  }

  // Building blocks, exposed for reports, bounds and heuristics.
  int num_gpus() const { return num_gpus_; }
  int num_layers() const { return num_layers_; }
  double micro_batches() const { return micro_batches_; }
  double layer_compute_s(int gpu) const { return layer_compute_s_[gpu]; }  // one layer, fwd + bwd, one micro-batch
  double head_compute_s(int gpu) const { return head_compute_s_[gpu]; }    // the LM head on the last stage
  double send_s(int from, int to) const { return send_s_[from * num_gpus_ + to]; }  // one activation, from -> to
  double idle_w(int gpu) const { return idle_w_[gpu]; }
  double active_w(int gpu) const { return active_w_[gpu]; }
  double memory_limit_bytes(int gpu) const { return memory_limit_bytes_[gpu]; }
  // Bytes one layer needs in a plan of `stage_count` stages.
  double layer_memory_bytes(int stage_count) const {
    return layer_param_bytes_ + (stage_count + 1) * layer_activation_bytes_;
  }
  double head_memory_bytes() const { return head_bytes_; }  // extra on the last stage
  double layer_param_bytes() const { return layer_param_bytes_; }            // 4 P kappa
  double layer_activation_bytes() const { return layer_activation_bytes_; }  // per micro-batch kept
  double stage_memory_bytes(int layers, int stage_count, bool last) const {
    return layers * layer_memory_bytes(stage_count) + (last ? head_bytes_ : 0.0);
  }
  // Most layers GPU `gpu` can hold as a stage of a `stage_count`-stage plan
  // (may be 0; always 0 when the stage count is not allowed).
  int max_layers(int gpu, int stage_count, bool last) const;
  double activation_bytes() const { return activation_bytes_; }

 private:
  int num_gpus_ = 0;
  int num_layers_ = 0;
  double micro_batches_ = 1;
  double lambda_ = 1;
  double t_ref_s_ = 1;
  double e_ref_j_ = 1;
  int fewest_stages_ = 1;
  int most_stages_ = std::numeric_limits<int>::max();
  double activation_bytes_ = 0;        // S = kappa u T H
  double layer_param_bytes_ = 0;       // 4 P kappa
  double layer_activation_bytes_ = 0;  // alpha kappa u T H, times (Q + 1)
  double head_bytes_ = 0;              // 4 H V kappa + 2 kappa u T V
  std::vector<double> layer_compute_s_, head_compute_s_, idle_w_, active_w_, memory_limit_bytes_;
  std::vector<double> send_s_;  // N x N, row-major; diagonal 0
};

}  // namespace geotrain
