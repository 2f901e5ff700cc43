#include "model/replica_cost_model.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace geotrain {

ReplicaCostModel::ReplicaCostModel(const Problem& problem, GroupLayout devices)
    : ReplicaCostModel(problem, std::move(devices), std::make_shared<const LinkTable>(problem)) {}

ReplicaCostModel::ReplicaCostModel(const Problem& problem, GroupLayout devices,
                                   std::shared_ptr<const LinkTable> links)
    : model_(problem, std::move(devices), links->resolved()), links_(std::move(links)) {
  for (const DeviceGroup& g : model_.layout()) {
    device_site_.push_back(links_->site_of(g.gpus[0]));
    device_first_gpu_.push_back(g.gpus[0]);
    device_size_.push_back(g.size());
  }
  const ModelConfig& m = problem.model;
  const double H = static_cast<double>(m.hidden_size), T = static_cast<double>(m.seq_length);
  const double V = static_cast<double>(m.vocab_size), u = static_cast<double>(m.micro_batch_size);
  const double kappa = bytes_per_element(m.precision);
  activation_bytes_ = kappa * u * T * H;
  layer_grad_bytes_ = 12.0 * H * H * kappa;  // P kappa: the whole layer, whatever the groups' tensor degrees
  head_grad_bytes_ = H * V * kappa;
  sync_every_ = problem.training.sync_every;
  sync_compression_ = problem.training.sync_compression;
  const std::size_t sites = static_cast<std::size_t>(links_->num_sites());
  pipe_sends_.assign(sites * sites, 0);
  pipe_bytes_.assign(sites * sites, 0.0);
}

// Each send between stages that crosses a site pair with a capacity counts on
// that directed pair (forward q -> q+1, backward q+1 -> q); delta -1 undoes it.
void ReplicaCostModel::count_pipe_sends(const ReplicaPlanView& plan, int delta) const noexcept {
  const std::size_t sites = static_cast<std::size_t>(links_->num_sites());
  for (int r = 0; r < plan.replicas; ++r) {
    for (int q = 0; q + 1 < plan.stages; ++q) {
      const int a = device_site_[plan.device(r, q)], b = device_site_[plan.device(r, q + 1)];
      if (a == b) continue;
      if (links_->capacity_bytes_per_s(a, b) > 0) pipe_sends_[a * sites + b] += delta;
      if (links_->capacity_bytes_per_s(b, a) > 0) pipe_sends_[b * sites + a] += delta;
    }
  }
}

// One activation from device `from` to device `to`: its link's figures, or,
// across a pipe with a capacity, min(the link's bandwidth, capacity / sends
// sharing it). One send alone on a pipe costs what CostModel charges.
double ReplicaCostModel::send_s(int from, int to) const noexcept {
  const int a = device_site_[from], b = device_site_[to];
  if (a == b || !links_->has_capacities()) return model_.send_s(from, to);
  const double capacity = links_->capacity_bytes_per_s(a, b);
  if (!(capacity > 0)) return model_.send_s(from, to);
  const int sharing = pipe_sends_[static_cast<std::size_t>(a) * static_cast<std::size_t>(links_->num_sites()) +
                                  static_cast<std::size_t>(b)];
  const int g = device_first_gpu_[from], h = device_first_gpu_[to];
  const double bytes_per_s = std::min(links_->bytes_per_s(g, h), capacity / std::max(1, sharing));
  return links_->latency_s(g, h) + activation_bytes_ / bytes_per_s;
}

// T_xsync: per stage the ring all-reduce over the R groups holding it, and
// per loaded site pipe its bytes over its capacity; the largest of them.
double ReplicaCostModel::cross_replica_sync_s(const ReplicaPlanView& plan, ReplicaBreakdown* detail) const noexcept {
  const int R = plan.replicas, Q = plan.stages;
  if (R < 2) return 0.0;
  const double c = sync_compression_, ring = 2.0 * (R - 1);
  const std::size_t sites = static_cast<std::size_t>(links_->num_sites());
  double slowest = 0;
  for (int q = 0; q < Q; ++q) {
    const double bytes = plan.layers[q] * layer_grad_bytes_ + (q + 1 == Q ? head_grad_bytes_ : 0.0);
    double latency_s = 0, bytes_per_s = INFINITY;
    for (int r = 0; r < R; ++r) {
      const int a = plan.device(r, q), b = plan.device((r + 1) % R, q);
      const int g = device_first_gpu_[a], h = device_first_gpu_[b];
      latency_s = std::max(latency_s, links_->latency_s(g, h));
      bytes_per_s = std::min(bytes_per_s, std::min(device_size_[a], device_size_[b]) * links_->bytes_per_s(g, h));
      const int sa = device_site_[a], sb = device_site_[b];
      if (sa != sb && links_->has_pipe(sa, sb)) pipe_bytes_[sa * sites + sb] += ring / R * c * bytes;
    }
    const double all_reduce_s = ring * (latency_s + c * bytes / (R * bytes_per_s));
    if (detail) detail->all_reduce_s.push_back(all_reduce_s);
    slowest = std::max(slowest, all_reduce_s);
  }
  // Every loaded pipe once (its bytes are then cleared, so a second visit skips it).
  for (int q = 0; q < Q; ++q) {
    for (int r = 0; r < R; ++r) {
      const int sa = device_site_[plan.device(r, q)], sb = device_site_[plan.device((r + 1) % R, q)];
      double& bytes = pipe_bytes_[sa * sites + sb];
      if (sa == sb || bytes == 0) continue;
      const double pipe_s = bytes / links_->pipe_bytes_per_s(sa, sb) + ring * links_->pipe_latency_s(sa, sb);
      if (detail) detail->pipes.push_back({sa, sb, bytes, pipe_s});
      slowest = std::max(slowest, pipe_s);
      bytes = 0;
    }
  }
  return slowest;
}

// Written as CostModel's stage loop (cost_model.cpp, evaluate_stages), term
// for term, so that one replica without shared pipes gives its figures bit
// for bit: adding the exact zeros of absent terms changes no double.
template <bool kDetail>
PlanCost ReplicaCostModel::evaluate_into(const ReplicaPlanView& plan, ReplicaBreakdown* detail) const noexcept {
  const CostModel& cm = model_;
  const int R = plan.replicas, Q = plan.stages;
  const bool shared = links_->has_capacities();
  if (shared) count_pipe_sends(plan, +1);
  bool feasible = cm.allows_stage_count(Q);
  double slowest_pipe = -1, idle_w = 0, active_energy = 0, max_sync = 0;
  double carbon_idle = 0, carbon_active = 0, money_idle = 0, money_active = 0;
  int bottleneck = 0;
  for (int r = 0; r < R; ++r) {
    double sum_tau = 0, max_tau = -1, active = 0, replica_carbon = 0, replica_money = 0;
    int replica_bottleneck = 0;
    for (int q = 0; q < Q; ++q) {
      const bool last = q + 1 == Q;
      const int device = plan.device(r, q), layers = plan.layers[q];
      double comp = layers * cm.layer_compute_s(device);
      double bytes = layers * cm.layer_memory_bytes(device, Q);
      if (last) comp += cm.head_compute_s(device), bytes += cm.head_memory_bytes(device);
      double tau = comp;
      if (cm.has_groups()) tau += layers * cm.tensor_layer_s(device);
      const double forward = last ? 0.0 : (shared ? send_s(device, plan.device(r, q + 1)) : cm.send_s(device, plan.device(r, q + 1)));
      const double backward = q == 0 ? 0.0 : (shared ? send_s(device, plan.device(r, q - 1)) : cm.send_s(device, plan.device(r, q - 1)));
      if (!last) tau += forward;
      if (q > 0) tau += backward;
      sum_tau += tau;
      if (tau > max_tau) max_tau = tau, replica_bottleneck = q;
      idle_w += cm.idle_w(device);
      active += cm.active_extra_w(device) * comp;
      if (cm.has_prices()) {
        carbon_idle += cm.carbon_idle_g_per_s(device), replica_carbon += cm.carbon_active_g_per_s(device) * comp;
        money_idle += cm.money_idle_per_s(device), replica_money += cm.money_active_per_s(device) * comp;
      }
      if (cm.has_groups()) max_sync = std::max(max_sync, cm.data_parallel_sync_s(device, layers, last));
      feasible = feasible && bytes <= cm.memory_limit_bytes(device);
      if (kDetail) {
        detail->send_forward_s.push_back(forward);
        detail->send_backward_s.push_back(backward);
        detail->stage_s.push_back(tau);
      }
    }
    const double m = static_cast<double>(plan.micro_batches[r]);
    const double pipeline_s = sum_tau + (m - 1.0) * max_tau;
    if (pipeline_s > slowest_pipe) slowest_pipe = pipeline_s, bottleneck = replica_bottleneck;
    active_energy += m * active;
    carbon_active += m * replica_carbon;
    money_active += m * replica_money;
    if (kDetail) detail->pipeline_s.push_back(pipeline_s), detail->bottleneck.push_back(replica_bottleneck);
  }
  if (shared) count_pipe_sends(plan, -1);
  const double xsync_s = cross_replica_sync_s(plan, kDetail ? detail : nullptr);
  PlanCost cost;
  cost.iteration_s = slowest_pipe;
  if (cm.has_groups()) cost.iteration_s += max_sync;  // after every pipeline drains, all groups at once
  cost.iteration_s += xsync_s / static_cast<double>(sync_every_);
  cost.energy_j = cost.iteration_s * idle_w + active_energy;
  if (cm.has_prices()) {
    cost.carbon_g = cost.iteration_s * carbon_idle + carbon_active;
    cost.cost = cost.iteration_s * money_idle + money_active;
    cost.objective = cm.objective(cost.iteration_s, cost.energy_j, cost.carbon_g, cost.cost);
  } else {
    cost.objective = cm.objective(cost.iteration_s, cost.energy_j);
  }
  cost.feasible = feasible;
  cost.bottleneck = bottleneck;
  if (kDetail) {
    detail->data_parallel_sync_s = max_sync;
    detail->cross_replica_sync_s = xsync_s;
    detail->cost = cost;
  }
  return cost;
}

PlanCost ReplicaCostModel::evaluate(const ReplicaPlanView& plan) const noexcept {
  return evaluate_into<false>(plan, nullptr);
}

ReplicaBreakdown ReplicaCostModel::breakdown(const ReplicaPlanView& plan) const {
  ReplicaBreakdown detail;
  evaluate_into<true>(plan, &detail);
  return detail;
}

namespace {

ReplicaCostModel plan_model(const Problem& problem, const ReplicaPlan& plan, const CostModel& objective,
                            std::shared_ptr<const LinkTable> links) {
  ReplicaCostModel model(problem, layout_of(plan), std::move(links));
  model.devices().copy_objective_from(objective);
  if (objective.restricts_stage_count())
    model.devices().set_stage_count_range(objective.fewest_stages(), objective.most_stages());
  return model;
}

}  // namespace

ReplicaPlanModel::ReplicaPlanModel(const Problem& problem, const ReplicaPlan& plan, const CostModel& objective)
    : ReplicaPlanModel(problem, plan, objective, std::make_shared<const LinkTable>(problem)) {}

ReplicaPlanModel::ReplicaPlanModel(const Problem& problem, const ReplicaPlan& plan, const CostModel& objective,
                                   std::shared_ptr<const LinkTable> links)
    : model(plan_model(problem, plan, objective, std::move(links))) {
  for (const GroupStage& s : plan.front().stages) layers.push_back(s.layers);
  int device = 0;
  for (const Replica& r : plan) {
    micro_batches.push_back(r.micro_batches);
    for (std::size_t q = 0; q < r.stages.size(); ++q) devices.push_back(device++);
  }
}

}  // namespace geotrain
