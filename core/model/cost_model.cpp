#include "model/cost_model.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

namespace geotrain {

CostModel::CostModel(const Problem& problem) {
  const ModelConfig& m = problem.model;
  num_gpus_ = static_cast<int>(problem.gpus.size());
  num_layers_ = static_cast<int>(m.num_layers);
  micro_batches_ = static_cast<double>(m.micro_batches());
  lambda_ = problem.objective.lambda;

  const double H = static_cast<double>(m.hidden_size), T = static_cast<double>(m.seq_length);
  const double V = static_cast<double>(m.vocab_size), u = static_cast<double>(m.micro_batch_size);
  const double kappa = bytes_per_element(m.precision);
  const double layer_flops = (1.0 + kBackwardFactor) * 24.0 * H * H * u * T;  // (1 + gamma) C u T
  const double head_flops = (1.0 + kBackwardFactor) * 2.0 * u * T * H * V;
  activation_bytes_ = kappa * u * T * H;
  layer_param_bytes_ = 4.0 * 12.0 * H * H * kappa;
  layer_activation_bytes_ = kRetainedActivations * kappa * u * T * H;
  head_bytes_ = 4.0 * H * V * kappa + 2.0 * kappa * u * T * V;

  for (const Gpu& g : problem.gpus) {
    const double flops = g.effective_flops();
    layer_compute_s_.push_back(layer_flops / flops);
    head_compute_s_.push_back(head_flops / flops);
    idle_w_.push_back(g.idle_w);
    active_w_.push_back(g.active_w);
    memory_limit_bytes_.push_back(g.effective_memory_bytes());
  }
  const auto links = resolve_links(problem.network, problem.gpus);
  send_s_.assign(links.size(), 0.0);
  for (std::size_t k = 0; k < links.size(); ++k) {
    // Validation guarantees every off-diagonal pair has a link; infinity marks
    // a gap anyway so that a plan using it can never look cheap.
    if (links[k]) send_s_[k] = links[k]->link.latency_s() + activation_bytes_ / links[k]->link.effective_bytes_per_s();
    else if (k / num_gpus_ != k % num_gpus_) send_s_[k] = INFINITY;
  }
  if (problem.objective.t_ref_ms && problem.objective.e_ref_j)
    set_references(*problem.objective.t_ref_ms / 1000.0, *problem.objective.e_ref_j);
}

void CostModel::set_references(double t_ref_s, double e_ref_j) {
  t_ref_s_ = t_ref_s;
  e_ref_j_ = e_ref_j;
}

void CostModel::set_stage_count_range(int fewest, int most) {
  if (fewest < 1 || most < fewest)
    throw std::invalid_argument("stage count range: need 1 <= fewest <= most, got " + std::to_string(fewest) + ".." +
                                std::to_string(most));
  fewest_stages_ = fewest;
  most_stages_ = most;
}

int CostModel::max_layers(int gpu, int stage_count, bool last) const {
  if (!allows_stage_count(stage_count)) return 0;
  const double free_bytes = memory_limit_bytes_[gpu] - (last ? head_bytes_ : 0.0);
  if (free_bytes < 0) return 0;
  const double layers = std::floor(free_bytes / layer_memory_bytes(stage_count));
  return layers > num_layers_ ? num_layers_ : static_cast<int>(layers);
}

// tau_q and the sums, written once for both plan representations. `stage(q)`
// yields (gpu, layers) of stage q; q runs 0..count-1.
template <typename StageAt>
static inline PlanCost evaluate_stages(const CostModel& cm, int count, StageAt stage) noexcept {
  double sum_tau = 0, max_tau = -1, idle_w = 0, active_energy = 0;
  int bottleneck = 0;
  bool feasible = cm.allows_stage_count(count);
  const double layer_bytes = cm.layer_memory_bytes(count);
  int prev_gpu = -1;
  auto [gpu, layers] = stage(0);
  for (int q = 0; q < count; ++q) {
    const bool last = q + 1 == count;
    int next_gpu = -1, next_layers = 0;
    if (!last) std::tie(next_gpu, next_layers) = stage(q + 1);
    double comp = layers * cm.layer_compute_s(gpu);
    double bytes = layers * layer_bytes;
    if (last) comp += cm.head_compute_s(gpu), bytes += cm.head_memory_bytes();
    double tau = comp;
    if (!last) tau += cm.send_s(gpu, next_gpu);
    if (prev_gpu >= 0) tau += cm.send_s(gpu, prev_gpu);
    sum_tau += tau;
    if (tau > max_tau) max_tau = tau, bottleneck = q;
    idle_w += cm.idle_w(gpu);
    active_energy += (cm.active_w(gpu) - cm.idle_w(gpu)) * comp;
    feasible = feasible && bytes <= cm.memory_limit_bytes(gpu);
    prev_gpu = gpu;
    gpu = next_gpu, layers = next_layers;
  }
  PlanCost cost;
  cost.iteration_s = sum_tau + (cm.micro_batches() - 1.0) * max_tau;
  cost.energy_j = cost.iteration_s * idle_w + cm.micro_batches() * active_energy;
  cost.objective = cm.objective(cost.iteration_s, cost.energy_j);
  cost.feasible = feasible;
  cost.bottleneck = bottleneck;
  return cost;
}

PlanCost CostModel::evaluate(const Stage* stages, int count) const noexcept {
  return evaluate_stages(*this, count, [stages](int q) { return std::pair<int, int>(stages[q].gpu, stages[q].layers); });
}

PlanCost CostModel::evaluate_genes(const int* genes) const noexcept {
  const int L = num_layers_;
  int count = 1;
  for (int l = 1; l < L; ++l) count += genes[l] != genes[l - 1];
  // Stages are visited in order, so a cursor over the genes finds each next run.
  int cursor = 0;
  return evaluate_stages(*this, count, [genes, L, &cursor](int) {
    const int start = cursor, gpu = genes[start];
    while (cursor < L && genes[cursor] == gpu) ++cursor;
    return std::pair<int, int>(gpu, cursor - start);
  });
}

}  // namespace geotrain
