#pragma once
// The analytical cost of a plan of data-parallel replicas (replicas.md): each
// replica's 1F1B pipeline on its share of the micro-batches, sends that share
// a site pipe's capacity_gbps, the data-parallel sync inside each stage group,
// and the ring all-reduce of every stage's gradient across the replicas,
// bounded by the site pipes it loads, once every sync_every iterations.
//
// It plans over devices, as CostModel does: the stage groups replicas may use
// (a GroupLayout, not necessarily disjoint; a plan uses each GPU once). Per
// device figures come from a CostModel over the same layout, so a plan of one
// replica without capacities has exactly CostModel's figures, bit for bit.
// Evaluating allocates nothing: its scratch tables are sized once here. Not
// for concurrent use from several threads (the scratch is the model's own).
#include <cstdint>
#include <memory>
#include <vector>

#include "model/cost_model.hpp"
#include "model/link_table.hpp"
#include "model/replica_plan.hpp"

namespace geotrain {

// A replica plan over a model's devices: R replicas of Q stages, layers[q]
// the stage template, devices[r * Q + q] the device of replica r's stage q,
// micro_batches[r] its share m_r.
struct ReplicaPlanView {
  int replicas = 0;
  int stages = 0;
  const int* layers = nullptr;
  const int* devices = nullptr;
  const std::int64_t* micro_batches = nullptr;

  int device(int replica, int stage) const { return devices[replica * stages + stage]; }
};

// One site pipe the cross-replica all-reduce loads (replicas.md, pipe_AB).
struct PipeLoad {
  int from_site = 0, to_site = 0;
  double bytes = 0;  // W_AB
  double time_s = 0;  // W_AB / Cap_AB + 2 (R - 1) Lat_AB
};

// The parts of T_iter, for reports.
struct ReplicaBreakdown {
  std::vector<double> pipeline_s;       // T_pipe,r
  std::vector<int> bottleneck;          // per replica, its stage with the largest tau
  // Per replica and stage (r * Q + q): the sends as priced here (shared pipes
  // included) and tau.
  std::vector<double> send_forward_s, send_backward_s, stage_s;
  double data_parallel_sync_s = 0;      // max over every group of dp_rq
  std::vector<double> all_reduce_s;     // AR_q, per stage (empty when R = 1)
  std::vector<PipeLoad> pipes;          // loaded site pipes, in site order
  double cross_replica_sync_s = 0;      // T_xsync
  PlanCost cost;
};

class ReplicaCostModel {
 public:
  ReplicaCostModel(const Problem& problem, GroupLayout devices);
  // The same, sharing a problem's link table (searches build many models).
  ReplicaCostModel(const Problem& problem, GroupLayout devices, std::shared_ptr<const LinkTable> links);

  // Per device figures and the objective's settings (weights, references,
  // stage-count range): set them here.
  const CostModel& devices() const { return model_; }
  CostModel& devices() { return model_; }
  const LinkTable& links() const { return *links_; }
  std::int64_t sync_every() const { return sync_every_; }
  double sync_compression() const { return sync_compression_; }

  PlanCost evaluate(const ReplicaPlanView& plan) const noexcept;
  ReplicaBreakdown breakdown(const ReplicaPlanView& plan) const;

 private:
  template <bool kDetail>
  PlanCost evaluate_into(const ReplicaPlanView& plan, ReplicaBreakdown* detail) const noexcept;
  void count_pipe_sends(const ReplicaPlanView& plan, int delta) const noexcept;
  double send_s(int from, int to) const noexcept;
  double cross_replica_sync_s(const ReplicaPlanView& plan, ReplicaBreakdown* detail) const noexcept;

  CostModel model_;
  std::shared_ptr<const LinkTable> links_;
  std::vector<int> device_site_, device_first_gpu_, device_size_;
  double activation_bytes_ = 0;   // S
  double layer_grad_bytes_ = 0;   // P kappa
  double head_grad_bytes_ = 0;    // H V kappa
  std::int64_t sync_every_ = 1;   // H
  double sync_compression_ = 1;   // c
  // Scratch, per directed site pair: sends sharing a capacity, and the
  // all-reduce's bytes on each pipe.
  mutable std::vector<int> pipe_sends_;
  mutable std::vector<double> pipe_bytes_;
};

// The model over `plan`'s own groups (replica r's stage q is device r * Q + q)
// with the problem's objective settings from `objective` (its weights,
// references and stage-count range), and the view of the plan over it.
struct ReplicaPlanModel {
  ReplicaPlanModel(const Problem& problem, const ReplicaPlan& plan, const CostModel& objective);
  ReplicaPlanModel(const Problem& problem, const ReplicaPlan& plan, const CostModel& objective,
                   std::shared_ptr<const LinkTable> links);
  ReplicaCostModel model;
  std::vector<int> layers, devices;
  std::vector<std::int64_t> micro_batches;
  ReplicaPlanView view() const {
    return {static_cast<int>(micro_batches.size()), static_cast<int>(layers.size()), layers.data(), devices.data(),
            micro_batches.data()};
  }
};

}  // namespace geotrain
