// The memetic loop's shortcuts (issue 10.5) give exactly what the plain
// definitions give: crossover on stage lists against Alg. 2 written out on
// genes, decoded stages by hand, the cached capacities against the model's
// and deduplication against sort-then-unique.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <vector>

#include "api/planner.hpp"
#include "model/feasibility.hpp"
#include "model/problem_json.hpp"
#include "search/memetic/boundary_crossover.hpp"
#include "search/memetic/chromosome.hpp"
#include "search/memetic/local_search.hpp"
#include "search/memetic/mutation.hpp"
#include "search/memetic/population.hpp"
#include "random_pool.hpp"

namespace geotrain {
namespace {

TEST(LoopShortcuts, DecodeStagesGivesRunsAndTheirFirstLayers) {
  // [2,2,0,1,1,1]: GPU 2 holds layers 0-1, GPU 0 layer 2, GPU 1 layers 3-5,
  // so stages (2, 2), (0, 1), (1, 3) starting at 0, 2, 3, and starts[3] = L = 6.
  const std::vector<int> genes{2, 2, 0, 1, 1, 1};
  std::vector<Stage> stages(6);
  std::vector<int> starts(7);
  StageView view{stages.data(), starts.data()};
  decode_stages(genes.data(), 6, view);
  ASSERT_EQ(view.count, 3);
  EXPECT_EQ(stages[0].gpu, 2);
  EXPECT_EQ(stages[0].layers, 2);
  EXPECT_EQ(stages[1].gpu, 0);
  EXPECT_EQ(stages[1].layers, 1);
  EXPECT_EQ(stages[2].gpu, 1);
  EXPECT_EQ(stages[2].layers, 3);
  EXPECT_EQ(starts, (std::vector<int>{0, 2, 3, 6, 0, 0, 0}));
}

// Alg. 2 on genes, as the paper writes it: every candidate cut, each child
// written out, checked for contiguity, costed from its genes; strictly
// fitter replaces, so ties go to the smaller cut.
struct Reference {
  int cut = -1;
  PlanCost cost;
};
Reference best_cut(const std::vector<int>& prefix, const std::vector<int>& suffix, const std::vector<int>& cuts,
                   const CostModel& model, int* evaluations) {
  Reference best;
  for (int cut : cuts) {
    std::vector<int> child(prefix.begin(), prefix.begin() + cut);
    child.insert(child.end(), suffix.begin() + cut, suffix.end());
    if (!is_contiguous(child, model.num_gpus())) continue;
    ++*evaluations;
    const PlanCost cost = model.evaluate_genes(child.data());
    if (cost.feasible && (best.cut < 0 || cost.objective < best.cost.objective)) best = Reference{cut, cost};
  }
  return best;
}

TEST(LoopShortcuts, CrossoverOnStageListsIsAlgorithm2OnGenes) {
  int pairs = 0;
  for (std::uint64_t seed = 1; seed <= 120; ++seed) {
    testing::PoolShape shape;
    shape.min_gpus = 2, shape.max_gpus = 9, shape.min_layers = 2, shape.max_layers = 16;
    const Problem p = testing::random_pool(seed, shape);
    const CostModel model(p);
    if (!any_feasible_plan(model)) continue;
    const int L = model.num_layers();
    OperatorContext context(model);
    Rng draw(seed);
    std::vector<std::vector<int>> plans(8, std::vector<int>(static_cast<std::size_t>(L)));
    for (auto& genes : plans) draw_uniform_plan(draw, context, genes.data());
    for (std::size_t i = 0; i + 1 < plans.size(); ++i) {
      const Chromosome p1{plans[i], model.evaluate_genes(plans[i].data())};
      const Chromosome p2{plans[i + 1], model.evaluate_genes(plans[i + 1].data())};
      if (p1.genes == p2.genes) continue;
      for (double fallback : {0.0, 1.0}) {
        std::vector<int> cuts;
        for (int l = 1; l < L; ++l)
          if (fallback > 0 || p1.genes[l] != p1.genes[l - 1] || p2.genes[l] != p2.genes[l - 1]) cuts.push_back(l);
        int expected_evaluations = 0;
        const Reference c1 = best_cut(p1.genes, p2.genes, cuts, model, &expected_evaluations);
        const Reference c2 = best_cut(p2.genes, p1.genes, cuts, model, &expected_evaluations);

        // Both entry points: parents decoded by the crossover, and by the caller.
        std::vector<Stage> s1(static_cast<std::size_t>(L)), s2(static_cast<std::size_t>(L));
        std::vector<int> t1(static_cast<std::size_t>(L + 1)), t2(static_cast<std::size_t>(L + 1));
        StageView v1{s1.data(), t1.data()}, v2{s2.data(), t2.data()};
        decode_stages(p1.genes.data(), L, v1);
        decode_stages(p2.genes.data(), L, v2);
        const std::vector<StageSums> sums1 = stage_sums(model, decode_genes(p1.genes));
        const std::vector<StageSums> sums2 = stage_sums(model, decode_genes(p2.genes));
        v1.sums = sums1.data(), v2.sums = sums2.data();
        for (bool predecoded : {false, true}) {
          Rng rng(seed);
          Chromosome children[2];
          const std::int64_t before = context.evaluations();
          const int n = predecoded ? boundary_crossover(v1, v2, fallback, rng, context, children)
                                   : boundary_crossover(p1, p2, fallback, rng, context, children);
          EXPECT_EQ(context.evaluations() - before, expected_evaluations) << "pool " << seed;
          int k = 0;
          for (const Reference* r : {&c1, &c2}) {
            if (r->cut < 0) continue;
            ASSERT_LT(k, n) << "pool " << seed;
            const std::vector<int>& head = r == &c1 ? p1.genes : p2.genes;
            const std::vector<int>& tail = r == &c1 ? p2.genes : p1.genes;
            std::vector<int> child(head.begin(), head.begin() + r->cut);
            child.insert(child.end(), tail.begin() + r->cut, tail.end());
            EXPECT_EQ(genes_of(children[k]), child) << "pool " << seed;
            EXPECT_EQ(children[k].cost.objective, r->cost.objective);  // bit for bit
            EXPECT_EQ(children[k].cost.bottleneck, r->cost.bottleneck);
            ++k;
          }
          EXPECT_EQ(n, k) << "pool " << seed;
        }
        ++pairs;
      }
    }
  }
  EXPECT_GT(pairs, 300);
}

TEST(LoopShortcuts, CachedCapacitiesAreTheModels) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const Problem p = testing::random_pool(seed);
    const CostModel model(p);
    OperatorContext context(model);
    const int most = std::min(model.num_gpus(), model.num_layers()) + 1;  // one past the cache: the model's path
    for (int round = 0; round < 2; ++round)                                // filled, then read back
      for (int q = 0; q <= most; ++q)
        for (int g = 0; g < model.num_gpus(); ++g)
          for (bool last : {false, true})
            ASSERT_EQ(context.max_layers(g, q, last), model.max_layers(g, q, last)) << seed << " " << q << " " << g;
  }
}

// A random plan of `count` stages on distinct GPUs, holding all L layers.
Plan random_plan(Rng& rng, int N, int L, int count) {
  std::vector<int> gpus(static_cast<std::size_t>(N));
  for (int g = 0; g < N; ++g) gpus[g] = g;
  rng.shuffle(gpus.begin(), gpus.end());
  Plan plan;
  for (int q = 0, left = L; q < count; ++q) {
    const int layers = q + 1 == count ? left : rng.uniform_int(1, left - (count - q - 1));
    plan.push_back(Stage{gpus[q], layers});
    left -= layers;
  }
  return plan;
}

// Crossover's candidates from their parents' stage sums (evaluate_joined):
// for every pair of random plans and every cut where the child is a valid
// chromosome, the figures of evaluate on the child's stage list, bit for
// bit. Memory limits are tight in some pools, so feasibility flips with the
// stage count and both outcomes are checked.
void expect_joined_equal_evaluate(const CostModel& model, Rng& rng, const char* what, int* checked, int* infeasible) {
  const int N = model.num_gpus(), L = model.num_layers();
  for (int trial = 0; trial < 60; ++trial) {
    const Plan a = random_plan(rng, N, L, rng.uniform_int(1, std::min(N, L)));
    const Plan b = random_plan(rng, N, L, rng.uniform_int(1, std::min(N, L)));
    const std::vector<StageSums> sums_a = stage_sums(model, a), sums_b = stage_sums(model, b);
    const std::vector<int> genes_a = encode_plan(a), genes_b = encode_plan(b);
    for (int cut = 1; cut < L; ++cut) {
      std::vector<int> child(genes_a.begin(), genes_a.begin() + cut);
      child.insert(child.end(), genes_b.begin() + cut, genes_b.end());
      if (!is_contiguous(child, N)) continue;
      // The stages of a holding layer cut - 1 and of b holding layer cut.
      int last = 0, first = 0;
      for (int l = 0, q = 0; q < static_cast<int>(a.size()); l += a[q++].layers)
        if (l <= cut - 1) last = q;
      for (int l = 0, q = 0; q < static_cast<int>(b.size()); l += b[q++].layers)
        if (l <= cut) first = q;
      int start_last = 0, end_first = 0;
      for (int q = 0; q < last; ++q) start_last += a[q].layers;
      for (int q = 0; q <= first; ++q) end_first += b[q].layers;
      Stage junction[2];
      int junction_count = 0;
      if (a[last].gpu == b[first].gpu) {
        junction[junction_count++] = Stage{a[last].gpu, end_first - start_last};
      } else {
        junction[junction_count++] = Stage{a[last].gpu, cut - start_last};
        junction[junction_count++] = Stage{b[first].gpu, end_first - cut};
      }
      const PlanCost expected = model.evaluate(decode_genes(child));
      const PlanCost got = evaluate_joined(model, a.data(), sums_a.data(), last, junction, junction_count, b.data(),
                                           sums_b.data(), first + 1, static_cast<int>(b.size()));
      ASSERT_EQ(got.objective, expected.objective) << what << " cut " << cut;
      ASSERT_EQ(got.iteration_s, expected.iteration_s) << what;
      ASSERT_EQ(got.energy_j, expected.energy_j) << what;
      ASSERT_EQ(got.carbon_g, expected.carbon_g) << what;
      ASSERT_EQ(got.cost, expected.cost) << what;
      ASSERT_EQ(got.feasible, expected.feasible) << what << " cut " << cut;
      ASSERT_EQ(got.bottleneck, expected.bottleneck) << what;
      ++*checked;
      *infeasible += !expected.feasible;
    }
  }
}

TEST(LoopShortcuts, CandidatesFromStageSumsCostAsTheirStageList) {
  Rng rng(23);
  int checked = 0, infeasible = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const Problem p = testing::random_pool(seed, testing::PoolShape{4, 6, 2, 10, true, -1});
    expect_joined_equal_evaluate(CostModel(p), rng, "plain", &checked, &infeasible);
    const CostModel grouped(p, GroupLayout{DeviceGroup{{0, 1}, 2}, DeviceGroup{{2}, 1}, DeviceGroup{{3}, 1}});
    expect_joined_equal_evaluate(grouped, rng, "groups", &checked, &infeasible);
  }
  std::ifstream file(std::string(GEOTRAIN_EXAMPLES_DIR) + "/world-wide.json");
  std::stringstream text;
  text << file.rdbuf();
  const PreparedProblem priced = prepare_problem(parse_problem_text(text.str()).problem, SolveOptions{});
  ASSERT_TRUE(priced.model.has_prices());
  expect_joined_equal_evaluate(priced.model, rng, "priced", &checked, &infeasible);
  EXPECT_GT(checked, 2000);
  EXPECT_GT(infeasible, 100);   // memory decided some candidates...
  EXPECT_LT(infeasible, checked - 100);  // ...and let others through
}

// Chromosomes keep their stage lists (issue 10.5): after every operator a
// child's stages are its genes' decoding, and mutation and local search,
// which rewrite only the genes of the stages that changed, leave genes that
// cost what the child says.
TEST(LoopShortcuts, OperatorsKeepStagesAndGenesInStep) {
  int changed = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const Problem p = testing::random_pool(seed, testing::PoolShape{3, 8, 2, 12, true, -1});
    const CostModel model(p);
    OperatorContext context(model);
    Rng rng(seed);
    std::vector<Chromosome> pool;
    std::vector<int> genes(static_cast<std::size_t>(model.num_layers()));
    for (int draw = 0; draw < 400 && pool.size() < 12; ++draw) {
      draw_uniform_plan(rng, context, genes.data());
      const PlanCost cost = model.evaluate_genes(genes.data());
      if (cost.feasible) pool.push_back(Chromosome{genes, cost, {}});
    }
    // A copy, its genes written from its stages when stale: the original
    // stays as the operator left it.
    auto in_step = [&](Chromosome c) {
      genes_of(c);
      const Plan decoded = decode_genes(c.genes);
      ASSERT_EQ(c.stages.size(), decoded.size()) << "pool " << seed;
      for (std::size_t q = 0; q < decoded.size(); ++q) {
        ASSERT_EQ(c.stages[q].gpu, decoded[q].gpu) << "pool " << seed;
        ASSERT_EQ(c.stages[q].layers, decoded[q].layers) << "pool " << seed;
      }
      ASSERT_EQ(c.cost.objective, model.evaluate_genes(c.genes.data()).objective) << "pool " << seed;
    };
    for (std::size_t i = 0; i + 1 < pool.size(); ++i) {
      if (pool[i].genes == pool[i + 1].genes) continue;
      Chromosome children[2];
      const int n = boundary_crossover(pool[i], pool[i + 1], 0.3, rng, context, children);
      for (int c = 0; c < n; ++c) {
        in_step(children[c]);
        ASSERT_TRUE(children[c].genes_stale);
        // The operators on a child as crossover leaves it (stale genes, as in
        // the memetic loop) and with its genes written (rewritten in part).
        for (bool stale : {true, false}) {
          Chromosome child = children[c];
          if (!stale) write_genes(child);
          for (int kind = 0; kind < kMutationKinds; ++kind) {
            Chromosome mutant = child;
            changed += mutate(mutant, static_cast<MutationKind>(kind), rng, context);
            ASSERT_EQ(mutant.genes_stale, stale);
            in_step(mutant);
            changed += rebalance_capacity(mutant, context);
            in_step(mutant);
          }
        }
      }
    }
  }
  EXPECT_GT(changed, 100);  // the moves and the rebalancing did apply
}

TEST(LoopShortcuts, DeduplicationIsSortThenUniqueMinusThePopulation) {
  // Four GPUs, four layers; the offspring repeat plans and one is already in
  // the population, so the kept ones are the distinct others, fittest first.
  const Problem p = testing::random_pool(3, testing::PoolShape{4, 4, 4, 4, false, 1.0});
  const CostModel model(p);
  auto chromosome = [&](std::vector<int> genes) {
    const PlanCost cost = model.evaluate_genes(genes.data());
    return Chromosome{std::move(genes), cost};
  };
  const std::vector<std::vector<int>> plans{{0, 0, 1, 1}, {2, 2, 2, 2}, {0, 1, 2, 3}, {3, 3, 0, 0}, {1, 1, 1, 2}};
  std::vector<Chromosome> population{chromosome(plans[1])};
  std::vector<Chromosome> offspring;
  for (int i : {0, 2, 1, 0, 3, 2, 4, 4}) offspring.push_back(chromosome(plans[i]));
  std::vector<Chromosome> expected{chromosome(plans[0]), chromosome(plans[2]), chromosome(plans[3]), chromosome(plans[4])};
  std::sort(expected.begin(), expected.end(), [](const Chromosome& a, const Chromosome& b) { return fitter(a, b); });
  const int kept = deduplicate(offspring, static_cast<int>(offspring.size()), population);
  ASSERT_EQ(kept, 4);
  for (int k = 0; k < kept; ++k) EXPECT_EQ(offspring[k].genes, expected[k].genes);
}

}  // namespace
}  // namespace geotrain

namespace geotrain {
namespace {

// Offspring as crossover leaves them (stages only, genes stale): the kept
// ones come back with their genes written; those the cutoff drops on the
// objective alone are never written.
TEST(LoopShortcuts, DeduplicationWritesOnlyTheGenesItCompares) {
  const Problem p = testing::random_pool(3, testing::PoolShape{4, 4, 4, 4, false, 1.0});
  const CostModel model(p);
  auto from_stages = [&](const Plan& plan) {
    Chromosome c{{}, model.evaluate(plan), plan, true};
    return c;
  };
  const std::vector<Plan> plans{{{0, 2}, {1, 2}}, {{2, 4}}, {{0, 1}, {1, 1}, {2, 1}, {3, 1}}, {{3, 2}, {0, 2}},
                                {{1, 3}, {2, 1}}};
  std::vector<Chromosome> population;
  for (const Plan& plan : plans) population.push_back(Chromosome{encode_plan(plan), model.evaluate(plan), plan});
  std::sort(population.begin(), population.end(), [](const Chromosome& a, const Chromosome& b) { return fitter(a, b); });
  const Plan outsider = population.back().stages;  // worse than every member left
  population.pop_back();
  const Chromosome worst = population.back();  // the cutoff: a full population's worst member
  ASSERT_GT(model.evaluate(outsider).objective, worst.cost.objective);
  std::vector<Chromosome> offspring;
  // Duplicates of every member (the last ties the cutoff: its genes decide).
  for (const Chromosome& member : population) offspring.push_back(from_stages(member.stages));
  offspring.push_back(from_stages(outsider));  // dropped on the objective alone
  const Plan better{{1, 4}};  // new, and fitter than the cutoff
  ASSERT_LT(model.evaluate(better).objective, worst.cost.objective);
  offspring.push_back(from_stages(better));
  const int count = static_cast<int>(offspring.size());
  const int kept = deduplicate(offspring, count, population, model.num_gpus(), &worst);
  ASSERT_EQ(kept, 1);
  EXPECT_FALSE(offspring[0].genes_stale);
  EXPECT_EQ(offspring[0].genes, encode_plan(better));
  int never_written = 0;
  for (int i = kept; i < count; ++i)
    if (offspring[i].cost.objective > worst.cost.objective) never_written += offspring[i].genes_stale;
  EXPECT_EQ(never_written, 1);  // the outsider
}

}  // namespace
}  // namespace geotrain

namespace geotrain {
namespace {

// Alg. 4 as it was first written here: the worst stage in one pass, the
// best other one in a second. The local search picks both in one pass and
// lets best be the worst (then it stops, as the paper's rule does there):
// the same moves and steps, ties (to the lower index) included.
int two_pass_rebalance(const CostModel& model, const int* gpu, int* layers, int count) {
  std::vector<double> time(static_cast<std::size_t>(count)), load(static_cast<std::size_t>(count));
  std::vector<int> capacity(static_cast<std::size_t>(count));
  for (int q = 0; q < count; ++q) {
    capacity[q] = model.max_layers(gpu[q], count, q + 1 == count);
    time[q] = model.layer_compute_s(gpu[q]);
  }
  int steps = 0;
  while (steps < model.num_layers() * count + 1) {
    int worst = -1, best = -1;
    for (int q = 0; q < count; ++q) {
      load[q] = layers[q] * time[q];
      if (layers[q] >= 2 && (worst < 0 || load[q] > load[worst])) worst = q;
    }
    for (int q = 0; q < count; ++q)
      if (q != worst && layers[q] < capacity[q] && (best < 0 || load[q] < load[best])) best = q;
    if (worst < 0 || best < 0 || time[best] >= time[worst]) break;
    const int n_worst = layers[worst], n_best = layers[best];
    auto pair_max = [&](int moved) { return std::max((n_worst - moved) * time[worst], (n_best + moved) * time[best]); };
    const int most = std::min(capacity[best] - n_best, n_worst - 1);
    int delta = most;
    for (int i = 1; i < most; ++i)
      if ((n_best + i) * time[best] >= (n_worst - i) * time[worst]) {
        delta = i;
        break;
      }
    if (delta > 1 && pair_max(delta - 1) < pair_max(delta)) --delta;
    if (!(pair_max(delta) < pair_max(0))) break;
    layers[worst] -= delta, layers[best] += delta;
    ++steps;
  }
  return steps;
}

TEST(LoopShortcuts, OnePassStagePickIsTheTwoPassRule) {
  Rng rng(31);
  int moved = 0, tied = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    Problem p = testing::random_pool(seed, testing::PoolShape{4, 8, 6, 16, true, -1});
    for (Gpu& g : p.gpus) g.peak_tflops = 100.0 * rng.uniform_int(1, 2);  // two speeds: loads often tie
    const CostModel model(p);
    const int N = model.num_gpus(), L = model.num_layers();
    for (int trial = 0; trial < 50; ++trial) {
      const Plan plan = random_plan(rng, N, L, rng.uniform_int(1, std::min(N, L)));
      const int count = static_cast<int>(plan.size());
      std::vector<int> gpu, layers, reference;
      for (const Stage& s : plan) gpu.push_back(s.gpu), layers.push_back(s.layers);
      reference = layers;
      std::vector<int> capacity(static_cast<std::size_t>(count));
      for (int a = 0; a < count; ++a)
        for (int b = a + 1; b < count; ++b)
          tied += layers[a] * model.layer_compute_s(gpu[a]) == layers[b] * model.layer_compute_s(gpu[b]);
      const int steps = rebalance_layers(model, gpu.data(), layers.data(), count, capacity.data());
      ASSERT_EQ(steps, two_pass_rebalance(model, gpu.data(), reference.data(), count)) << "pool " << seed;
      ASSERT_EQ(layers, reference) << "pool " << seed;
      moved += steps > 0;
    }
  }
  EXPECT_GT(moved, 300);  // the rule did move layers...
  EXPECT_GT(tied, 300);   // ...among stages whose loads tie
}

}  // namespace
}  // namespace geotrain
