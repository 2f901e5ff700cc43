#pragma once
// Which replica plans each training engine can launch (search.engine x
// search.replicas), one rule set for the replica search and the launch
// bundle (api/replica_launch.hpp):
//   - megatron-core, deepspeed, torch run replicas as data parallelism: one
//     pipeline whose stage q joins every replica's stage q group. So every
//     replica has the same groups (size and tensor degree at every stage) and
//     the same share of the micro-batches, and the joined plan is one the
//     engine runs (engine_space.hpp) at u' = R u.
//   - flashflex runs each replica as its own pipelines (--hetero_configs has
//     a row per pipeline, --global_bsz_size and --chunks a share each): any
//     groups and shares, as long as each replica's own plan is one it runs.
//   - every engine averages gradients every step, uncompressed: a sync
//     period or compression leaves them one pipeline (local SGD needs an
//     outer loop such as DiLoCo's, which no bundle generates).
#include <string>
#include <vector>

#include "model/engine.hpp"
#include "model/group_plan.hpp"
#include "model/problem.hpp"
#include "model/replica_plan.hpp"

namespace geotrain {

// The engine joins replicas into one data-parallel pipeline (identical replicas only).
bool engine_joins_replicas(Engine engine);

// Why the engine cannot run replicas at all on this problem's training
// settings (sync period, compression); empty when it can, or for "any".
std::vector<std::string> engine_replica_setting_faults(Engine engine, const Problem& problem);

// The replicas joined stage by stage (replica by replica inside a group).
GroupPlan join_replicas(const ReplicaPlan& plan);

// Why the engine cannot run `plan` ("cannot express because ..."); empty
// when it can. One replica is the engine's own pipeline rule.
std::vector<std::string> engine_replica_faults(Engine engine, const Problem& problem, const ReplicaPlan& plan);

}  // namespace geotrain
