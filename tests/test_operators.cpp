// The genetic operators: best-cut crossover (Alg. 2), the three mutations
// (Alg. 3) with the split and merge added to them (MEMETIC.md) and
// capacity-rebalancing local search (Alg. 4). Hand-built cases
// with the reasoning written out, then properties over random pools.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "search/memetic/boundary_crossover.hpp"
#include "search/memetic/chromosome.hpp"
#include "model/feasibility.hpp"
#include "search/memetic/local_search.hpp"
#include "search/memetic/mutation.hpp"
#include "search/memetic/population.hpp"
#include "random_pool.hpp"
#include "test_support.hpp"

namespace geotrain {
namespace {

using testing::hand_pool;

Chromosome evaluated(const CostModel& model, std::vector<int> genes) {
  Chromosome c{std::move(genes), {}};
  c.cost = model.evaluate_genes(c.genes.data());
  return c;
}

std::vector<int> prefix_suffix(const std::vector<int>& prefix, const std::vector<int>& suffix, int cut) {
  std::vector<int> child(prefix.begin(), prefix.begin() + cut);
  child.insert(child.end(), suffix.begin() + cut, suffix.end());
  return child;
}

TEST(BoundaryCrossover, PicksTheFittestBoundaryCutInEachDirection) {
  // Four equal GPUs, L = 6. P1 = [0,0,1,1,2,2] has boundaries {2, 4}; P2 is
  // all GPU 3, with none. Candidates: cuts 2 and 4.
  //   c1(2) = [0,0,3,3,3,3]: stages (2, 4)     c1(4) = [0,0,1,1,3,3]: (2, 2, 2)
  //   c2(2) = [3,3,1,1,2,2]: (2, 2, 2)         c2(4) = [3,3,3,3,2,2]: (4, 2)
  // With T = sum tau + (M - 1) max tau, M = 8, and h < s < a:
  //   (2, 4):    sum 6a + h + 2s, max 4a + h + s  (or 4a + s for (4, 2))
  //   (2, 2, 2): sum 6a + h + 4s, max 2a + 2s     (the middle stage; h < s)
  // (2, 4) - (2, 2, 2) >= -2s + 7 (2a - s) = 14a - 9s > 0, so the balanced
  // three-stage child wins both ways: c1 at cut 4, c2 at cut 2.
  const Problem p = hand_pool({100, 100, 100, 100}, 6);
  const CostModel model(p);
  OperatorContext context(model);
  const Chromosome p1 = evaluated(model, {0, 0, 1, 1, 2, 2}), p2 = evaluated(model, {3, 3, 3, 3, 3, 3});
  Rng rng(1);
  Chromosome children[2];
  ASSERT_EQ(boundary_crossover(p1, p2, 0.0, rng, context, children), 2);
  EXPECT_EQ(genes_of(children[0]), (std::vector<int>{0, 0, 1, 1, 3, 3}));
  EXPECT_EQ(genes_of(children[1]), (std::vector<int>{3, 3, 1, 1, 2, 2}));
  EXPECT_EQ(context.evaluations(), 4);  // two cuts, two directions, all valid

  // The same ranking, from the cost model itself.
  for (int cut : {2, 4}) {
    EXPECT_LE(children[0].cost.objective, evaluated(model, prefix_suffix(p1.genes, p2.genes, cut)).cost.objective);
    EXPECT_LE(children[1].cost.objective, evaluated(model, prefix_suffix(p2.genes, p1.genes, cut)).cost.objective);
  }
  EXPECT_EQ(children[0].cost.objective, model.evaluate_genes(genes_of(children[0]).data()).objective);
}

TEST(BoundaryCrossover, FullScanFallbackReachesCutsInsideStages) {
  // Two equal GPUs, both parents single-stage: no boundaries, so without the
  // fallback there is no candidate and no child. With p_fall = 1 every cut
  // 1..5 is tried: [0]*b + [1]*(6-b) has tau = (b a + s, (6-b) a + h + s),
  // a fixed sum and max(b, 6 - b + h/a) a + s, least at b = 3 since h < a.
  const Problem p = hand_pool({100, 100}, 6);
  const CostModel model(p);
  OperatorContext context(model);
  const Chromosome p1 = evaluated(model, {0, 0, 0, 0, 0, 0}), p2 = evaluated(model, {1, 1, 1, 1, 1, 1});
  Rng rng(1);
  Chromosome children[2];
  EXPECT_EQ(boundary_crossover(p1, p2, 0.0, rng, context, children), 0);
  EXPECT_EQ(context.evaluations(), 0);
  ASSERT_EQ(boundary_crossover(p1, p2, 1.0, rng, context, children), 2);
  EXPECT_EQ(genes_of(children[0]), (std::vector<int>{0, 0, 0, 1, 1, 1}));
  EXPECT_EQ(genes_of(children[1]), (std::vector<int>{1, 1, 1, 0, 0, 0}));
  EXPECT_EQ(context.evaluations(), 10);
}

TEST(BoundaryCrossover, SkipsCutsThatReuseAGpu) {
  // P1 = [0,0,1,1,2,2], P2 = [2,2,0,0,1,1]; cuts {2, 4}.
  //   c1(2) = [0,0,0,0,1,1] and c1(4) = [0,0,1,1,1,1] are valid;
  //   c2(2) = [2,2,1,1,2,2] and c2(4) = [2,2,0,0,2,2] put GPU 2 in two runs.
  // So one child, from the P1-prefix direction, and only two evaluations.
  const Problem p = hand_pool({100, 100, 100}, 6);
  const CostModel model(p);
  OperatorContext context(model);
  const Chromosome p1 = evaluated(model, {0, 0, 1, 1, 2, 2}), p2 = evaluated(model, {2, 2, 0, 0, 1, 1});
  Rng rng(1);
  Chromosome children[2];
  ASSERT_EQ(boundary_crossover(p1, p2, 0.0, rng, context, children), 1);
  EXPECT_EQ(context.evaluations(), 2);
  // (4 on GPU 0, 2 on GPU 1) versus (2, 4): equal GPUs, but the head sits on
  // the last stage, so (2, 4) has the larger max; c1(2) = (4, 2) wins.
  EXPECT_EQ(genes_of(children[0]), (std::vector<int>{0, 0, 0, 0, 1, 1}));
}

TEST(BoundaryCrossover, SkipsCutsThatDoNotFitInMemory) {
  // GPU 1 holds at most two layers in a two-stage plan, first or last.
  // P1 = all GPU 0, P2 = all GPU 1, full scan over cuts 1..5:
  //   c1(b) = [0]*b + [1]*(6-b) gives GPU 1 6 - b layers: valid for b = 4, 5;
  //   c2(b) = [1]*b + [0]*(6-b) gives it b layers: valid for b = 1, 2.
  // Both sums are 6a + h + 2s; the maxima decide: c1(4) = (4, 2) has 4a + s,
  // c1(5) 5a + s; c2(2) = (2, 4) has 4a + h + s, c2(1) 5a + h + s.
  Problem p = hand_pool({100, 100}, 6);
  CostModel probe(p);
  const double two_layers = 2 * probe.layer_memory_bytes(2) + probe.head_memory_bytes();
  p.gpus[1].memory_gib = two_layers / 1073741824.0;
  const CostModel model(p);
  ASSERT_EQ(model.max_layers(1, 2, true), 2);
  ASSERT_GE(model.max_layers(1, 2, false), 2);
  ASSERT_LT(model.max_layers(1, 2, false), 3);
  OperatorContext context(model);
  const Chromosome p1 = evaluated(model, {0, 0, 0, 0, 0, 0});
  Chromosome p2{{1, 1, 1, 1, 1, 1}, {}};
  p2.cost = model.evaluate_genes(p2.genes.data());  // infeasible, but only the cuts matter here
  Rng rng(1);
  Chromosome children[2];
  ASSERT_EQ(boundary_crossover(p1, p2, 1.0, rng, context, children), 2);
  EXPECT_EQ(context.evaluations(), 10);  // all ten children are contiguous, so all are evaluated
  for (Chromosome& child : children) EXPECT_TRUE(is_valid(model, genes_of(child)));
  EXPECT_EQ(genes_of(children[0]), (std::vector<int>{0, 0, 0, 0, 1, 1}));
  EXPECT_EQ(genes_of(children[1]), (std::vector<int>{1, 1, 0, 0, 0, 0}));
}

TEST(Mutation, BoundaryShiftMovesTheLeftStagesLastLayerRight) {
  // Fig. 5a: [1,1,1,2,2,2] -> [1,1,2,2,2,2] (one boundary, so no choice).
  const Problem p = hand_pool({100, 100, 100, 100}, 6);
  const CostModel model(p);
  OperatorContext context(model);
  Rng rng(1);
  std::vector<int> genes = {0, 0, 0, 1, 1, 1};
  ASSERT_TRUE(shift_boundary(genes.data(), rng, context));
  EXPECT_EQ(genes, (std::vector<int>{0, 0, 1, 1, 1, 1}));
  std::vector<int> single = {2, 2, 2, 2, 2, 2};
  EXPECT_FALSE(shift_boundary(single.data(), rng, context));
  EXPECT_FALSE(swap_stages(single.data(), rng, context));
}

TEST(Mutation, BoundaryShiftBothWaysAlsoMovesTheRightStagesFirstLayerLeft) {
  // [0,0,0 | 1,1,1] has one boundary (b = 3). The paper's move gives
  // [0,0,1,1,1,1]; the other direction gives [0,0,0,0,1,1]. With both_ways a
  // fair coin picks, so in 200 draws each appears (about 100 times each);
  // without it only the first ever does.
  const Problem p = hand_pool({100, 100}, 6);
  const CostModel model(p);
  OperatorContext context(model);
  const std::vector<int> paper = {0, 0, 1, 1, 1, 1}, other = {0, 0, 0, 0, 1, 1};
  int paper_count = 0, other_count = 0;
  Rng rng(11);
  for (int draw = 0; draw < 200; ++draw) {
    std::vector<int> genes = {0, 0, 0, 1, 1, 1};
    ASSERT_TRUE(shift_boundary(genes.data(), rng, context, true));
    paper_count += genes == paper;
    other_count += genes == other;
  }
  EXPECT_EQ(paper_count + other_count, 200);
  EXPECT_GT(paper_count, 60);
  EXPECT_GT(other_count, 60);
  for (int draw = 0; draw < 50; ++draw) {
    std::vector<int> genes = {0, 0, 0, 1, 1, 1};
    ASSERT_TRUE(shift_boundary(genes.data(), rng, context, false));
    EXPECT_EQ(genes, paper);
  }
  // A one-layer stage shifted away disappears, as in the paper's direction.
  std::vector<int> genes = {0, 1, 1, 1, 1, 1};
  for (int draw = 0; draw < 20; ++draw) {
    std::vector<int> g = genes;
    shift_boundary(g.data(), rng, context, true);
    EXPECT_TRUE(g == (std::vector<int>{1, 1, 1, 1, 1, 1}) || g == (std::vector<int>{0, 0, 1, 1, 1, 1}));
  }
}

TEST(Mutation, StageSwapMovesWholeBlocksWithTheirLengths) {
  // Alg. 3 line 8 on [0 | 1,1 | 2,2,2]; each of the three pairs may come:
  //   (1,2): [1,1,0,2,2,2]  (1,3): [2,2,2,1,1,0]  (2,3): [0,2,2,2,1,1]
  const Problem p = hand_pool({100, 100, 100, 100}, 6);
  const CostModel model(p);
  OperatorContext context(model);
  const std::vector<std::vector<int>> outcomes = {{1, 1, 0, 2, 2, 2}, {2, 2, 2, 1, 1, 0}, {0, 2, 2, 2, 1, 1}};
  std::vector<int> seen(3, 0);
  Rng rng(7);
  for (int draw = 0; draw < 300; ++draw) {
    std::vector<int> genes = {0, 1, 1, 2, 2, 2};
    ASSERT_TRUE(swap_stages(genes.data(), rng, context));
    const auto at = std::find(outcomes.begin(), outcomes.end(), genes);
    ASSERT_NE(at, outcomes.end());
    ++seen[at - outcomes.begin()];
  }
  for (int count : seen) EXPECT_GT(count, 50);  // each pair 1/3 of 300
}

TEST(Mutation, GpuReassignmentUsesOnlyUnusedGpus) {
  // Fig. 5c: [1,1,2,2,3,3] with GPU 4 unused: one stage moves to GPU 4.
  const Problem p = hand_pool({100, 100, 100, 100}, 6);
  const CostModel model(p);
  OperatorContext context(model);
  Rng rng(3);
  for (int draw = 0; draw < 50; ++draw) {
    std::vector<int> genes = {0, 0, 1, 1, 2, 2};
    ASSERT_TRUE(reassign_gpu(genes.data(), rng, context));
    EXPECT_EQ(std::count(genes.begin(), genes.end(), 3), 2);
    EXPECT_TRUE(is_contiguous(genes, 4));
  }
  std::vector<int> all_active = {0, 1, 2, 3, 3, 3};
  EXPECT_FALSE(reassign_gpu(all_active.data(), rng, context));  // the operator is a no-op
}

TEST(Mutation, SplitPutsHalfOfTheStageOnTheCheapestUnusedGpuNextToIt) {
  // [0,0,0,0,1,1] on four equal GPUs over one uniform network: splitting
  // stage 0 (4 layers) onto an unused GPU (2 or 3, equal scores: one of the
  // kSplitCandidates drawn) gives it the second half, 4 * 1/2 = 2 layers.
  const Problem p = hand_pool({100, 100, 100, 100}, 6);
  const CostModel model(p);
  OperatorContext context(model);
  Rng rng(5);
  for (int draw = 0; draw < 20; ++draw) {
    std::vector<int> genes = {0, 0, 0, 0, 1, 1};
    ASSERT_TRUE(split_stage(genes.data(), 0, rng, context));
    EXPECT_EQ(genes[0], 0);
    EXPECT_EQ(genes[1], 0);
    EXPECT_TRUE(genes[2] == 2 || genes[2] == 3);
    EXPECT_EQ(genes[3], genes[2]);
    EXPECT_EQ(genes[4], 1);
  }
  std::vector<int> one_layer = {0, 1, 1, 1, 1, 1};
  EXPECT_FALSE(split_stage(one_layer.data(), 0, rng, context));  // a one-layer stage cannot split
  std::vector<int> merged = {0, 0, 1, 1, 2, 2};
  ASSERT_TRUE(merge_stage(merged.data(), rng, context));
  EXPECT_EQ(stage_count(merged.data(), 6), 2);
}

TEST(Mutation, RevertsWhenTheMutantDoesNotFit) {
  // GPU 1 holds at most two layers; [0,0,0,0,1,1] shifted would give it three.
  Problem p = hand_pool({100, 100}, 6);
  CostModel probe(p);
  p.gpus[1].memory_gib = (2 * probe.layer_memory_bytes(2) + probe.head_memory_bytes()) / 1073741824.0;
  const CostModel model(p);
  OperatorContext context(model);
  Rng rng(1);
  Chromosome child = evaluated(model, {0, 0, 0, 0, 1, 1});
  ASSERT_TRUE(child.cost.feasible);
  EXPECT_FALSE(mutate(child, MutationKind::boundary_shift, rng, context));
  EXPECT_EQ(child.genes, (std::vector<int>{0, 0, 0, 0, 1, 1}));
  EXPECT_EQ(context.evaluations(), 1);
  // A swap puts GPU 1 first with its two layers and GPU 0 last: it fits.
  EXPECT_TRUE(mutate(child, MutationKind::stage_swap, rng, context));
  EXPECT_EQ(child.genes, (std::vector<int>{1, 1, 0, 0, 0, 0}));
  EXPECT_EQ(child.cost.objective, model.evaluate_genes(child.genes.data()).objective);
}

TEST(LocalSearch, ReproducesFigure6) {
  // L = 6, GPU 2 twice as fast as GPU 1 (ids 0 and 1 here). Loads n/F in
  // units of 1/F1: [4 on GPU 1, 2 on GPU 2] is (4, 1). Worst = stage 1,
  // best = stage 2, F_best > F_worst. Delta = min(capacity, 4 - 1) = 3; the
  // loop: i = 1: (2+1)/2 = 1.5 < 3; i = 2: (2+2)/2 = 2 >= 4-2 = 2, so Delta = 2
  // (Delta - 1 = 1 would leave max(3, 1.5) = 3 > 2). Loads become (2, 2).
  // The next step would move one layer: max(1, 2.5) = 2.5, not below 2: stop.
  const Problem p = hand_pool({100, 200}, 6);
  const CostModel model(p);
  int gpu[2] = {0, 1}, layers[2] = {4, 2}, capacity[2];
  EXPECT_EQ(rebalance_layers(model, gpu, layers, 2, capacity), 1);
  EXPECT_EQ(layers[0], 2);
  EXPECT_EQ(layers[1], 4);

  OperatorContext context(model);
  Chromosome child = evaluated(model, {0, 0, 0, 0, 1, 1});
  const double before = child.cost.objective;
  ASSERT_TRUE(rebalance_capacity(child, context));
  EXPECT_EQ(child.genes, (std::vector<int>{0, 0, 1, 1, 1, 1}));
  EXPECT_LT(child.cost.objective, before);
  EXPECT_EQ(context.evaluations(), 1);
  // Converged: a second pass changes nothing and evaluates nothing.
  EXPECT_FALSE(rebalance_capacity(child, context));
  EXPECT_EQ(context.evaluations(), 1);
}

TEST(LocalSearch, MovesLayersOnlyToAStrictlyFasterGpu) {
  // Equal GPUs: loads (4, 2) but F_best = F_worst, so line 6 stops at once.
  const Problem p = hand_pool({100, 100}, 6);
  const CostModel model(p);
  int gpu[2] = {0, 1}, layers[2] = {4, 2}, capacity[2];
  EXPECT_EQ(rebalance_layers(model, gpu, layers, 2, capacity), 0);
  // GPU 0 twice as fast, holding (5, 1): loads 2.5 and 1 in units of
  // 1/F_1. Worst is stage 1, best stage 2, whose GPU is slower: stop.
  const Problem q = hand_pool({200, 100}, 6);
  const CostModel slow_best(q);
  int layers2[2] = {5, 1};
  EXPECT_EQ(rebalance_layers(slow_best, gpu, layers2, 2, capacity), 0);
}

TEST(LocalSearch, RespectsMemoryCapacity) {
  // GPU 1 is four times as fast but holds only three layers as the last of
  // two stages. From (5, 1), loads (5, 0.25) in units of 1/F_0: Delta =
  // min(3 - 1, 5 - 1) = 2 and the loop never reaches balance ((1+1)/4 < 4),
  // so two layers move: (3, 3), and GPU 1 is then full.
  Problem p = hand_pool({100, 400}, 6);
  CostModel probe(p);
  p.gpus[1].memory_gib = (3 * probe.layer_memory_bytes(2) + probe.head_memory_bytes()) / 1073741824.0;
  const CostModel model(p);
  ASSERT_EQ(model.max_layers(1, 2, true), 3);
  int gpu[2] = {0, 1}, layers[2] = {5, 1}, capacity[2];
  EXPECT_EQ(rebalance_layers(model, gpu, layers, 2, capacity), 1);
  EXPECT_EQ(layers[0], 3);
  EXPECT_EQ(layers[1], 3);
}

// Random valid chromosomes of a pool: the paper's sampler, feasible draws kept.
std::vector<Chromosome> random_valid(const CostModel& model, Rng& rng, int count) {
  OperatorContext context(model);
  std::vector<Chromosome> out;
  std::vector<int> genes(static_cast<std::size_t>(model.num_layers()));
  for (int draw = 0; draw < 50 * count && static_cast<int>(out.size()) < count; ++draw) {
    draw_uniform_plan(rng, context, genes.data());
    const PlanCost cost = model.evaluate_genes(genes.data());
    if (cost.feasible) out.push_back(Chromosome{genes, cost});
  }
  return out;
}

testing::PoolShape property_shape() {
  testing::PoolShape shape;
  shape.min_gpus = 2, shape.max_gpus = 8, shape.min_layers = 2, shape.max_layers = 14;
  return shape;
}

// Every operator, on many random valid chromosomes of many random pools
// (memory sometimes tight): the result is contiguous, fits in memory and
// carries its own cost.
TEST(OperatorProperties, EveryOperatorKeepsChromosomesValid) {
  int crossovers = 0, moves = 0, mutations = 0, searches = 0;
  for (std::uint64_t seed = 1; seed <= 150; ++seed) {
    const Problem p = testing::random_pool(seed, property_shape());
    const CostModel model(p);
    if (!any_feasible_plan(model)) continue;
    Rng rng(seed * 7919);
    const std::vector<Chromosome> pool = random_valid(model, rng, 24);
    if (pool.size() < 2) continue;
    OperatorContext context(model);
    const int L = model.num_layers();
    auto check = [&](Chromosome c, const char* what) {  // a copy: crossover leaves genes stale
      ASSERT_TRUE(is_valid(model, genes_of(c))) << what << " in pool " << seed;
      ASSERT_EQ(c.cost.objective, model.evaluate_genes(c.genes.data()).objective) << what;
    };
    for (std::size_t i = 0; i < pool.size(); ++i) {
      const Chromosome& p1 = pool[i];
      const Chromosome& p2 = pool[(i + 1) % pool.size()];
      if (p1.genes != p2.genes) {
        Chromosome children[2];
        const int n = boundary_crossover(p1, p2, 0.3, rng, context, children);
        for (int c = 0; c < n; ++c) {
          check(children[c], "crossover");
          // A child is a prefix of one parent and the suffix of the other.
          bool found = false;
          for (int cut = 1; cut < L && !found; ++cut)
            found = genes_of(children[c]) == prefix_suffix(p1.genes, p2.genes, cut) ||
                    genes_of(children[c]) == prefix_suffix(p2.genes, p1.genes, cut);
          ASSERT_TRUE(found);
          ++crossovers;
        }
      }
      // The raw moves keep contiguity even when memory would not fit.
      std::vector<int> genes = p1.genes;
      const Plan before = decode_genes(genes);
      if (swap_stages(genes.data(), rng, context)) {
        ASSERT_TRUE(is_contiguous(genes, model.num_gpus()));
        Plan after = decode_genes(genes);
        auto by_gpu = [](const Stage& a, const Stage& b) { return a.gpu < b.gpu; };
        Plan sorted_before = before;
        std::sort(sorted_before.begin(), sorted_before.end(), by_gpu);
        std::sort(after.begin(), after.end(), by_gpu);
        for (std::size_t q = 0; q < after.size(); ++q) {
          ASSERT_EQ(after[q].gpu, sorted_before[q].gpu);  // same GPUs, each with its length
          ASSERT_EQ(after[q].layers, sorted_before[q].layers);
        }
        ++moves;
      }
      genes = p1.genes;
      if (shift_boundary(genes.data(), rng, context, rng.bernoulli(0.5))) {
        ASSERT_TRUE(is_contiguous(genes, model.num_gpus()));
        int changed = 0;
        for (int l = 0; l < L; ++l) changed += genes[l] != p1.genes[l];
        ASSERT_EQ(changed, 1);
        ++moves;
      }
      genes = p1.genes;
      if (reassign_gpu(genes.data(), rng, context)) {
        ASSERT_TRUE(is_contiguous(genes, model.num_gpus()));
        ASSERT_EQ(stage_count(genes.data(), L), stage_count(p1.genes.data(), L));
        ++moves;
      }
      genes = p1.genes;
      const int stages = stage_count(genes.data(), L);
      if (split_stage(genes.data(), p1.cost.bottleneck, rng, context)) {
        ASSERT_TRUE(is_contiguous(genes, model.num_gpus()));
        ASSERT_EQ(stage_count(genes.data(), L), stages + 1);  // one GPU more, the others in place
        ++moves;
      }
      genes = p1.genes;
      if (merge_stage(genes.data(), rng, context)) {
        ASSERT_TRUE(is_contiguous(genes, model.num_gpus()));
        ASSERT_EQ(stage_count(genes.data(), L), stages - 1);
        ++moves;
      }
      Chromosome mutant = p1;
      mutate(mutant, rng, context);
      check(mutant, "mutation");
      ++mutations;
      Chromosome refined = p1;
      if (rebalance_capacity(refined, context)) {
        ASSERT_LE(refined.cost.objective, p1.cost.objective);
        ASSERT_EQ(stage_count(refined.genes.data(), L), stage_count(p1.genes.data(), L));
      }
      check(refined, "local search");
      ++searches;
    }
  }
  std::printf("[ checked ] %d crossover children, %d raw moves, %d mutations, %d local searches\n", crossovers, moves,
              mutations, searches);
  EXPECT_GT(crossovers, 1000);
  EXPECT_GT(moves, 2000);
  EXPECT_GT(mutations, 1000);
  EXPECT_GT(searches, 1000);
}

}  // namespace
}  // namespace geotrain
