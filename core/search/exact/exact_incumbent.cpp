#include "search/exact/exact_incumbent.hpp"

#include <algorithm>

#include "search/baselines/baselines.hpp"

namespace geotrain {

namespace {

// GPUs by layer compute time ascending (fastest first), ties by index.
std::vector<int> fastest_first(const CostModel& model) {
  std::vector<int> order(model.num_gpus());
  for (int g = 0; g < model.num_gpus(); ++g) order[g] = g;
  std::stable_sort(order.begin(), order.end(),
                   [&model](int a, int b) { return model.layer_compute_s(a) < model.layer_compute_s(b); });
  return order;
}

// Plan with `last` as the last stage and `others` before it (fastest first),
// one layer each and the rest poured onto the fastest stages with room.
Plan fill_stages(const CostModel& model, const std::vector<int>& others, int last) {
  const int stage_count = static_cast<int>(others.size()) + 1;
  Plan plan;
  for (int g : others) plan.push_back({g, 1});
  plan.push_back({last, 1});
  std::vector<int> by_speed(stage_count);
  for (int q = 0; q < stage_count; ++q) by_speed[q] = q;
  std::stable_sort(by_speed.begin(), by_speed.end(), [&](int a, int b) {
    return model.layer_compute_s(plan[a].gpu) < model.layer_compute_s(plan[b].gpu);
  });
  int left = model.num_layers() - stage_count;
  for (int q : by_speed) {
    const int room = model.max_layers(plan[q].gpu, stage_count, q + 1 == stage_count) - plan[q].layers;
    const int add = std::min(room, left);
    plan[q].layers += add, left -= add;
  }
  return plan;
}

}  // namespace

bool is_plan_of(const CostModel& model, const Plan& plan) {
  const int n = model.num_gpus();
  if (plan.empty() || static_cast<int>(plan.size()) > n) return false;
  std::vector<char> seen(n, 0);
  long long layers = 0;
  for (const Stage& s : plan) {
    if (s.gpu < 0 || s.gpu >= n || seen[s.gpu] || s.layers < 1) return false;
    seen[s.gpu] = 1;
    layers += s.layers;
  }
  return layers == model.num_layers();
}

Plan memory_feasible_plan(const CostModel& model) {
  const int n = model.num_gpus(), L = model.num_layers();
  std::vector<int> by_memory(n);
  for (int g = 0; g < n; ++g) by_memory[g] = g;
  std::stable_sort(by_memory.begin(), by_memory.end(), [&model](int a, int b) {
    return model.memory_limit_bytes(a) > model.memory_limit_bytes(b);
  });
  for (int q = 1; q <= std::min(n, L); ++q) {
    // Any GPU may be last (capacity floors make the roomiest not always the
    // best one); the other q - 1 are then the roomiest of the rest.
    for (int last : by_memory) {
      long long capacity = model.max_layers(last, q, true);
      if (capacity < 1) continue;
      std::vector<int> others;
      for (int g : by_memory)
        if (g != last && static_cast<int>(others.size()) < q - 1 && model.max_layers(g, q, false) >= 1) {
          others.push_back(g);
          capacity += model.max_layers(g, q, false);
        }
      if (static_cast<int>(others.size()) == q - 1 && capacity >= L) return fill_stages(model, others, last);
    }
  }
  return {};
}

std::vector<Plan> greedy_plans(const CostModel& model) {
  const std::vector<int> order = fastest_first(model);
  std::vector<Plan> plans;
  const int most = std::min({model.num_gpus(), model.num_layers(), kGreedyMaxStages});
  for (int q = 1; q <= most; ++q) {
    std::vector<int> gpus;
    for (int g : order)
      if (static_cast<int>(gpus.size()) < q && model.max_layers(g, q, false) >= 1) gpus.push_back(g);
    if (static_cast<int>(gpus.size()) == q) plans.push_back(metis_plan(model, gpus));
  }
  return plans;
}

namespace {

// Calls visit(neighbour) for every plan one move away from `plan`, until a
// visit returns false.
template <typename Visit>
void for_each_neighbour(const CostModel& model, const Plan& plan, Plan& scratch, Visit visit) {
  const int q_count = static_cast<int>(plan.size()), n = model.num_gpus();
  std::vector<char> used(n, 0);
  for (const Stage& s : plan) used[s.gpu] = 1;
  for (int b = 0; b + 1 < q_count; ++b)
    for (int dir : {-1, 1}) {  // -1: a layer from stage b + 1 to b; +1: from b to b + 1
      scratch = plan;
      scratch[b].layers += dir < 0 ? 1 : -1;
      scratch[b + 1].layers += dir < 0 ? -1 : 1;
      if (scratch[b].layers >= 1 && scratch[b + 1].layers >= 1 && !visit(scratch)) return;
    }
  for (int q = 0; q < q_count; ++q)
    for (int g = 0; g < n; ++g) {
      if (used[g]) continue;
      scratch = plan;
      scratch[q].gpu = g;
      if (!visit(scratch)) return;
      if (plan[q].layers >= 2) {  // split q: its second half onto g
        scratch = plan;
        scratch[q].layers -= plan[q].layers / 2;
        scratch.insert(scratch.begin() + q + 1, Stage{g, plan[q].layers / 2});
        if (!visit(scratch)) return;
      }
    }
  for (int q1 = 0; q1 < q_count; ++q1)
    for (int q2 = q1 + 1; q2 < q_count; ++q2) {
      scratch = plan;
      std::swap(scratch[q1].gpu, scratch[q2].gpu);
      if (!visit(scratch)) return;
    }
  for (int q = 0; q < q_count && q_count > 1; ++q)
    for (int into : {q - 1, q + 1}) {
      if (into < 0 || into >= q_count) continue;
      scratch = plan;
      scratch[into].layers += plan[q].layers;
      scratch.erase(scratch.begin() + q);
      if (!visit(scratch)) return;
    }
}

}  // namespace

Plan improve_locally(const CostModel& model, Plan plan, std::int64_t& evaluations, std::int64_t max_evaluations,
                     const Deadline& deadline) {
  PlanCost cost = model.evaluate(plan);
  ++evaluations;
  if (!cost.feasible) return plan;
  Plan scratch, best_neighbour;
  bool out_of_time = false;
  for (std::int64_t spent = 1; spent < max_evaluations && !out_of_time;) {
    double best = cost.objective;
    for_each_neighbour(model, plan, scratch, [&](const Plan& candidate) {
      const PlanCost c = model.evaluate(candidate);
      ++evaluations, ++spent;
      if (c.feasible && c.objective < best) best = c.objective, best_neighbour = candidate;
      // The clock every 256 plans: well under a millisecond on any pool.
      if ((spent & 255) == 0 && deadline.passed()) out_of_time = true;
      return !out_of_time;
    });
    if (!(best < cost.objective)) break;
    plan = best_neighbour;
    cost = model.evaluate(plan);
  }
  return plan;
}

}  // namespace geotrain
