#pragma once
// Where every process of a plan runs: its global rank, its place in the plan
// (pipeline stage, tensor rank, data-parallel rank) and its place in the
// machines (node, site, host, local CUDA device), plus the torchrun launch
// groups that produce exactly these ranks.
//
// Rank order is Megatron-Core's default ("tp-cp-ep-dp-pp" with cp = ep = 1):
// rank = tensor_rank + data_rank * t + stage * t * d. With stage groups of
// different sizes the same rule runs stage by stage: stage q's ranks start
// after all GPUs of stages 1..q-1, and within a stage a GPU's rank follows its
// position in the plan's `gpus` list (shard j = gpus[j*t .. j*t+t-1]).
#include <string>
#include <vector>

#include "model/group_plan.hpp"
#include "model/problem.hpp"

namespace geotrain {

struct RankEntry {
  int rank = 0;
  int gpu = 0;  // index into Problem::gpus
  int stage = 0;
  int tensor_rank = 0;
  int data_rank = 0;
  std::string node;  // Gpu::node_name()
  std::string site;
  std::string host;     // Gpu::host, or the node's name when the file gives none
  int device = 0;       // local CUDA index on the node
  int launch_group = 0; // index into RankMap::launch_groups (torchrun's --node-rank)
  int local_rank = 0;   // position inside that launch group (torchrun's LOCAL_RANK)
};

// One torchrun agent: a run of consecutive global ranks on one node. torchrun
// numbers ranks node by node (rank = sum of earlier agents' process counts +
// LOCAL_RANK), so a node whose ranks are not consecutive (it holds stages 1
// and 3, another node stage 2) runs one agent per run.
struct LaunchGroup {
  std::string node;
  std::string host;
  int first_rank = 0;
  std::vector<int> devices;  // CUDA_VISIBLE_DEVICES in LOCAL_RANK order
};

struct RankMap {
  std::vector<RankEntry> ranks;  // by global rank
  std::vector<LaunchGroup> launch_groups;
  std::vector<std::string> assumptions;  // what the problem file did not say
  int world_size() const { return static_cast<int>(ranks.size()); }
};

// Throws InputError naming the field when the file's hosts and devices
// contradict each other (two hosts for one node, one device twice on a node).
RankMap build_rank_map(const Problem& problem, const GroupPlan& plan);

}  // namespace geotrain
