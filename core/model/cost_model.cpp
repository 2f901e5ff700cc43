#include "model/cost_model.hpp"

#include "model/link_table.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

namespace geotrain {

CostModel::CostModel(const Problem& problem)
    : CostModel(problem, single_gpu_layout(static_cast<int>(problem.gpus.size()))) {}

CostModel::CostModel(const Problem& problem, GroupLayout layout)
    : CostModel(problem, std::move(layout), resolve_links(problem.network, problem.gpus)) {}

CostModel::CostModel(const Problem& problem, GroupLayout layout, const std::vector<std::optional<ResolvedLink>>& links)
    : layout_(std::move(layout)) {
  const ModelConfig& m = problem.model;
  num_gpus_ = static_cast<int>(layout_.size());
  num_layers_ = static_cast<int>(m.num_layers);
  micro_batches_ = static_cast<double>(m.micro_batches());
  weights_ = problem.objective.effective_weights();

  const double H = static_cast<double>(m.hidden_size), T = static_cast<double>(m.seq_length);
  const double V = static_cast<double>(m.vocab_size), u = static_cast<double>(m.micro_batch_size);
  const double kappa = bytes_per_element(m.precision);
  activation_bytes_ = kappa * u * T * H;
  layer_param_bytes_ = 4.0 * 12.0 * H * H * kappa;
  layer_activation_bytes_ = kRetainedActivations * kappa * u * T * H;
  head_bytes_ = 4.0 * H * V * kappa + 2.0 * kappa * u * T * V;

  sync_ring_begin_.push_back(0);
  for (const DeviceGroup& group : layout_) add_device(problem, group, links);

  // Activations travel between the groups' first GPUs (no scatter-gather). A
  // send that crosses a site pipe with capacity_gbps gets at most that
  // capacity, as the only transfer on it (replicas.md shares it among several:
  // replica_cost_model.hpp prices that).
  const std::size_t n = problem.gpus.size(), devices = layout_.size();
  const SiteCapacities capacities(problem);
  send_s_.assign(devices * devices, 0.0);
  for (std::size_t a = 0; a < devices; ++a) {
    for (std::size_t b = 0; b < devices; ++b) {
      const std::size_t from = static_cast<std::size_t>(layout_[a].gpus[0]);
      const std::size_t to = static_cast<std::size_t>(layout_[b].gpus[0]);
      const auto& link = links[from * n + to];
      // Validation guarantees every off-diagonal pair has a link; infinity
      // marks a gap anyway so that a plan using it can never look cheap.
      if (link && capacities.any() && capacities.between(static_cast<int>(from), static_cast<int>(to)) > 0) {
        const double bytes_per_s = std::min(link->link.effective_bytes_per_s(),
                                            capacities.between(static_cast<int>(from), static_cast<int>(to)));
        send_s_[a * devices + b] = link->link.latency_s() + activation_bytes_ / bytes_per_s;
      } else if (link) {
        send_s_[a * devices + b] = link->link.latency_s() + activation_bytes_ / link->link.effective_bytes_per_s();
      }
      if (!link && a != b) send_s_[a * devices + b] = INFINITY;
    }
  }
  if (problem.objective.t_ref_ms && problem.objective.e_ref_j)
    set_references(*problem.objective.t_ref_ms / 1000.0, *problem.objective.e_ref_j);
  if (problem.objective.c_ref_g) c_ref_g_ = *problem.objective.c_ref_g;
  if (problem.objective.m_ref) m_ref_ = *problem.objective.m_ref;
  refresh_bound_powers();
}

namespace {

// The slowest directed link of a ring r_0 -> r_1 -> ... -> r_0 through the
// given GPUs: the largest latency and the smallest bandwidth (bytes/s).
std::pair<double, double> ring_bottleneck(const std::vector<int>& ring, std::size_t n,
                                          const std::vector<std::optional<ResolvedLink>>& links) {
  double latency_s = 0, bytes_per_s = INFINITY;
  for (std::size_t k = 0; k < ring.size(); ++k) {
    const std::size_t from = static_cast<std::size_t>(ring[k]), to = static_cast<std::size_t>(ring[(k + 1) % ring.size()]);
    const auto& link = links[from * n + to];
    if (!link) return {INFINITY, 0.0};
    latency_s = std::max(latency_s, link->link.latency_s());
    bytes_per_s = std::min(bytes_per_s, link->link.effective_bytes_per_s());
  }
  return {latency_s, bytes_per_s};
}

// AR(X) = 2 (p - 1) (Lat_max + X / (p Bw_min)) over a ring of p GPUs.
double ring_all_reduce_s(const std::vector<int>& ring, double bytes, std::size_t n,
                         const std::vector<std::optional<ResolvedLink>>& links) {
  const double p = static_cast<double>(ring.size());
  if (ring.size() < 2) return 0.0;
  const auto [latency_s, bytes_per_s] = ring_bottleneck(ring, n, links);
  return 2.0 * (p - 1.0) * (latency_s + bytes / (p * bytes_per_s));
}

}  // namespace

void CostModel::add_device(const Problem& problem, const DeviceGroup& group,
                           const std::vector<std::optional<ResolvedLink>>& links) {
  const ModelConfig& m = problem.model;
  const std::size_t n = problem.gpus.size();
  const int t = group.tensor_parallel, d = group.data_parallel();
  if (!group.single()) has_groups_ = true;
  const double H = static_cast<double>(m.hidden_size), T = static_cast<double>(m.seq_length);
  const double V = static_cast<double>(m.vocab_size);
  const double u_d = static_cast<double>(m.micro_batch_size / d);  // samples per shard
  const double kappa = bytes_per_element(m.precision);

  // Shard j is gpus[j*t .. j*t + t - 1]; its pace is its slowest GPU's.
  std::vector<double> shard_flops(static_cast<std::size_t>(d), INFINITY);
  std::vector<std::vector<int>> shard_rings(static_cast<std::size_t>(d));
  double idle_w = 0, memory_limit = INFINITY;
  for (int k = 0; k < group.size(); ++k) {
    const Gpu& g = problem.gpus[static_cast<std::size_t>(group.gpus[k])];
    shard_flops[k / t] = std::min(shard_flops[k / t], g.effective_flops());
    shard_rings[k / t].push_back(group.gpus[k]);
    idle_w += g.idle_w;
    memory_limit = std::min(memory_limit, g.effective_memory_bytes());
  }
  const double slowest_flops = *std::min_element(shard_flops.begin(), shard_flops.end());
  // Written as cost-model.md's expressions so that a one-GPU device (t = d = 1)
  // gives bit for bit the same figures as the paper's model.
  const double layer_flops = (1.0 + kBackwardFactor) * 24.0 * H * H * u_d * T;
  const double head_flops = (1.0 + kBackwardFactor) * 2.0 * u_d * T * H * V;
  layer_compute_s_.push_back(layer_flops / (t * slowest_flops));
  head_compute_s_.push_back(head_flops / (t * slowest_flops));

  // Megatron-LM: two all-reduces of the layer's activations forward, two backward.
  double tensor_s = 0;
  for (const auto& ring : shard_rings) tensor_s = std::max(tensor_s, ring_all_reduce_s(ring, kappa * u_d * T * H, n, links));
  tensor_layer_s_.push_back(4.0 * tensor_s);

  // A shard computes for comp_qj = comp_q * slowest / F_j of the stage's comp_q.
  double active_extra_w = 0;
  std::vector<double> shard_share(static_cast<std::size_t>(group.size()));
  for (int k = 0; k < group.size(); ++k) {
    const Gpu& g = problem.gpus[static_cast<std::size_t>(group.gpus[k])];
    shard_share[k] = slowest_flops / shard_flops[k / t];
    active_extra_w += shard_share[k] * (g.active_w - g.idle_w);
  }
  add_device_prices(problem, group, shard_share);
  idle_w_.push_back(idle_w);
  active_extra_w_.push_back(active_extra_w);
  memory_limit_bytes_.push_back(memory_limit);
  device_param_bytes_.push_back(layer_param_bytes_ / t);
  device_activation_bytes_.push_back(kRetainedActivations * kappa * u_d * T * H / t);
  device_head_bytes_.push_back((4.0 * H * V * kappa + 2.0 * kappa * u_d * T * V) / t);

  // Gradient sync: tensor rank i of every shard forms a ring of d GPUs.
  sync_layer_bytes_.push_back(12.0 * H * H * kappa / t);
  sync_head_bytes_.push_back(H * V * kappa / t);
  if (d > 1) {
    for (int i = 0; i < t; ++i) {
      std::vector<int> ring;
      for (int j = 0; j < d; ++j) ring.push_back(group.gpus[static_cast<std::size_t>(j * t + i)]);
      const auto [latency_s, bytes_per_s] = ring_bottleneck(ring, n, links);
      sync_rings_.push_back({2.0 * (d - 1) * latency_s, 2.0 * (d - 1) / (d * bytes_per_s)});
    }
  }
  sync_ring_begin_.push_back(static_cast<int>(sync_rings_.size()));
}

// objectives.md: E_g = T P_idle + M (P_act - P_idle) comp_g on each GPU g, its
// facility energy E_g pue, and of that carbon (intensity) and money (price),
// per kWh = 3.6e6 J; rent adds price_per_hour for the whole T_iter.
void CostModel::add_device_prices(const Problem& problem, const DeviceGroup& group,
                                  const std::vector<double>& shard_share) {
  double carbon_idle = 0, carbon_active = 0, money_idle = 0, money_active = 0;
  for (int k = 0; k < group.size(); ++k) {
    const Gpu& g = problem.gpus[static_cast<std::size_t>(group.gpus[k])];
    const SiteFigures site = problem.site_figures(g.site);
    const double carbon_g_per_j = site.pue * site.carbon_g_per_kwh / 3.6e6;
    const double money_per_j = site.pue * site.price_per_kwh / 3.6e6;
    carbon_idle += g.idle_w * carbon_g_per_j;
    carbon_active += shard_share[k] * (g.active_w - g.idle_w) * carbon_g_per_j;
    money_idle += g.idle_w * money_per_j + g.price_per_hour / 3600.0;
    money_active += shard_share[k] * (g.active_w - g.idle_w) * money_per_j;
  }
  carbon_idle_g_per_s_.push_back(carbon_idle);
  carbon_active_g_per_s_.push_back(carbon_active);
  money_idle_per_s_.push_back(money_idle);
  money_active_per_s_.push_back(money_active);
  if (carbon_idle > 0 || carbon_active > 0 || money_idle > 0 || money_active > 0) has_prices_ = true;
}

void CostModel::refresh_bound_powers() {
  const std::size_t n = idle_w_.size();
  bound_idle_w_.assign(n, 0.0);
  bound_active_extra_w_.assign(n, 0.0);
  const ObjectiveWeights& w = weights_;
  const bool priced_terms = has_prices_ && (w.carbon > 0 || w.cost > 0);
  // With an energy weight the other terms are expressed in its joules;
  // without one, the sum is in objective units directly.
  bound_energy_weight_ = priced_terms && !(w.energy > 0) ? 1.0 : w.energy;
  bound_energy_ref_ = priced_terms && !(w.energy > 0) ? 1.0 : e_ref_j_;
  const double energy_part = priced_terms && !(w.energy > 0) ? 0.0 : 1.0;
  const double scale = priced_terms ? bound_energy_ref_ / bound_energy_weight_ : 1.0;
  for (std::size_t g = 0; g < n; ++g) {
    const int v = static_cast<int>(g);
    // As the searches always wrote it: (P_idle + extra) - P_idle.
    bound_idle_w_[g] = idle_w_[g];
    bound_active_extra_w_[g] = active_w(v) - idle_w(v);
    if (!priced_terms) continue;
    bound_idle_w_[g] = energy_part * bound_idle_w_[g] +
                       scale * (w.carbon * carbon_idle_g_per_s_[g] / c_ref_g_ + w.cost * money_idle_per_s_[g] / m_ref_);
    bound_active_extra_w_[g] =
        energy_part * bound_active_extra_w_[g] +
        scale * (w.carbon * carbon_active_g_per_s_[g] / c_ref_g_ + w.cost * money_active_per_s_[g] / m_ref_);
  }
}

void CostModel::set_weights(const ObjectiveWeights& weights) {
  weights_ = weights;
  refresh_bound_powers();
}

double CostModel::data_parallel_sync_s(int gpu, int layers, bool last) const noexcept {
  const int begin = sync_ring_begin_[gpu], end = sync_ring_begin_[gpu + 1];
  if (begin == end) return 0.0;
  const double bytes = layers * sync_layer_bytes_[gpu] + (last ? sync_head_bytes_[gpu] : 0.0);
  double slowest = 0;
  for (int r = begin; r < end; ++r) slowest = std::max(slowest, sync_rings_[r].latency_s + bytes * sync_rings_[r].per_byte_s);
  return slowest;
}

void CostModel::set_references(double t_ref_s, double e_ref_j) {
  t_ref_s_ = t_ref_s;
  e_ref_j_ = e_ref_j;
  refresh_bound_powers();
}

void CostModel::set_references(double t_ref_s, double e_ref_j, double c_ref_g, double m_ref) {
  c_ref_g_ = c_ref_g;
  m_ref_ = m_ref;
  set_references(t_ref_s, e_ref_j);
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
  const double free_bytes = memory_limit_bytes_[gpu] - (last ? device_head_bytes_[gpu] : 0.0);
  if (free_bytes < 0) return 0;
  const double layers = std::floor(free_bytes / layer_memory_bytes(gpu, stage_count));
  return layers > num_layers_ ? num_layers_ : static_cast<int>(layers);
}

// tau_q and the sums, written once for both plan representations. `stage(q)`
// yields (device, layers) of stage q; q runs 0..count-1. kGroups adds what only
// groups have (tensor traffic, per-device memory, gradient sync); on one-GPU
// devices those terms are exact zeros and the same memory figures, so both
// instantiations agree bit for bit there, and the paper's space pays nothing.
// kPriced adds carbon and money, for problems with such figures only.
template <bool kGroups, bool kPriced, typename StageAt>
static inline PlanCost evaluate_stages(const CostModel& cm, int count, StageAt stage) noexcept {
  double sum_tau = 0, max_tau = -1, idle_w = 0, active_energy = 0, max_sync = 0;
  double carbon_idle = 0, carbon_active = 0, money_idle = 0, money_active = 0;
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
    double bytes = layers * (kGroups ? cm.layer_memory_bytes(gpu, count) : layer_bytes);
    if (last) comp += cm.head_compute_s(gpu), bytes += kGroups ? cm.head_memory_bytes(gpu) : cm.head_memory_bytes();
    double tau = comp;
    if (kGroups) tau += layers * cm.tensor_layer_s(gpu);
    if (!last) tau += cm.send_s(gpu, next_gpu);
    if (prev_gpu >= 0) tau += cm.send_s(gpu, prev_gpu);
    sum_tau += tau;
    if (tau > max_tau) max_tau = tau, bottleneck = q;
    idle_w += cm.idle_w(gpu);
    active_energy += cm.active_extra_w(gpu) * comp;
    if (kPriced) {
      carbon_idle += cm.carbon_idle_g_per_s(gpu), carbon_active += cm.carbon_active_g_per_s(gpu) * comp;
      money_idle += cm.money_idle_per_s(gpu), money_active += cm.money_active_per_s(gpu) * comp;
    }
    if (kGroups) max_sync = std::max(max_sync, cm.data_parallel_sync_s(gpu, layers, last));
    feasible = feasible && bytes <= cm.memory_limit_bytes(gpu);
    prev_gpu = gpu;
    gpu = next_gpu, layers = next_layers;
  }
  PlanCost cost;
  cost.iteration_s = sum_tau + (cm.micro_batches() - 1.0) * max_tau;
  if (kGroups) cost.iteration_s += max_sync;  // after the pipeline drains, all stages at once
  cost.energy_j = cost.iteration_s * idle_w + cm.micro_batches() * active_energy;
  if (kPriced) {
    cost.carbon_g = cost.iteration_s * carbon_idle + cm.micro_batches() * carbon_active;
    cost.cost = cost.iteration_s * money_idle + cm.micro_batches() * money_active;
    cost.objective = cm.objective(cost.iteration_s, cost.energy_j, cost.carbon_g, cost.cost);
  } else {
    cost.objective = cm.objective(cost.iteration_s, cost.energy_j);
  }
  cost.feasible = feasible;
  cost.bottleneck = bottleneck;
  return cost;
}

template <typename StageAt>
PlanCost CostModel::dispatch(int count, StageAt stage) const noexcept {
  if (has_prices_)
    return has_groups_ ? evaluate_stages<true, true>(*this, count, stage) : evaluate_stages<false, true>(*this, count, stage);
  return has_groups_ ? evaluate_stages<true, false>(*this, count, stage) : evaluate_stages<false, false>(*this, count, stage);
}

PlanCost CostModel::evaluate(const Stage* stages, int count) const noexcept {
  const auto stage = [stages](int q) { return std::pair<int, int>(stages[q].gpu, stages[q].layers); };
  return dispatch(count, stage);
}

PlanCost CostModel::evaluate_genes(const int* genes) const noexcept {
  const int L = num_layers_;
  int count = 1;
  for (int l = 1; l < L; ++l) count += genes[l] != genes[l - 1];
  // Stages are visited in order, so a cursor over the genes finds each next run.
  int cursor = 0;
  const auto stage = [genes, L, &cursor](int) {
    const int start = cursor, gpu = genes[start];
    while (cursor < L && genes[cursor] == gpu) ++cursor;
    return std::pair<int, int>(gpu, cursor - start);
  };
  return dispatch(count, stage);
}

}  // namespace geotrain
