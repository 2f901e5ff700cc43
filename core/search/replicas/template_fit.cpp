#include "search/replicas/template_fit.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <tuple>

#include "model/cost_model.hpp"
#include "search/replicas/sub_pool.hpp"
#include "search/space/node_shapes.hpp"

namespace geotrain {

namespace {

using GpuSignature = std::tuple<double, double, double, double, double>;

GpuSignature signature(const Gpu& g) {
  return {g.effective_flops(), g.effective_memory_bytes(), g.idle_w, g.active_w, g.price_per_hour};
}

struct PoolNodeView {
  int site_rank = 0;                   // order of its site's first appearance in the pool
  std::vector<GpuSignature> signature;  // of its GPUs, in file order
  std::vector<int> gpus;               // file order
};

// The pool's nodes in a canonical order: site order, then strongest GPUs
// first, then file order. Alike pools list alike nodes at the same places.
std::vector<PoolNodeView> canonical_nodes(const Problem& problem, const std::vector<int>& pool) {
  std::map<std::string, int> site_rank;
  std::map<std::string, std::size_t> index;
  std::vector<PoolNodeView> nodes;
  for (int g : pool) {
    const Gpu& gpu = problem.gpus[static_cast<std::size_t>(g)];
    const int rank = site_rank.emplace(gpu.site, static_cast<int>(site_rank.size())).first->second;
    const auto [it, fresh] = index.emplace(gpu.node_name(), nodes.size());
    if (fresh) nodes.push_back({rank, {}, {}});
    nodes[it->second].gpus.push_back(g);
    nodes[it->second].signature.push_back(signature(gpu));
  }
  std::stable_sort(nodes.begin(), nodes.end(), [](const PoolNodeView& a, const PoolNodeView& b) {
    if (a.site_rank != b.site_rank) return a.site_rank < b.site_rank;
    return a.signature > b.signature;
  });
  return nodes;
}

}  // namespace

namespace {

// The lead's plan moved node for node onto `pool`; `alike` says when two nodes match.
template <typename Alike>
std::optional<GroupPlan> carry_onto(const Problem& problem, const GroupPlan& lead, const std::vector<int>& lead_pool,
                                    const std::vector<int>& pool, Alike alike) {
  const auto from = canonical_nodes(problem, lead_pool), to = canonical_nodes(problem, pool);
  std::map<int, int> image;  // lead GPU -> GPU of `pool`
  for (std::size_t n = 0; n < from.size(); ++n) {
    if (n >= to.size() || from[n].site_rank != to[n].site_rank || !alike(from[n], to[n])) continue;
    for (std::size_t k = 0; k < from[n].gpus.size(); ++k) image[from[n].gpus[k]] = to[n].gpus[k];
  }
  GroupPlan carried = lead;
  for (GroupStage& s : carried)
    for (int& g : s.gpus) {
      const auto it = image.find(g);
      if (it == image.end()) return std::nullopt;
      g = it->second;
    }
  return carried;
}

}  // namespace

std::optional<GroupPlan> carry_plan(const Problem& problem, const GroupPlan& lead, const std::vector<int>& lead_pool,
                                    const std::vector<int>& pool) {
  return carry_onto(problem, lead, lead_pool, pool,
                    [](const PoolNodeView& a, const PoolNodeView& b) { return a.signature == b.signature; });
}

std::optional<GroupPlan> carry_shape(const Problem& problem, const GroupPlan& lead, const std::vector<int>& lead_pool,
                                     const std::vector<int>& pool) {
  return carry_onto(problem, lead, lead_pool, pool,
                    [](const PoolNodeView& a, const PoolNodeView& b) { return a.gpus.size() == b.gpus.size(); });
}

namespace {

// The template on one layout's devices, or nothing when some stage fits none.
// Returns the plan (over devices) and its slowest and summed stage times.
struct Fit {
  Plan plan;
  double max_tau = INFINITY, sum_tau = INFINITY;
};

Fit fit_on(const CostModel& model, const std::vector<int>& layers) {
  const int Q = static_cast<int>(layers.size()), D = model.num_gpus();
  Fit fit;
  if (D < Q) return fit;
  // A stage's load in layers (the head counted in layers of the first device's pace).
  const double head = model.head_compute_s(0) / model.layer_compute_s(0);
  std::vector<int> stages(static_cast<std::size_t>(Q)), devices(static_cast<std::size_t>(D));
  std::iota(stages.begin(), stages.end(), 0);
  std::iota(devices.begin(), devices.end(), 0);
  const auto load = [&](int q) { return layers[static_cast<std::size_t>(q)] + (q + 1 == Q ? head : 0.0); };
  std::stable_sort(stages.begin(), stages.end(), [&](int a, int b) { return load(a) > load(b); });
  const auto pace = [&](int d) { return model.layer_compute_s(d) + model.tensor_layer_s(d); };
  std::stable_sort(devices.begin(), devices.end(), [&](int a, int b) { return pace(a) < pace(b); });
  std::vector<bool> used(static_cast<std::size_t>(D), false);
  std::vector<int> device_of(static_cast<std::size_t>(Q), -1);
  for (int q : stages) {
    const bool last = q + 1 == Q;
    for (int d : devices) {
      if (used[static_cast<std::size_t>(d)]) continue;
      if (model.stage_memory_bytes(d, layers[static_cast<std::size_t>(q)], Q, last) > model.memory_limit_bytes(d)) continue;
      used[static_cast<std::size_t>(d)] = true;
      device_of[static_cast<std::size_t>(q)] = d;
      break;
    }
    if (device_of[static_cast<std::size_t>(q)] < 0) return fit;
  }
  for (int q = 0; q < Q; ++q) fit.plan.push_back(Stage{device_of[static_cast<std::size_t>(q)], layers[static_cast<std::size_t>(q)]});
  fit.max_tau = 0, fit.sum_tau = 0;
  for (int q = 0; q < Q; ++q) {
    const int d = fit.plan[static_cast<std::size_t>(q)].gpu, n = fit.plan[static_cast<std::size_t>(q)].layers;
    double tau = n * pace(d) + (q + 1 == Q ? model.head_compute_s(d) : 0.0);
    if (q + 1 < Q) tau += model.send_s(d, fit.plan[static_cast<std::size_t>(q + 1)].gpu);
    if (q > 0) tau += model.send_s(d, fit.plan[static_cast<std::size_t>(q - 1)].gpu);
    fit.max_tau = std::max(fit.max_tau, tau);
    fit.sum_tau += tau;
  }
  return fit;
}

}  // namespace

std::optional<GroupPlan> fit_template(const Problem& problem, const std::vector<int>& layers,
                                      const std::vector<int>& pool, bool groups, const LinkTable& links) {
  const SubPool sub = make_sub_pool(problem, pool, problem.model.micro_batches(), 1, 1, 1, 1);
  const std::vector<PoolNode> nodes = pool_nodes(sub.problem);
  std::vector<GroupLayout> layouts = {single_gpu_layout(static_cast<int>(sub.problem.gpus.size()))};
  if (groups)
    for (const GroupShape& shape : all_shapes(nodes))
      if (shape.size > 1) layouts.push_back(layout_of_choice(nodes, uniform_choice(nodes, shape)));
  // The sub-pool's links are the whole problem's, renumbered.
  const std::size_t n = sub.problem.gpus.size();
  std::vector<std::optional<ResolvedLink>> sub_links(n * n);
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b)
      if (a != b)
        sub_links[a * n + b] = links.resolved()[static_cast<std::size_t>(sub.to_full[a]) * static_cast<std::size_t>(links.num_gpus()) +
                                                static_cast<std::size_t>(sub.to_full[b])];
  std::optional<GroupPlan> best;
  Fit best_fit;
  for (const GroupLayout& layout : layouts) {
    const CostModel model(sub.problem, layout, sub_links);
    const Fit fit = fit_on(model, layers);
    if (fit.plan.empty()) continue;
    if (best && (fit.max_tau > best_fit.max_tau || (fit.max_tau == best_fit.max_tau && fit.sum_tau >= best_fit.sum_tau)))
      continue;
    best_fit = fit;
    best = to_full_plan(sub, to_group_plan(fit.plan, layout));
  }
  return best;
}

}  // namespace geotrain
