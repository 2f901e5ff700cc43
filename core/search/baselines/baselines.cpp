#include "search/baselines/baselines.hpp"

#include <algorithm>
#include <cmath>

#include "search/random.hpp"

namespace geotrain {

namespace {

double speed(const CostModel& model, int gpu) { return 1.0 / model.layer_compute_s(gpu); }

// Largest remainder apportionment of L layers by weight, at least one each.
// Validation keeps every speed finite and positive (derived_checks.hpp); should
// one not be, the split is even rather than a cast of NaN or infinity to int.
std::vector<int> proportional_split(const CostModel& model, const std::vector<int>& order) {
  const int q = static_cast<int>(order.size()), L = model.num_layers();
  double total = 0;
  for (int g : order) total += speed(model, g);
  const bool usable = total > 0 && total < INFINITY;
  std::vector<int> layers(q, 1);
  std::vector<double> remainder(q);
  int placed = q;
  for (int i = 0; i < q; ++i) {
    double share = usable ? (L - q) * speed(model, order[i]) / total : static_cast<double>(L - q) / q;
    if (!(share >= 0)) share = 0;  // NaN too
    share = std::min(share, static_cast<double>(L - q));
    const int whole = static_cast<int>(std::floor(share));
    layers[i] += whole, placed += whole;
    remainder[i] = share - whole;
  }
  // Rounding can lift the floors one above L - q in total: take it back from the largest.
  while (placed > L) {
    const auto most = std::max_element(layers.begin(), layers.end());
    --*most, --placed;
  }
  while (placed < L) {
    int best = 0;
    for (int i = 1; i < q; ++i)
      if (remainder[i] > remainder[best]) best = i;
    ++layers[best], ++placed;
    remainder[best] = -1;
  }
  return layers;
}

// Moves layers off stages above their memory capacity; returns false when the
// stages cannot hold L layers at all.
bool repair_memory(const CostModel& model, Plan& plan) {
  const int q = static_cast<int>(plan.size());
  std::vector<int> cap(q);
  long long total_cap = 0;
  for (int i = 0; i < q; ++i) total_cap += cap[i] = model.max_layers(plan[i].gpu, q, i + 1 == q);
  if (total_cap < model.num_layers()) return false;
  for (int i = 0; i < q; ++i) {
    while (plan[i].layers > std::max(cap[i], 1)) {
      int target = -1;
      double target_time = 0;
      for (int j = 0; j < q; ++j) {
        if (plan[j].layers >= cap[j]) continue;
        const double time = (plan[j].layers + 1) * model.layer_compute_s(plan[j].gpu);
        if (target < 0 || time < target_time) target = j, target_time = time;
      }
      --plan[i].layers, ++plan[target].layers;
    }
  }
  return true;
}

SolveResult finish(const CostModel& model, const char* method, Plan plan, std::int64_t evaluations) {
  SolveResult r;
  r.method = method;
  r.plan = std::move(plan);
  r.cost = model.evaluate(r.plan);
  r.evaluations = evaluations + 1;
  r.stop_reason = "complete";
  return r;
}

}  // namespace

Plan uniform_plan(const CostModel& model) {
  // At most the model's stage count limit (search.engine "torch": M).
  const int q = std::min({model.num_gpus(), model.num_layers(), model.most_stages()}), L = model.num_layers();
  Plan plan(q);
  for (int i = 0; i < q; ++i) plan[i] = Stage{i, L / q + (i < L % q ? 1 : 0)};
  return plan;
}

std::vector<int> metis_order(const CostModel& model, std::vector<int> gpus) {
  std::vector<int> order;
  if (gpus.empty()) return order;
  auto faster = [&](int a, int b) {
    const double sa = speed(model, a), sb = speed(model, b);
    return sa != sb ? sa > sb : a < b;
  };
  auto first = std::min_element(gpus.begin(), gpus.end(), faster);
  order.push_back(*first);
  gpus.erase(first);
  // Each candidate's round trip is computed once per step, and the chosen one
  // leaves by a swap with the last: the order is total (trip, speed, index),
  // so the candidates' positions never matter. O(size^2) with a small constant,
  // which metis-improved pays for ~1,000 subsets.
  while (!gpus.empty()) {
    const int last = order.back();
    std::size_t best = 0;
    double best_trip = model.send_s(last, gpus[0]) + model.send_s(gpus[0], last);
    for (std::size_t k = 1; k < gpus.size(); ++k) {
      const double trip = model.send_s(last, gpus[k]) + model.send_s(gpus[k], last);
      if (trip < best_trip || (trip == best_trip && faster(gpus[k], gpus[best]))) best = k, best_trip = trip;
    }
    order.push_back(gpus[best]);
    gpus[best] = gpus.back();
    gpus.pop_back();
  }
  return order;
}

Plan metis_plan(const CostModel& model, std::vector<int> gpus) {
  // The L fastest when there are more GPUs than layers.
  std::sort(gpus.begin(), gpus.end(), [&](int a, int b) {
    const double sa = speed(model, a), sb = speed(model, b);
    return sa != sb ? sa > sb : a < b;
  });
  const int most = std::min(model.num_layers(), model.most_stages());
  if (static_cast<int>(gpus.size()) > most) gpus.resize(static_cast<std::size_t>(most));
  // Drop GPUs that cannot hold one layer (the activation term grows with Q, so
  // re-check after each drop), but never the last one standing.
  for (bool dropped = true; dropped && gpus.size() > 1;) {
    dropped = false;
    const int q = static_cast<int>(gpus.size());
    auto weakest = std::min_element(gpus.begin(), gpus.end(), [&](int a, int b) {
      return model.memory_limit_bytes(a) < model.memory_limit_bytes(b);
    });
    if (model.max_layers(*weakest, q, false) < 1) gpus.erase(weakest), dropped = true;
  }
  const std::vector<int> order = metis_order(model, gpus);
  const std::vector<int> layers = proportional_split(model, order);
  Plan plan(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) plan[i] = Stage{order[i], layers[i]};
  repair_memory(model, plan);
  return plan;
}

SolveResult run_uniform(const CostModel& model) { return finish(model, "uniform", uniform_plan(model), 0); }

SolveResult run_metis(const CostModel& model) {
  std::vector<int> all(model.num_gpus());
  for (int g = 0; g < model.num_gpus(); ++g) all[g] = g;
  return finish(model, "metis", metis_plan(model, all), 0);
}

SolveResult run_metis_improved(const CostModel& model, std::uint64_t seed, const Deadline& deadline) {
  const int n = model.num_gpus();
  SolveResult best;
  bool found = false;  // a feasible plan
  bool out_of_time = false;
  std::int64_t evaluations = 0;
  auto consider = [&](const std::vector<int>& subset) {
    // One subset costs O(size^2) (metis_order): up to a millisecond at 512 GPUs.
    if (out_of_time || (found && deadline.passed())) return void(out_of_time = true);
    Plan plan = metis_plan(model, subset);
    const PlanCost cost = model.evaluate(plan);
    ++evaluations;
    // Feasible beats infeasible; then less iteration time; the first of equals stays.
    const bool better = best.plan.empty() || (cost.feasible && !found) ||
                        (cost.feasible == found && cost.iteration_s < best.cost.iteration_s);
    if (better) {
      best.plan = std::move(plan), best.cost = cost;
      found = found || cost.feasible;
    }
  };
  std::vector<int> subset;
  if (n <= kMetisExhaustiveMaxGpus) {
    for (unsigned mask = 1; mask < (1u << n); ++mask) {
      subset.clear();
      for (int g = 0; g < n; ++g)
        if (mask >> g & 1u) subset.push_back(g);
      consider(subset);
    }
  } else {
    std::vector<int> all(n);
    for (int g = 0; g < n; ++g) all[g] = g;
    consider(all);
    Rng rng(seed);
    const int max_size = std::min({n, model.num_layers(), model.most_stages()});
    for (int s = 0; s < kMetisSampledSubsets; ++s) {
      const int size = rng.uniform_int(1, max_size);
      std::vector<int> pool = all;
      // A partial Fisher-Yates draw of `size` distinct GPUs.
      for (int i = 0; i < size; ++i) std::swap(pool[i], pool[i + rng.below(n - i)]);
      subset.assign(pool.begin(), pool.begin() + size);
      std::sort(subset.begin(), subset.end());
      consider(subset);
    }
  }
  SolveResult result = finish(model, "metis-improved", best.plan, evaluations);
  if (out_of_time) result.stop_reason = "time_limit";
  return result;
}

}  // namespace geotrain
