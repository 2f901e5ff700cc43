#pragma once
// The stage groups a hybrid search may form (stage-groups.md), node by node.
// A node (one machine, all its GPUs on one site) is cut into equal groups of
// s GPUs, each t-way tensor parallel with d = s / t data shards: its shape.
// Every node takes one shape; a choice of shape per node is a layout.
// Groups never span nodes: collectives then stay on the node's interconnect,
// and the pipeline, which sends one activation per micro-batch, crosses the
// slower links (why: core/MEMETIC.md, "Stage groups").
#include <string>
#include <vector>

#include "model/group_layout.hpp"
#include "model/problem.hpp"

namespace geotrain {

struct GroupShape {
  int size = 1;             // s: GPUs per group, divides the node's GPU count
  int tensor_parallel = 1;  // t: divides s
  int data_parallel() const { return size / tensor_parallel; }
  bool operator==(const GroupShape& o) const { return size == o.size && tensor_parallel == o.tensor_parallel; }
};

struct PoolNode {
  std::string name;
  std::vector<int> gpus;  // fastest first (effective FLOP/s, then memory, then file order)
  int kind = 0;           // nodes of one kind (same site and same GPUs) are interchangeable
  std::vector<GroupShape> shapes;  // the shapes it may take; shapes[0] is one GPU per group
};

// Nodes in order of their first GPU in the file. Shapes: every s dividing the
// node's size and t dividing s with t <= kMaxTensorParallel, s <=
// kMaxGroupGpus, d dividing the micro-batch size u and, when the model gives
// model.num_attention_heads, t dividing the heads and H (a tensor rank holds
// whole heads), ordered by s, then t.
std::vector<PoolNode> pool_nodes(const Problem& problem);

// One shape index per node (into PoolNode::shapes).
using ShapeChoice = std::vector<int>;

// The groups of a choice, node by node in pool order, each node's groups in
// the order of its sorted GPUs. All zeros gives every GPU a device of its own.
GroupLayout layout_of_choice(const std::vector<PoolNode>& nodes, const ShapeChoice& choice);

// The shape that makes the whole node one group with the largest tensor
// degree the model allows, or -1 when the node cannot be one group.
int widest_tensor_shape(const PoolNode& node);

// The shape index of `shape` on `node`, or -1 when the node cannot take it.
int shape_index(const PoolNode& node, const GroupShape& shape);

// Every distinct shape any node can take, in the nodes' order.
std::vector<GroupShape> all_shapes(const std::vector<PoolNode>& nodes);

// Every node that can take `shape` takes it; the others stay one GPU a group.
ShapeChoice uniform_choice(const std::vector<PoolNode>& nodes, const GroupShape& shape);

// How many choices there are in all (saturating at `cap` + 1).
long long count_choices(const std::vector<PoolNode>& nodes, long long cap);

// Steps `choice` to the next one in mixed-radix order; false after the last.
bool next_choice(const std::vector<PoolNode>& nodes, ShapeChoice& choice);

}  // namespace geotrain
