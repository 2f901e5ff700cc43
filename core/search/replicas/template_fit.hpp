#pragma once
// Carrying a replica's plan to the other replicas' pools (replicas.md: every
// replica holds the same layers in stage q, on groups of its own). Where a
// pool is built like the lead's (the same sites in order, nodes of the same
// GPUs), the lead's groups are carried node for node; otherwise the stage
// template is fitted onto the pool's own groups: the heaviest stages on the
// fastest groups that hold them.
#include <optional>
#include <vector>

#include "model/group_plan.hpp"
#include "model/link_table.hpp"
#include "model/problem.hpp"

namespace geotrain {

// The lead's plan (GPU indices of `problem`) moved onto `pool`: each GPU to
// the GPU at the same place of the matching node. Nothing when some node of
// the lead's plan has no match with the same GPUs, in the same site order.
std::optional<GroupPlan> carry_plan(const Problem& problem, const GroupPlan& lead, const std::vector<int>& lead_pool,
                                    const std::vector<int>& pool);

// As carry_plan, matching nodes by their GPU count alone: the same groups
// (sizes and tensor degrees) on other GPUs, as engines that run replicas as
// data parallelism need (engine_replicas.hpp).
std::optional<GroupPlan> carry_shape(const Problem& problem, const GroupPlan& lead, const std::vector<int>& lead_pool,
                                     const std::vector<int>& pool);

// The template (layers per stage) on `pool`'s groups: its GPUs one by one
// and, with `groups`, every shape a node of the pool can take across all its
// nodes (node_shapes.hpp); for each, the heaviest stage goes to the fastest
// group, each group checked to hold its stage at the template's stage count.
// The layout whose slowest stage is fastest wins. Nothing when none fits.
std::optional<GroupPlan> fit_template(const Problem& problem, const std::vector<int>& layers,
                                      const std::vector<int>& pool, bool groups, const LinkTable& links);

}  // namespace geotrain
