#pragma once
// A lower bound on the objective of every stage-group plan of a problem
// (search.parallelism "hybrid", stage-groups.md) at its micro-batch size,
// that knows sites, links and what a node can form (issue 23; core/EXACT.md,
// "A floor for stage groups"). pool_relaxation.hpp's bound assumes perfect
// scaling over the whole pool; this one sees that a pipeline crossing sites
// pays the wide-area link at the stage that crosses, and that a node takes
// one shape.
//
// Every group any layout can form is a device with its own figures (one
// layer's compute and tensor traffic, the head, memory at two or more
// stages), sending from its first GPU to a neighbour's first GPU outside
// its group (another node's, or another group's of its own node when the
// shape leaves one). At a makespan x a device in a role (first, middle or
// last stage; neighbours inside its site or not) holds at most
// floor((x - its cheapest sends for the role - head on the last) / layer)
// layers, within its memory. The sites' DP of the bottleneck floor
// (bottleneck_bound.hpp: a site used in the middle is entered and left,
// the two ends' sites are left or entered once) runs node by node, each
// node taking the best of its shapes or none: the most layers any plan
// keeps within x. The least x at which that reaches L bounds every plan's
// largest stage time; T_iter >= the least compute of L layers and the
// head, plus a round trip, plus (M - 1) times that floor; energy as in
// pool_relaxation.hpp. One-stage plans are costed outright.
#include "model/cost_model.hpp"
#include "model/problem.hpp"
#include "search/stopwatch.hpp"

namespace geotrain {

// `pipeline` is the problem's one-GPU-per-device model with its objective
// settings and stage-count range. At most the objective of every feasible
// plan of every layout (+infinity when none fits); 0 when it stops at
// `deadline` before it has a bound.
double group_plan_lower_bound(const Problem& problem, const CostModel& pipeline, const Deadline& deadline = {});

}  // namespace geotrain
