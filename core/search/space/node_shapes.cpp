#include "search/space/node_shapes.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace geotrain {

namespace {

std::vector<GroupShape> shapes_for(int node_size, const ModelConfig& model) {
  std::vector<GroupShape> shapes;
  for (int s = 1; s <= std::min(node_size, kMaxGroupGpus); ++s) {
    if (node_size % s != 0) continue;
    for (int t = 1; t <= std::min(s, kMaxTensorParallel); ++t)
      if (s % t == 0 && model.micro_batch_size % (s / t) == 0 && model.allows_tensor_parallel(t))
        shapes.push_back(GroupShape{s, t});
  }
  return shapes;
}

// What makes two GPUs interchangeable for the model.
auto gpu_signature(const Gpu& g) {
  return std::make_tuple(g.effective_flops(), g.effective_memory_bytes(), g.idle_w, g.active_w, g.price_per_hour);
}

}  // namespace

std::vector<PoolNode> pool_nodes(const Problem& problem) {
  std::vector<PoolNode> nodes;
  std::map<std::string, std::size_t> index_of;
  for (std::size_t i = 0; i < problem.gpus.size(); ++i) {
    const std::string& name = problem.gpus[i].node_name();
    auto [it, fresh] = index_of.emplace(name, nodes.size());
    if (fresh) nodes.push_back(PoolNode{name, {}, 0, {}});
    nodes[it->second].gpus.push_back(static_cast<int>(i));
  }
  // A group's pace is its slowest shard's: fastest first keeps alike GPUs together.
  using Signature = decltype(gpu_signature(problem.gpus[0]));
  std::map<std::pair<std::string, std::vector<Signature>>, int> kinds;
  for (PoolNode& node : nodes) {
    std::stable_sort(node.gpus.begin(), node.gpus.end(), [&](int a, int b) {
      const Gpu &ga = problem.gpus[a], &gb = problem.gpus[b];
      if (ga.effective_flops() != gb.effective_flops()) return ga.effective_flops() > gb.effective_flops();
      return ga.effective_memory_bytes() > gb.effective_memory_bytes();
    });
    std::vector<Signature> signature;
    for (int g : node.gpus) signature.push_back(gpu_signature(problem.gpus[g]));
    const auto key = std::make_pair(problem.gpus[node.gpus[0]].site, std::move(signature));
    node.kind = kinds.emplace(key, static_cast<int>(kinds.size())).first->second;
    node.shapes = shapes_for(static_cast<int>(node.gpus.size()), problem.model);
  }
  return nodes;
}

GroupLayout layout_of_choice(const std::vector<PoolNode>& nodes, const ShapeChoice& choice) {
  GroupLayout layout;
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    const PoolNode& node = nodes[n];
    const GroupShape& shape = node.shapes[static_cast<std::size_t>(choice[n])];
    for (std::size_t first = 0; first < node.gpus.size(); first += static_cast<std::size_t>(shape.size)) {
      DeviceGroup group;
      group.gpus.assign(node.gpus.begin() + static_cast<long>(first),
                        node.gpus.begin() + static_cast<long>(first + static_cast<std::size_t>(shape.size)));
      group.tensor_parallel = shape.tensor_parallel;
      layout.push_back(std::move(group));
    }
  }
  return layout;
}

int widest_tensor_shape(const PoolNode& node) {
  int best = -1;
  const int size = static_cast<int>(node.gpus.size());
  for (std::size_t k = 0; k < node.shapes.size(); ++k)
    if (node.shapes[k].size == size && (best < 0 || node.shapes[k].tensor_parallel > node.shapes[best].tensor_parallel))
      best = static_cast<int>(k);
  return best;
}

int shape_index(const PoolNode& node, const GroupShape& shape) {
  for (std::size_t k = 0; k < node.shapes.size(); ++k)
    if (node.shapes[k] == shape) return static_cast<int>(k);
  return -1;
}

std::vector<GroupShape> all_shapes(const std::vector<PoolNode>& nodes) {
  std::vector<GroupShape> shapes;
  for (const PoolNode& node : nodes)
    for (const GroupShape& s : node.shapes)
      if (std::find(shapes.begin(), shapes.end(), s) == shapes.end()) shapes.push_back(s);
  return shapes;
}

ShapeChoice uniform_choice(const std::vector<PoolNode>& nodes, const GroupShape& shape) {
  ShapeChoice choice(nodes.size(), 0);
  for (std::size_t n = 0; n < nodes.size(); ++n) choice[n] = std::max(0, shape_index(nodes[n], shape));
  return choice;
}

long long count_choices(const std::vector<PoolNode>& nodes, long long cap) {
  long long count = 1;
  for (const PoolNode& node : nodes) {
    count *= static_cast<long long>(node.shapes.size());
    if (count > cap) return cap + 1;
  }
  return count;
}

bool next_choice(const std::vector<PoolNode>& nodes, ShapeChoice& choice) {
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    if (++choice[n] < static_cast<int>(nodes[n].shapes.size())) return true;
    choice[n] = 0;
  }
  return false;
}

}  // namespace geotrain
