// The moves at the scale of sites and stages (site_moves.hpp), the seeds from
// exact's first plans and the restarts' sweep (seeds.hpp): hand-worked
// cases, then properties over random pools.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "model/feasibility.hpp"
#include "search/bounds/bottleneck_bound.hpp"
#include "search/exact/exact_incumbent.hpp"
#include "search/memetic/population.hpp"
#include "search/memetic/seeds.hpp"
#include "search/memetic/site_moves.hpp"
#include "random_pool.hpp"
#include "test_support.hpp"

namespace geotrain {
namespace {

using testing::hand_pool;

double largest_tau(const CostModel& model, const Plan& plan) { return largest_tau_s(model, plan); }

TEST(BalanceLayers, HandWorkedTwoStages) {
  // hand_pool: on 100 TFLOPS a layer a = 0.773 ms and the head h = 0.063 ms;
  // on 200 TFLOPS half of each; one send s = 0.178 ms. Stages [g0, g1], L = 6:
  //   tau_0 = 0.773 n0 + 0.178,  tau_1 = 0.387 n1 + 0.178 + 0.032
  //   (1, 5): 0.951 / 2.143   (2, 4): 1.724 / 1.756   (3, 3): 2.497 / 1.371
  // The least largest tau is (2, 4)'s 1.756 ms.
  const Problem p = hand_pool({100, 200}, 6);
  const CostModel model(p);
  OperatorContext context(model);
  Plan plan{{0, 5}, {1, 1}};
  ASSERT_TRUE(balance_layers(plan.data(), 2, context));
  EXPECT_PLAN(plan, {0, 2}, {1, 4});
  EXPECT_NEAR(largest_tau(model, plan), 1.756e-3, 2e-6);
}

// Every split of L layers over the stages' devices (at least one each).
template <typename Visit>
void for_each_split(int layers, int stages, std::vector<int>& split, Visit visit) {
  if (stages == 1) {
    split.push_back(layers);
    visit(split);
    split.pop_back();
    return;
  }
  for (int n = 1; n <= layers - (stages - 1); ++n) {
    split.push_back(n);
    for_each_split(layers - n, stages - 1, split, visit);
    split.pop_back();
  }
}

TEST(BalanceLayers, LeastLargestStageTimeOfEverySplitThatFits) {
  int balanced_pools = 0;
  for (std::uint64_t seed = 1; seed <= 120; ++seed) {
    const Problem p = testing::random_pool(seed, testing::PoolShape{2, 4, 2, 10, true, -1});
    const CostModel model(p);
    OperatorContext context(model);
    const int n = model.num_gpus(), L = model.num_layers();
    for (int q = 1; q <= std::min(n, L); ++q) {
      Plan plan;
      for (int s = 0; s < q; ++s) plan.push_back({(s + static_cast<int>(seed)) % n, 1});
      plan.back().layers = L - (q - 1);
      // The brute-force least largest tau over splits within memory.
      double least = INFINITY;
      std::vector<int> split;
      for_each_split(L, q, split, [&](const std::vector<int>& s) {
        Plan candidate = plan;
        for (int k = 0; k < q; ++k) candidate[k].layers = s[k];
        if (model.evaluate(candidate).feasible) least = std::min(least, largest_tau(model, candidate));
      });
      Plan balanced = plan;
      const bool applied = balance_layers(balanced.data(), q, context);
      if (!(least < INFINITY)) {
        EXPECT_FALSE(applied && model.evaluate(balanced).feasible) << "pool " << seed << " q " << q;
        continue;
      }
      ASSERT_TRUE(applied) << "pool " << seed << " q " << q;
      ASSERT_TRUE(is_plan_of(model, balanced));
      EXPECT_TRUE(model.evaluate(balanced).feasible) << "pool " << seed << " q " << q;
      EXPECT_NEAR(largest_tau(model, balanced), least, 1e-9 * least) << "pool " << seed << " q " << q;
      ++balanced_pools;
    }
  }
  EXPECT_GT(balanced_pools, 200);
}

// Six GPUs on three sites: g0, g1 at A, g2, g3 at B, g4, g5 at C.
Problem three_site_pool(int layers) {
  Problem p = hand_pool({100, 150, 100, 120, 200, 100}, layers);
  const char* sites[] = {"A", "A", "B", "B", "C", "C"};
  for (int i = 0; i < 6; ++i) p.gpus[i].site = sites[i];
  p.network.inter_site = LinkSpec{10, 5, 1};
  return p;
}

std::vector<int> gpus_of(const Plan& plan) {
  std::vector<int> gpus;
  for (const Stage& s : plan) gpus.push_back(s.gpu);
  return gpus;
}

TEST(SiteMoves, ByHandOnThreeSites) {
  const Problem p = three_site_pool(12);
  const CostModel model(p);
  OperatorContext context(model);
  ASSERT_EQ(model.num_sites(), 3);
  // The sites in the order the GPUs name them.
  EXPECT_EQ(model.site_of(0), 0);
  EXPECT_EQ(model.site_of(3), 1);
  EXPECT_EQ(model.site_of(4), 2);
  // Site A in two runs, g0 (5 layers) and g1 (3): g1 joins g0's, the larger.
  Plan plan{{0, 5}, {2, 2}, {1, 3}, {4, 2}};
  ASSERT_TRUE(gather_site_at(plan.data(), 4, 0, context));
  EXPECT_EQ(gpus_of(plan), (std::vector<int>{0, 1, 2, 4}));
  // Site B in one run: nothing to gather.
  EXPECT_FALSE(gather_site_at(plan.data(), 4, 1, context));
  // Dropping B leaves A's and C's stages, in order, the layers balanced.
  int count = 4;
  ASSERT_TRUE(drop_site_at(plan.data(), count, 1, context));
  EXPECT_EQ(count, 3);
  plan.resize(3);
  EXPECT_EQ(gpus_of(plan), (std::vector<int>{0, 1, 4}));
  EXPECT_TRUE(is_plan_of(model, plan));
  // Adding B's two fastest (g3 at 120 TFLOPS, then g2) as one run.
  plan.resize(6);
  count = 3;
  ASSERT_TRUE(add_site_at(plan.data(), count, 1, 2, context));
  plan.resize(static_cast<std::size_t>(count));
  const std::vector<int> gpus = gpus_of(plan);
  const auto at = std::find(gpus.begin(), gpus.end(), 3);
  ASSERT_NE(at, gpus.end());
  ASSERT_NE(at + 1, gpus.end());
  EXPECT_EQ(*(at + 1), 2);
  EXPECT_TRUE(is_plan_of(model, plan));
  // A site the plan uses cannot be added, but it can grow: C has one GPU to
  // spare, g5.
  EXPECT_FALSE(add_site_at(plan.data(), count, 0, 1, context));
  {
    Plan grown = plan;
    grown.resize(8);
    int grown_count = count;
    EXPECT_FALSE(grow_site_at(grown.data(), grown_count, 2, 2, context));  // C has one to spare
    ASSERT_TRUE(grow_site_at(grown.data(), grown_count, 2, 1, context));
    grown.resize(static_cast<std::size_t>(grown_count));
    EXPECT_EQ(grown_count, count + 1);
    const std::vector<int> grown_gpus = gpus_of(grown);
    EXPECT_NE(std::find(grown_gpus.begin(), grown_gpus.end(), 5), grown_gpus.end());
    EXPECT_TRUE(is_plan_of(model, grown));
  }
  {
    // B's two stages handed to C, which has one GPU to spare: not enough;
    // to A, which has none: neither. One of them to C: g5 replaces B's.
    Plan moved = plan;
    moved.resize(8);
    int moved_count = count;
    EXPECT_FALSE(move_site_at(moved.data(), moved_count, 1, 2, 2, context));
    moved_count = count;
    moved = plan, moved.resize(8);
    ASSERT_TRUE(move_site_at(moved.data(), moved_count, 1, 2, 1, context));
    moved.resize(static_cast<std::size_t>(moved_count));
    std::vector<int> left = gpus_of(moved);
    std::sort(left.begin(), left.end());
    EXPECT_EQ(left, (std::vector<int>{0, 1, 4, 5}));
  }
  // Contracting by two drops the two slowest per layer (100 TFLOPS: g2 and
  // g0, the later of equals first).
  ASSERT_TRUE(contract_by(plan.data(), count, 2, context));
  plan.resize(static_cast<std::size_t>(count));
  std::vector<int> left = gpus_of(plan);
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<int>{1, 3, 4}));
}

// Runs of stages on one site, along the pipeline.
int site_runs(const CostModel& model, const Plan& plan) {
  int runs = 0;
  for (std::size_t q = 0; q < plan.size(); ++q)
    runs += q == 0 || model.site_of(plan[q].gpu) != model.site_of(plan[q - 1].gpu);
  return runs;
}

TEST(SiteMoves, KeepPlansWellFormedOnRandomPools) {
  int applied[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (std::uint64_t seed = 1; seed <= 150; ++seed) {
    const Problem p = testing::random_pool(seed, testing::PoolShape{4, 12, 4, 24, true, -1});
    const CostModel model(p);
    if (!any_feasible_plan(model)) continue;
    OperatorContext context(model);
    Rng rng(seed);
    const int n = model.num_gpus(), L = model.num_layers();
    std::vector<int> genes(static_cast<std::size_t>(L));
    for (int move = 0; move < 8; ++move) {
      for (int trial = 0; trial < 4; ++trial) {
        draw_uniform_plan(rng, context, genes.data());  // any plan: the moves need no feasibility
        const Plan start = decode_genes(genes);
        std::vector<Stage> stages(static_cast<std::size_t>(std::max(n, L) + 1));
        std::copy(start.begin(), start.end(), stages.begin());
        int count = static_cast<int>(start.size());
        const int before = count;
        bool ok = false;
        switch (move) {
          case 0: ok = balance_layers(stages.data(), count, context); break;
          case 1: ok = merge_neighbours(stages.data(), count, rng, context); break;
          case 2: ok = contract_stages(stages.data(), count, rng, context); break;
          case 3: ok = gather_site(stages.data(), count, rng, context); break;
          case 4: ok = drop_site(stages.data(), count, rng, context); break;
          case 5: ok = add_site(stages.data(), count, rng, context); break;
          case 6: ok = grow_site(stages.data(), count, rng, context); break;
          case 7: ok = move_site(stages.data(), count, rng, context); break;
        }
        if (!ok) continue;
        ++applied[move];
        const Plan moved(stages.begin(), stages.begin() + count);
        ASSERT_TRUE(is_plan_of(model, moved)) << "pool " << seed << " move " << move;
        if (move == 1) EXPECT_EQ(count, before - 1);
        if (move == 2) EXPECT_LT(count, before);
        if (move == 5 || move == 6) EXPECT_GT(count, before);
        if (move == 3) {  // one site fewer runs, the same stages
          EXPECT_EQ(count, before);
          EXPECT_LT(site_runs(model, moved), site_runs(model, start)) << "pool " << seed;
        }
      }
    }
  }
  for (int move = 0; move < 8; ++move) EXPECT_GT(applied[move], 20) << "move " << move;
}

TEST(Seeds, ExactFirstPlansFitAndEnterInOrder) {
  int offered = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const Problem p = testing::random_pool(seed, testing::PoolShape{4, 10, 4, 16, true, -1});
    const CostModel model(p);
    if (!any_feasible_plan(model)) continue;
    OperatorContext context(model);
    const std::vector<Chromosome> seeds = exact_seeds(context);
    ASSERT_FALSE(seeds.empty()) << "pool " << seed;  // the plan built to fit is always one
    EXPECT_EQ(context.evaluations() > 0, true);
    for (std::size_t k = 0; k < seeds.size(); ++k) {
      EXPECT_TRUE(seeds[k].cost.feasible);
      EXPECT_EQ(seeds[k].cost.objective, model.evaluate_genes(seeds[k].genes.data()).objective);
      if (k > 0) EXPECT_TRUE(fitter(seeds[k - 1], seeds[k])) << "sorted and distinct";
    }
    // A population of the worst seeds: the best ones take the worst places.
    std::vector<Chromosome> population(seeds.end() - std::min<std::ptrdiff_t>(2, seeds.size()), seeds.end());
    const int capacity = static_cast<int>(population.size());
    offered += offer_seeds(population, seeds, capacity);
    ASSERT_EQ(static_cast<int>(population.size()), capacity);
    EXPECT_EQ(population.front().genes, seeds.front().genes);
    EXPECT_TRUE(std::is_sorted(population.begin(), population.end(),
                               [](const Chromosome& a, const Chromosome& b) { return fitter(a, b); }));
  }
  EXPECT_GT(offered, 10);
}

TEST(Restarts, SweepGivesDistinctFittingNeighbours) {
  int found = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const Problem p = testing::random_pool(seed, testing::PoolShape{6, 12, 6, 20, true, -1});
    const CostModel model(p);
    if (!any_feasible_plan(model)) continue;
    OperatorContext context(model);
    const Plan start = memory_feasible_plan(model);
    Chromosome best{encode_plan(start), model.evaluate(start), start};
    const std::vector<Chromosome> around = sweep_around(best, context);
    for (std::size_t k = 0; k < around.size(); ++k) {
      EXPECT_TRUE(around[k].cost.feasible);
      EXPECT_NE(around[k].genes, best.genes);
      EXPECT_TRUE(is_contiguous(around[k].genes, model.num_gpus()));
      if (k > 0) EXPECT_TRUE(fitter(around[k - 1], around[k]));
    }
    found += static_cast<int>(around.size());
  }
  EXPECT_GT(found, 20);
}

}  // namespace
}  // namespace geotrain
