#pragma once
// What the 1F1B simulation runs on (simulator.md, "Operations"): for each
// pipeline (one per replica) the durations of every stage's forward and
// backward and of every send between stages, with the directed link each
// send uses. Built from a problem and a plan by timing_builder.hpp, or by
// hand in tests; the simulation itself knows nothing of GPUs or layers.
#include <cstdint>
#include <vector>

namespace geotrain {

// One activation (forward) or gradient (backward) crossing a stage boundary:
// latency_s + transfer_s, on directed link `link` (an index into
// PipelineTimings::links). A link carries one transfer at a time.
struct SendTiming {
  double latency_s = 0;
  double transfer_s = 0;  // bytes / bandwidth at the planned bandwidth
  int link = -1;          // -1: no send (the first stage's backward, the last stage's forward)

  double total_s() const { return latency_s + transfer_s; }
  bool exists() const { return link >= 0; }
};

// Stage q of a pipeline, for one micro-batch. With gamma the backward factor
// and comp_q, tp_q as in stage-groups.md: forward = comp_q / (1 + gamma) +
// tp_q / 2, backward = gamma comp_q / (1 + gamma) + tp_q / 2.
struct StageTiming {
  double forward_compute_s = 0;   // comp_q / (1 + gamma)
  double backward_compute_s = 0;  // gamma comp_q / (1 + gamma)
  double tensor_s = 0;            // tp_q / 2: each pass's tensor-parallel all-reduces
  SendTiming forward;             // to stage q + 1
  SendTiming backward;            // to stage q - 1
  int device = 0;                 // index into PipelineTimings::devices (whose slowdowns apply)

  double forward_s() const { return forward_compute_s + tensor_s; }
  double backward_s() const { return backward_compute_s + tensor_s; }
  // tau_q, as the analytic model prices it: both passes and both sends.
  double analytic_stage_s() const { return forward_s() + backward_s() + forward.total_s() + backward.total_s(); }
};

// One replica's pipeline: its stages in order and its micro-batches m_r.
struct PipelineTiming {
  std::int64_t micro_batches = 1;
  std::vector<StageTiming> stages;

  int stage_count() const { return static_cast<int>(stages.size()); }
};

// The ends of a directed link, as GPU indices of the problem (the first GPU
// of each stage group: activations travel between groups' first GPUs).
struct LinkEnds {
  int from_gpu = 0, to_gpu = 0;
  bool operator==(const LinkEnds& o) const { return from_gpu == o.from_gpu && to_gpu == o.to_gpu; }
};

struct PipelineTimings {
  std::vector<PipelineTiming> replicas;
  // After every replica has drained, as the analytic model adds them: the
  // largest data-parallel sync plus the cross-replica sync over sync_every.
  double after_drain_s = 0;
  // Its parts, for reports (after_drain_s = dp + T_xsync / H): the largest
  // data-parallel sync, the cross-replica sync T_xsync (0 with one replica)
  // and sync_every H.
  double data_parallel_sync_s = 0;
  double cross_replica_sync_s = 0;
  std::int64_t sync_every = 1;
  std::vector<LinkEnds> links;             // link index -> its GPUs
  std::vector<std::vector<int>> devices;   // device index -> its GPUs (one, or a stage group)
  double analytic_iteration_s = 0;         // the cost model's T_iter of the same plan

  int replica_count() const { return static_cast<int>(replicas.size()); }
  // Index of the directed link from -> to, added when new (a handful per plan).
  int link_index(int from_gpu, int to_gpu) {
    const LinkEnds ends{from_gpu, to_gpu};
    for (std::size_t i = 0; i < links.size(); ++i)
      if (links[i] == ends) return static_cast<int>(i);
    links.push_back(ends);
    return static_cast<int>(links.size()) - 1;
  }
};

}  // namespace geotrain
