#include "search/memetic/seeds.hpp"

#include <algorithm>

#include "search/exact/exact_incumbent.hpp"
#include "search/memetic/site_moves.hpp"

namespace geotrain {

std::vector<Chromosome> exact_seeds(OperatorContext& context) {
  const CostModel& model = context.model();
  std::vector<Plan> plans = greedy_plans(model);
  if (Plan fits = memory_feasible_plan(model); !fits.empty()) plans.push_back(std::move(fits));
  std::vector<Chromosome> seeds;
  Stage* balanced = context.scratch().stages_a.data();
  auto offer = [&](const Stage* stages, int count) {
    const PlanCost cost = context.evaluate(stages, count);
    if (!cost.feasible) return;
    Chromosome c{{}, cost, {}};
    assign_stages(c, stages, count);
    seeds.push_back(std::move(c));
  };
  for (const Plan& plan : plans) {
    const int count = static_cast<int>(plan.size());
    offer(plan.data(), count);
    std::copy(plan.begin(), plan.end(), balanced);
    if (balance_layers(balanced, count, context)) offer(balanced, count);
  }
  std::sort(seeds.begin(), seeds.end(), [](const Chromosome& a, const Chromosome& b) { return fitter(a, b); });
  seeds.erase(std::unique(seeds.begin(), seeds.end(),
                          [](const Chromosome& a, const Chromosome& b) { return a.genes == b.genes; }),
              seeds.end());
  return seeds;
}

std::vector<Chromosome> sweep_around(Chromosome& best, OperatorContext& context) {
  const CostModel& model = context.model();
  const std::vector<Stage> start = stages_of(best);
  const int count = static_cast<int>(start.size());
  std::vector<Chromosome> found;
  std::vector<Stage> moved(static_cast<std::size_t>(std::max(model.num_layers(), model.num_gpus()) + 1));
  // One move on a fresh copy of the best plan's stages, costed when it applies.
  auto try_move = [&](auto move) {
    std::copy(start.begin(), start.end(), moved.begin());
    int moved_count = count;
    if (!move(moved.data(), moved_count)) return;
    const PlanCost cost = context.evaluate(moved.data(), moved_count);
    if (!cost.feasible) return;
    Chromosome c{{}, cost, {}};
    assign_stages(c, moved.data(), moved_count);
    if (c.genes != genes_of(best)) found.push_back(std::move(c));
  };
  try_move([&](Stage* s, int& n) { return balance_layers(s, n, context); });
  const int sites = std::min(model.num_sites(), kSweepSites);
  for (int site = 0; site < sites; ++site) {
    try_move([&](Stage* s, int& n) { return drop_site_at(s, n, site, context); });
    try_move([&](Stage* s, int& n) { return gather_site_at(s, n, site, context); });
    int last_k = 0;
    for (int k : {1, count / 4, count / 2}) {
      if (k <= last_k) continue;
      last_k = k;
      try_move([&](Stage* s, int& n) { return grow_site_at(s, n, site, k, context); });  // adds when unused
    }
    // The site's stages handed to each other site: as many, and half again.
    int on_site = 0;
    for (const Stage& st : start) on_site += model.site_of(st.gpu) == site;
    for (int to = 0; to < sites && on_site > 0; ++to) {
      if (to == site) continue;
      const int spare = static_cast<int>(context.site_devices()[static_cast<std::size_t>(to)].size());
      for (int k : {on_site, on_site + on_site / 2})
        if (k <= spare) try_move([&](Stage* s, int& n) { return move_site_at(s, n, site, to, k, context); });
    }
  }
  int last_k = 0;
  for (int k : {1, count / 8, count / 4, count / 2}) {
    if (k <= last_k) continue;
    last_k = k;
    try_move([&](Stage* s, int& n) { return contract_by(s, n, k, context); });
  }
  std::sort(found.begin(), found.end(), [](const Chromosome& a, const Chromosome& b) { return fitter(a, b); });
  found.erase(std::unique(found.begin(), found.end(),
                          [](const Chromosome& a, const Chromosome& b) { return a.genes == b.genes; }),
              found.end());
  return found;
}

int offer_seeds(std::vector<Chromosome>& population, const std::vector<Chromosome>& seeds, int capacity) {
  int entered = 0;
  for (const Chromosome& seed : seeds) {
    const bool present = std::any_of(population.begin(), population.end(),
                                     [&](const Chromosome& member) { return member.genes == seed.genes; });
    if (present) continue;
    const bool full = static_cast<int>(population.size()) >= capacity;
    if (full && !fitter(seed, population.back())) continue;
    if (full) population.pop_back();
    const auto at = std::upper_bound(population.begin(), population.end(), seed,
                                     [](const Chromosome& a, const Chromosome& b) { return fitter(a, b); });
    population.insert(at, seed);
    ++entered;
  }
  return entered;
}

}  // namespace geotrain
