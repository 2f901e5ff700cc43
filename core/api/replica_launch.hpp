#pragma once
// Replica plans on the engines (replicas.md): identical replicas (the same
// group size and tensor degree at every stage, the same share of the
// micro-batches) are what Megatron-LM, DeepSpeed and torchrun call data
// parallelism: one pipeline whose stage q group joins every replica's stage q
// group, data-parallel size R x d, one gradient all-reduce per step. Replicas
// that differ, a sync period above 1 (local SGD) or compressed gradients are
// beyond those engines, and the bundle says so.
#include <string>
#include <vector>

#include "model/group_plan.hpp"
#include "model/problem.hpp"
#include "model/replica_plan.hpp"

namespace geotrain {

struct MergedReplicas {
  Problem problem;  // u' = R u: one micro-batch of every replica at once, M' = m
  GroupPlan plan;   // stage q: every replica's group, replica by replica
  std::vector<std::string> cannot;  // why not, when the replicas cannot run as data parallelism
};

MergedReplicas merge_identical_replicas(const Problem& problem, const ReplicaPlan& plan);

}  // namespace geotrain
