// The memetic algorithm's encoding and its population side: decoding,
// contiguity, the initial population and its fallback, selection,
// deduplication and replacement.
#include "search/memetic/chromosome.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "model/feasibility.hpp"
#include "search/memetic/population.hpp"
#include "random_pool.hpp"
#include "test_support.hpp"

namespace geotrain {
namespace {

using testing::hand_pool;

// Six equal GPUs and 12 layers, each GPU holding exactly two layers in a
// 6-stage plan (the last also the LM head), so only Q = 6 with 2 layers per
// stage is feasible: 6! = 720 plans. In bytes (H = 1024, fp16, u = 1, T = 1024):
// a layer needs 48 H^2 * 2 = 100,663,296 plus (Q + 1) * 10 * 2 * T * H =
// (Q + 1) * 20,971,520; the head 4 H V * 2 + 2 * 2 * T * V = 12,288,000.
// At Q = 6: 2 * 247,463,936 + 12,288,000 = 507,215,872 bytes, the memory
// given. At Q = 5 a layer needs 226,492,416, so a GPU holds
// floor(507,215,872 / 226,492,416) = 2 and five GPUs hold 10 < 12 layers.
Problem six_pairs_pool() {
  Problem p = hand_pool(std::vector<double>(6, 100), 12);
  const CostModel probe(p);
  const double bytes = 2 * probe.layer_memory_bytes(6) + probe.head_memory_bytes();
  for (Gpu& g : p.gpus) g.memory_gib = bytes / 1073741824.0;
  return p;
}

testing::PoolShape small_shape() {
  testing::PoolShape shape;
  shape.min_gpus = 2, shape.max_gpus = 6, shape.min_layers = 2, shape.max_layers = 10;
  return shape;
}

std::vector<int> plan_genes(std::initializer_list<int> genes) { return genes; }

TEST(Chromosome, DecodesFigure3InOneScan) {
  // Fig. 3 (GPU ids from 0): [1,1,1,2,2,3,3,3] is n = (3, 2, 3) on GPUs 1, 2, 3.
  const std::vector<int> genes = plan_genes({0, 0, 0, 1, 1, 2, 2, 2});
  const Plan plan = decode_genes(genes);
  ASSERT_EQ(plan.size(), 3u);
  EXPECT_EQ(plan[0].gpu, 0);
  EXPECT_EQ(plan[0].layers, 3);
  EXPECT_EQ(plan[1].gpu, 1);
  EXPECT_EQ(plan[1].layers, 2);
  EXPECT_EQ(plan[2].gpu, 2);
  EXPECT_EQ(plan[2].layers, 3);
  EXPECT_EQ(encode_plan(plan), genes);
  // Boundaries b1 = 3 and b2 = 5: where a layer's GPU differs from the one before.
  int boundaries[8];
  ASSERT_EQ(stage_boundaries(genes.data(), 8, boundaries), 2);
  EXPECT_EQ(boundaries[0], 3);
  EXPECT_EQ(boundaries[1], 5);
  EXPECT_EQ(stage_count(genes.data(), 8), 3);
}

TEST(Chromosome, ContiguityMeansOneRunPerGpu) {
  EXPECT_TRUE(is_contiguous(plan_genes({2, 2, 0, 1, 1}), 3));
  EXPECT_TRUE(is_contiguous(plan_genes({1, 1, 1}), 3));
  EXPECT_FALSE(is_contiguous(plan_genes({0, 1, 0}), 3));         // GPU 0 in two runs
  EXPECT_FALSE(is_contiguous(plan_genes({0, 0, 1, 2, 2, 1}), 3));  // GPU 1 in two runs
  EXPECT_FALSE(is_contiguous(plan_genes({0, 3}), 3));             // GPU 3 does not exist
  // The reusable check gives the same answers however often it is called.
  ContiguityCheck check(3);
  const std::vector<int> good = plan_genes({2, 2, 0, 1, 1}), bad = plan_genes({0, 1, 0});
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(check(good.data(), 5));
    ASSERT_FALSE(check(bad.data(), 3));
  }
}

TEST(Chromosome, ValidityAlsoNeedsMemory) {
  const Problem p = six_pairs_pool();
  const CostModel model(p);
  EXPECT_TRUE(is_valid(model, plan_genes({0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5})));
  EXPECT_FALSE(is_valid(model, plan_genes({0, 0, 0, 1, 2, 2, 3, 3, 4, 4, 5, 5})));  // three layers on GPU 0
  EXPECT_FALSE(is_valid(model, plan_genes({0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 0, 0})));  // GPU 0 twice
  EXPECT_FALSE(is_valid(model, plan_genes({0, 0, 1})));                             // wrong length
}

TEST(Chromosome, FitterIsTotalWithGenesBreakingTies) {
  Chromosome a{{0, 1}, {}}, b{{1, 0}, {}}, c{{0, 0}, {}};
  a.cost.objective = b.cost.objective = 2.0;
  c.cost.objective = 3.0;
  EXPECT_TRUE(fitter(a, b));  // equal objectives: [0,1] < [1,0]
  EXPECT_FALSE(fitter(b, a));
  EXPECT_TRUE(fitter(b, c));  // lower objective first, whatever the genes
  EXPECT_FALSE(fitter(a, a));
}

TEST(Chromosome, ContextCountsEveryEvaluation) {
  const Problem p = hand_pool({100, 200}, 4);
  const CostModel model(p);
  OperatorContext context(model);
  const std::vector<int> genes = plan_genes({0, 0, 1, 1});
  for (int i = 0; i < 7; ++i) context.evaluate(genes.data());
  EXPECT_EQ(context.evaluations(), 7);
  EXPECT_EQ(context.evaluate(genes.data()).objective, model.evaluate_genes(genes.data()).objective);
}

TEST(Population, InitialPopulationIsDistinctValidAndSorted) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const Problem p = testing::random_pool(seed, small_shape());
    const CostModel model(p);
    if (!any_feasible_plan(model)) continue;
    OperatorContext context(model);
    Rng rng(seed);
    const std::vector<Chromosome> population = initial_population(50, rng, context);
    ASSERT_FALSE(population.empty());
    std::set<std::vector<int>> distinct;
    for (std::size_t i = 0; i < population.size(); ++i) {
      const Chromosome& c = population[i];
      ASSERT_TRUE(is_valid(model, c.genes)) << "pool " << seed;
      EXPECT_EQ(c.cost.objective, model.evaluate_genes(c.genes.data()).objective);
      if (i > 0) {
        EXPECT_TRUE(fitter(population[i - 1], c)) << "pool " << seed << " not sorted at " << i;
      }
      distinct.insert(c.genes);
    }
    EXPECT_EQ(distinct.size(), population.size());
  }
}

TEST(Population, SmallPlanSpaceGivesASmallerPopulation) {
  // N = 2, L = 2: f = C(1,0) P(2,1) + C(1,1) P(2,2) = 2 + 2 = 4 plans, all
  // fitting in 80 GiB: [0,0], [1,1], [0,1], [1,0]. Each is evaluated once.
  const Problem p = hand_pool({100, 200}, 2);
  const CostModel model(p);
  OperatorContext context(model);
  Rng rng(3);
  const std::vector<Chromosome> population = initial_population(200, rng, context);
  ASSERT_EQ(population.size(), 4u);
  EXPECT_EQ(context.evaluations(), 4);
}

TEST(Population, RareFeasiblePlansFallBackToTheCapacitySampler) {
  const Problem p = six_pairs_pool();
  const CostModel model(p);
  ASSERT_EQ(max_layers_with_stages(model, 6), 12);
  ASSERT_EQ(max_layers_with_stages(model, 5), 10);
  const CapacityPlanSampler sampler(model);
  EXPECT_EQ(sampler.stage_counts(), std::vector<int>{6});

  // The paper's sampler succeeds once in 6 * C(11, 5) = 2772 draws; its 4000
  // draws give a handful, the fallback the rest of the 200.
  OperatorContext context(model);
  Rng rng(11);
  const std::vector<Chromosome> population = initial_population(200, rng, context);
  ASSERT_EQ(population.size(), 200u);
  for (const Chromosome& c : population) {
    ASSERT_TRUE(is_valid(model, c.genes));
    for (const Stage& s : decode_genes(c.genes)) EXPECT_EQ(s.layers, 2);
  }
}

TEST(Population, CapacitySamplerKnowsTheFeasibleStageCountsAndDrawsOnlyFeasiblePlans) {
  int pools = 0;
  for (std::uint64_t seed = 100; seed < 400; ++seed) {
    testing::PoolShape shape = small_shape();
    shape.max_gpus = 8, shape.max_layers = 16;
    const Problem p = testing::random_pool(seed, shape);
    const CostModel model(p);
    std::vector<int> expected;
    for (int q = 1; q <= std::min(model.num_gpus(), model.num_layers()); ++q)
      if (max_layers_with_stages(model, q) >= model.num_layers()) expected.push_back(q);
    CapacityPlanSampler sampler(model);
    ASSERT_EQ(sampler.stage_counts(), expected) << "pool " << seed;
    if (expected.empty()) continue;
    ++pools;
    Rng rng(seed);
    std::vector<int> genes(static_cast<std::size_t>(model.num_layers()));
    for (int draw = 0; draw < 20; ++draw) {
      ASSERT_TRUE(sampler.draw(rng, genes.data()));
      ASSERT_TRUE(is_valid(model, genes)) << "pool " << seed << " draw " << draw;
    }
  }
  EXPECT_GT(pools, 200);
}

TEST(Population, UniformDrawsAreAlwaysContiguous) {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    const Problem p = testing::random_pool(seed, small_shape());
    const CostModel model(p);
    OperatorContext context(model);
    Rng rng(seed);
    std::vector<int> genes(static_cast<std::size_t>(model.num_layers()));
    for (int draw = 0; draw < 20; ++draw) {
      draw_uniform_plan(rng, context, genes.data());
      ASSERT_TRUE(is_contiguous(genes, model.num_gpus()));
      ASSERT_LE(stage_count(genes.data(), model.num_layers()), std::min(model.num_gpus(), model.num_layers()));
    }
  }
}

TEST(Population, TournamentPicksTheFittestOfItsDraws) {
  // In a sorted population the fittest is the lowest index. With a
  // tournament as large as the population most picks are 0 or 1; with a
  // tournament of one, the picks spread over all places.
  Rng rng(5);
  std::vector<int> parents;
  tournament_select(10, 1000, 10, rng, parents);
  ASSERT_EQ(parents.size(), 1000u);
  // P(winner >= 3) = (7/10)^10 = 2.8%, so about 28 of 1000; 100 would be far out.
  EXPECT_LT(std::count_if(parents.begin(), parents.end(), [](int p) { return p >= 3; }), 100);
  tournament_select(10, 1000, 1, rng, parents);
  EXPECT_GT(std::count(parents.begin(), parents.end(), 9), 50);  // about 100 expected
}

Chromosome scored(std::vector<int> genes, double objective) {
  Chromosome c{std::move(genes), {}};
  c.cost.objective = objective;
  c.cost.feasible = true;
  return c;
}

TEST(Population, DeduplicationDropsRepeatsAndIncumbents) {
  const std::vector<Chromosome> population = {scored({0, 0}, 1.0), scored({1, 1}, 2.0)};
  std::vector<Chromosome> offspring = {scored({1, 0}, 1.5), scored({1, 1}, 2.0), scored({1, 0}, 1.5),
                                       scored({0, 1}, 0.5)};
  // [1,1] is in the population, [1,0] comes twice: [0,1] (0.5) and [1,0] (1.5) stay, sorted.
  ASSERT_EQ(deduplicate(offspring, 4, population), 2);
  EXPECT_EQ(offspring[0].genes, plan_genes({0, 1}));
  EXPECT_EQ(offspring[1].genes, plan_genes({1, 0}));
}

TEST(Population, ReplacementKeepsTheEliteAndTheFittestOfTheRest) {
  // Capacity 4, elite 2. Incumbents 1, 2, 3, 4; offspring 0.5, 2.5, 5.
  // Elites 1 and 2 stay; the other two places go to the fittest of
  // {3, 4, 0.5, 2.5, 5}: 0.5 and 2.5. The result is sorted: 0.5, 1, 2, 2.5.
  std::vector<Chromosome> population = {scored({0}, 1), scored({1}, 2), scored({2}, 3), scored({3}, 4)};
  std::vector<Chromosome> offspring = {scored({4}, 0.5), scored({5}, 2.5), scored({6}, 5)};
  std::vector<Chromosome> spare;
  steady_state_replace(population, offspring, 3, 2, 4, spare);
  ASSERT_EQ(population.size(), 4u);
  const double expected[] = {0.5, 1, 2, 2.5};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(population[i].cost.objective, expected[i]);

  // Elite 1 and four better offspring: the elite survives although four
  // offspring beat it; the three other places go to the best three offspring.
  population = {scored({0}, 1), scored({1}, 2), scored({2}, 3), scored({3}, 4)};
  offspring = {scored({4}, 0.1), scored({5}, 0.2), scored({6}, 0.3), scored({7}, 0.4)};
  steady_state_replace(population, offspring, 4, 1, 4, spare);
  const double with_elite[] = {0.1, 0.2, 0.3, 1};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(population[i].cost.objective, with_elite[i]);

  // A population below capacity (a small plan space) grows into free places.
  population = {scored({0}, 1)};
  offspring = {scored({1}, 3), scored({2}, 4)};
  steady_state_replace(population, offspring, 2, 1, 200, spare);
  ASSERT_EQ(population.size(), 3u);
  EXPECT_EQ(population[2].cost.objective, 4);
}

}  // namespace
}  // namespace geotrain
