#pragma once
// FlashFlex (Relaxed-System-Lab/FlashFlex, also published as HexiScale) runs
// heterogeneous plans: pipelines whose stages each have a tensor degree of
// their own (--hetero_configs), any layer split per pipeline
// (--layer_partitions), and several pipelines (data parallelism between them,
// layer by layer) with a batch share and a micro-batch count each
// (--global_bsz_size, --chunks). A GeoTrain plan whose stages all have the
// same number d of data shards is d FlashFlex pipelines of the same stage
// template: pipeline j's stage q is shard j of stage q's group, its t_q GPUs
// one tensor group. What it cannot run: stages with different shard counts
// (a GPU serves one pipeline), and tensor degrees that do not divide the
// attention heads of its llama config (flashflex_models.hpp).
//
// Ranks follow FlashFlex's own order when no --pp_layouts is given
// (hexiscale/gen_hetero_groups.py, gen_layouts): pipeline by pipeline, stage
// by stage, tensor rank by tensor rank. Each rank is started as FlashFlex's
// generated scripts start it (plain python3 with RANK, WORLD_SIZE,
// MASTER_ADDR and MASTER_PORT set), with the plan's GPU in
// CUDA_VISIBLE_DEVICES.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "launch/flashflex_models.hpp"
#include "launch/rank_map.hpp"
#include "model/group_plan.hpp"
#include "model/problem.hpp"
#include "model/replica_plan.hpp"

namespace geotrain {

// --run-iter when the problem file has no training.iterations (stated in the notes).
constexpr std::int64_t kPlaceholderRunIters = 10;

struct FlashFlexRank {
  int rank = 0;
  int gpu = 0;  // index into Problem::gpus
  int pipeline = 0, stage = 0, tensor_rank = 0;
  int machine = 0;  // index into FlashFlexLaunch::machines (FlashFlex's --devices_id value)
  std::string host, node;
  int device = 0;  // local CUDA index
};

struct FlashFlexMachine {
  std::string host, node;
};

struct FlashFlexLaunch {
  bool expressible = false;
  std::vector<std::string> cannot;  // "cannot express because ..."
  std::vector<std::string> notes;
  const FlashFlexModel* model = nullptr;
  std::vector<std::vector<int>> hetero_configs;    // per pipeline, per stage: tensor degree
  std::vector<std::vector<int>> layer_partitions;  // per pipeline, per stage: decoder layers
  std::vector<std::int64_t> global_batch_sizes;    // per pipeline: samples per iteration
  std::vector<std::int64_t> micro_batches;         // per pipeline: micro-batches per iteration
  std::vector<std::vector<std::vector<int>>> devices_id;  // per pipeline, stage, GPU: its machine
  std::vector<std::pair<std::string, std::string>> arguments;  // llama_train.py's, the same on every rank
  std::vector<FlashFlexRank> ranks;
  std::vector<FlashFlexMachine> machines;  // in order of their first rank
};

FlashFlexLaunch flashflex_launch(const Problem& problem, const GroupPlan& plan, const RankMap& map);

// A replica plan (replicas.md) as FlashFlex pipelines: replica r's d_r data
// shards are d_r pipelines of its own groups, each taking m_r u / d_r samples
// in m_r micro-batches (FlashFlex averages gradients between all pipelines
// every step). Replicas may differ in groups and shares; `map` places every
// replica's GPUs (any plan over all of them).
FlashFlexLaunch flashflex_replica_launch(const Problem& problem, const ReplicaPlan& plan, const RankMap& map);

// A Python list literal as FlashFlex eval()s it: [[8, 8], [4, 4]].
std::string python_list(const std::vector<std::vector<int>>& lists);

// The launch script: `sh flashflex_launch.sh MACHINE` on each machine starts
// that machine's ranks (a shell function per rank line).
std::string flashflex_script(const FlashFlexLaunch& launch, int rendezvous_port);

// The nearest plan FlashFlex runs: every stage keeps its first d shards (d
// the smallest shard count) of t GPUs, t the largest divisor of its tensor
// degree that divides the config's heads (1 without a config).
GroupPlan flashflex_nearest_plan(const GroupPlan& plan, const Problem& problem);

}  // namespace geotrain
