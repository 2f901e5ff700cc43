#include "search/bounds/group_floor.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "search/bounds/bottleneck_bound.hpp"
#include "search/space/node_shapes.hpp"

namespace geotrain {

namespace {

using bottleneck_detail::kNoState;
using bottleneck_detail::kSlack;

// One group some layout can form, as the floor reads it.
struct GroupDevice {
  double layer_s = 0;  // one layer: compute and tensor traffic
  double head_s = 0;
  int cap_middle = 0, cap_last = 0;  // at the least allowed stage count of two or more
  // Cheapest and second cheapest sends from its first GPU to a GPU that can
  // start a neighbouring group: inside its cluster (site) and outside it.
  double intra1_s = INFINITY, intra2_s = INFINITY, cross1_s = INFINITY, cross2_s = INFINITY;
};

struct NodeGroups {
  int cluster = 0;
  std::vector<std::vector<GroupDevice>> shapes;  // the groups of each shape the node can take
};

// What every makespan's test reads, built once.
struct GroupPool {
  std::vector<NodeGroups> nodes;
  int clusters = 0;
  double least_layer_s = INFINITY, least_head_s = INFINITY;
  double least_layer_j = INFINITY;  // bound power above idle times one layer's compute
  double head_in_layers = 0;        // the head's compute over one layer's (every device alike)
  double one_stage_bound = INFINITY;
};

void keep_two_least(double s, double& first, double& second) {
  if (s < first) second = first, first = s;
  else second = std::min(second, s);
}

GroupPool make_group_pool(const Problem& problem, const CostModel& pipeline, const BottleneckTables& clusters) {
  GroupPool pool;
  pool.clusters = clusters.num_clusters;
  const auto links = resolve_links(problem.network, problem.gpus);
  const int n = pipeline.num_gpus(), L = pipeline.num_layers();
  const int two_or_more = std::max(2, pipeline.fewest_stages());
  std::vector<char> in_node(static_cast<std::size_t>(n), 0);
  for (const PoolNode& node : pool_nodes(problem)) {
    // Every group of every shape of the node, shape by shape, in one model.
    GroupLayout layout;
    std::vector<int> shape_of, index_in_shape;
    for (std::size_t k = 0; k < node.shapes.size(); ++k) {
      const GroupShape& shape = node.shapes[k];
      for (std::size_t first = 0; first < node.gpus.size(); first += static_cast<std::size_t>(shape.size)) {
        DeviceGroup group;
        group.gpus.assign(node.gpus.begin() + static_cast<long>(first),
                          node.gpus.begin() + static_cast<long>(first) + shape.size);
        group.tensor_parallel = shape.tensor_parallel;
        layout.push_back(std::move(group));
        shape_of.push_back(static_cast<int>(k));
        index_in_shape.push_back(static_cast<int>(first) / shape.size);
      }
    }
    CostModel model(problem, layout, links);
    model.copy_objective_from(pipeline);
    if (pipeline.fewest_stages() > 1 || pipeline.most_stages() < std::numeric_limits<int>::max())
      model.set_stage_count_range(pipeline.fewest_stages(), pipeline.most_stages());
    for (int g : node.gpus) in_node[static_cast<std::size_t>(g)] = 1;
    NodeGroups groups;
    groups.cluster = clusters.cluster_of[static_cast<std::size_t>(node.gpus[0])];
    groups.shapes.resize(node.shapes.size());
    for (int v = 0; v < model.num_gpus(); ++v) {
      GroupDevice d;
      d.layer_s = model.layer_compute_s(v) + model.tensor_layer_s(v);
      d.head_s = model.head_compute_s(v);
      if (two_or_more <= std::min(n, L)) {
        d.cap_middle = model.max_layers(v, two_or_more, false);
        d.cap_last = model.max_layers(v, two_or_more, true);
      }
      // A neighbour starts at another node's GPU, or at the first GPU of
      // another group of this node's shape (no other group of the node
      // fits beside this one).
      const int from = layout[static_cast<std::size_t>(v)].gpus[0], cluster = groups.cluster;
      auto consider = [&](int to) {
        const double s = pipeline.send_s(from, to);
        if (clusters.cluster_of[static_cast<std::size_t>(to)] == cluster) keep_two_least(s, d.intra1_s, d.intra2_s);
        else keep_two_least(s, d.cross1_s, d.cross2_s);
      };
      for (int to = 0; to < n; ++to)
        if (!in_node[static_cast<std::size_t>(to)]) consider(to);
      const int size = node.shapes[static_cast<std::size_t>(shape_of[static_cast<std::size_t>(v)])].size;
      for (std::size_t first = 0; first < node.gpus.size(); first += static_cast<std::size_t>(size))
        if (static_cast<int>(first) / size != index_in_shape[static_cast<std::size_t>(v)]) consider(node.gpus[first]);
      pool.least_layer_s = std::min(pool.least_layer_s, d.layer_s);
      pool.least_head_s = std::min(pool.least_head_s, d.head_s);
      pool.least_layer_j = std::min(pool.least_layer_j, model.bound_active_extra_w(v) * model.layer_compute_s(v));
      pool.head_in_layers = model.head_compute_s(v) / model.layer_compute_s(v);
      if (model.allows_stage_count(1)) {
        const Stage whole{v, L};
        const PlanCost cost = model.evaluate(&whole, 1);
        if (cost.feasible) pool.one_stage_bound = std::min(pool.one_stage_bound, cost.objective);
      }
      groups.shapes[static_cast<std::size_t>(shape_of[static_cast<std::size_t>(v)])].push_back(d);
    }
    for (int g : node.gpus) in_node[static_cast<std::size_t>(g)] = 0;
    pool.nodes.push_back(std::move(groups));
  }
  return pool;
}

int state(int slots, int first, int last) { return slots * 4 + first * 2 + last; }

// Layers a stage with `budget_s` after its sends holds: at least one, or 0.
int layers_within(double budget_s, double layer_s, int memory) {
  if (!(budget_s >= layer_s)) return 0;
  const double v = budget_s / layer_s;
  return v >= memory ? memory : static_cast<int>(v);
}

// Adds one device's roles to a cluster's DP row (12 states).
void add_device(const GroupDevice& d, double x, const int* before, int* row) {
  struct Role {
    int layers, slots, first, last;
  };
  const double i1 = d.intra1_s, i2 = d.intra2_s, c1 = d.cross1_s, c2 = d.cross2_s;
  const Role roles[] = {
      {layers_within(x - i1 - i2, d.layer_s, d.cap_middle), 0, 0, 0},  // middle, both neighbours in the site
      {layers_within(x - i1 - c1, d.layer_s, d.cap_middle), 1, 0, 0},
      {layers_within(x - c1 - c2, d.layer_s, d.cap_middle), 2, 0, 0},
      {layers_within(x - i1, d.layer_s, d.cap_middle), 0, 1, 0},  // first stage: one send
      {layers_within(x - c1, d.layer_s, d.cap_middle), 1, 1, 0},
      {layers_within(x - i1 - d.head_s, d.layer_s, d.cap_last), 0, 0, 1},  // last: a send back and the head
      {layers_within(x - c1 - d.head_s, d.layer_s, d.cap_last), 1, 0, 1},
  };
  for (const Role& r : roles) {
    if (r.layers < 1) continue;
    for (int s = 0; s < 12; ++s) {
      if (before[s] == kNoState) continue;
      const int slots = s / 4, first = (s >> 1) & 1, last = s & 1;
      if ((first && r.first) || (last && r.last)) continue;
      const int to = state(std::min(2, slots + r.slots), first | r.first, last | r.last);
      row[to] = std::max(row[to], before[s] + r.layers);
    }
  }
}

// The most layers a plan of two or more stages holds with every stage
// within x (and, in `single`, inside one site).
int group_capacity(const GroupPool& pool, double x_s, int* single) {
  const double x = x_s * (1 + kSlack);
  std::vector<int> dp(static_cast<std::size_t>(pool.clusters) * 12, kNoState);
  for (int c = 0; c < pool.clusters; ++c) dp[static_cast<std::size_t>(c) * 12] = 0;
  int before[12], shape_row[12], device_before[12];
  for (const NodeGroups& node : pool.nodes) {
    int* row = &dp[static_cast<std::size_t>(node.cluster) * 12];
    std::copy(row, row + 12, before);
    for (const std::vector<GroupDevice>& groups : node.shapes) {  // one shape, or none
      std::copy(before, before + 12, shape_row);
      for (const GroupDevice& d : groups) {
        std::copy(shape_row, shape_row + 12, device_before);
        add_device(d, x, device_before, shape_row);
      }
      for (int s = 0; s < 12; ++s) row[s] = std::max(row[s], shape_row[s]);
    }
  }
  return bottleneck_detail::combine_clusters(dp.data(), pool.clusters, single);
}

// The least x at which some plan may keep every stage within it (inside one
// site with `single_site`): a bisection, returned a little below.
double group_floor_s(const GroupPool& pool, int layers, bool single_site, const Deadline& deadline) {
  const auto holds = [&](double x) {
    int single = kNoState;
    const int all = group_capacity(pool, x, &single);
    return (single_site ? single : all) >= layers;
  };
  double lo = 0, hi = 1e-6;
  while (!holds(hi)) {
    lo = hi, hi *= 2;
    if (hi > 1e12) return single_site ? INFINITY : 0.0;
    if (deadline.passed()) return lo;
  }
  for (int step = 0; step < 100 && hi - lo > 1e-7 * hi && !deadline.passed(); ++step) {
    const double mid = 0.5 * (lo + hi);
    (holds(mid) ? hi : lo) = mid;
  }
  return lo;
}

}  // namespace

double group_plan_lower_bound(const Problem& problem, const CostModel& pipeline, const Deadline& deadline) {
  const int n = pipeline.num_gpus(), L = pipeline.num_layers();
  if (n == 0) return 0.0;
  const BottleneckTables clusters = make_bottleneck_tables(pipeline);
  const GroupPool pool = make_group_pool(problem, pipeline, clusters);
  double bound = pool.one_stage_bound;
  if (std::max(2, pipeline.fewest_stages()) > std::min({n, L, pipeline.most_stages()})) return bound;
  const double floor_s = group_floor_s(pool, L, false, deadline);
  const double single_floor_s = group_floor_s(pool, L, true, deadline);
  // T_iter >= sum of the taus + (M - 1) max tau; the taus compute L layers
  // and the head and send across at least one boundary both ways.
  const double compute_s = L * pool.least_layer_s + pool.least_head_s, later = pipeline.micro_batches() - 1;
  const auto times_later = [later](double s) { return later > 0 ? later * s : 0.0; };
  const double inside_s = compute_s + clusters.min_round_trip_s + times_later(std::max(floor_s, single_floor_s));
  const double across_s = compute_s + clusters.min_cross_round_trip_s + times_later(floor_s);
  const double time_s = std::min(inside_s, across_s);
  if (!(time_s < INFINITY)) return bound;
  // Energy: at least two GPUs idle for T_iter, and every layer and the head
  // computed at the least energy any device spends on one.
  double idle1 = INFINITY, idle2 = INFINITY;
  for (int g = 0; g < n; ++g) keep_two_least(pipeline.bound_idle_w(g), idle1, idle2);
  const double M = pipeline.micro_batches();
  const double equivalent_j = time_s * (idle1 + idle2) + M * (L + pool.head_in_layers) * pool.least_layer_j;
  const double several = pipeline.bound_objective(time_s, equivalent_j);
  if (several == several) bound = std::min(bound, several);  // NaN: no claim
  return bound;
}

}  // namespace geotrain
