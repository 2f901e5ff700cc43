// Baselines (uniform, metis, metis-improved) and the objective's references,
// on hand examples. Model as everywhere: H = T = V = 1000, u = 1, M = 4, fp16:
//   per layer 7.2e-4 s at 100 TFLOPS (so 3.6e-4 at 200, 1.44e-3 at 50)
//   send 2e6 bytes: 10 Gbps + 1 ms = 2.6e-3 s; 100 Gbps + 0 ms = 1.6e-4 s; 40 Gbps + 0 ms = 4e-4 s
//   memory per layer 9.6e7 + (Q + 1) * 2e7 bytes: Q = 2 -> 1.56e8, Q = 3 -> 1.76e8; head 1.2e7
#include "search/baselines/baselines.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "api/references.hpp"
#include "random_pool.hpp"
#include "test_support.hpp"

namespace geotrain {
namespace {

using testing::same_plan;
using testing::show;

#define EXPECT_REL(actual, expected) EXPECT_NEAR((actual), (expected), 1e-9 * std::fabs(expected))

constexpr double kGiB = 1073741824.0;

Gpu make_gpu(const std::string& id, double tflops, double memory_bytes = 80 * kGiB) {
  Gpu g;
  g.id = id;
  g.peak_tflops = tflops;
  g.memory_gib = memory_bytes / kGiB;
  g.idle_w = 50;
  g.active_w = 250;
  return g;
}

Problem pool(int layers, std::vector<Gpu> gpus) {
  Problem p;
  p.model = testing::round_model(layers);
  p.gpus = std::move(gpus);
  p.network.default_link = LinkSpec{10, 1, 1};
  return p;
}

void link_both_ways(Problem& p, const char* a, const char* b, LinkSpec link) {
  p.network.links.push_back({a, b, link});
  p.network.links.push_back({b, a, link});
}


// A plan in the contract's sense: stages >= 1 layer each, summing to L, GPUs distinct.
::testing::AssertionResult is_valid_plan(const Plan& plan, const CostModel& model) {
  int total = 0;
  std::vector<char> used(model.num_gpus(), 0);
  for (const Stage& s : plan) {
    if (s.layers < 1) return ::testing::AssertionFailure() << show(plan) << ": a stage with " << s.layers << " layers";
    if (used[s.gpu]++) return ::testing::AssertionFailure() << show(plan) << ": GPU used twice";
    total += s.layers;
  }
  if (plan.empty() || total != model.num_layers())
    return ::testing::AssertionFailure() << show(plan) << ": layers sum to " << total;
  return ::testing::AssertionSuccess();
}

// ---- uniform ------------------------------------------------------------------------

TEST(Uniform, FirstLModQStagesGetOneMore) {
  // N = 3, L = 8: Q = 3, 8 / 3 = 2 remainder 2 -> [3, 3, 2] on g0, g1, g2 in file order.
  const CostModel cm(pool(8, {make_gpu("g0", 100), make_gpu("g1", 50), make_gpu("g2", 200)}));
  EXPECT_PLAN(uniform_plan(cm), {0, 3}, {1, 3}, {2, 2});
  const SolveResult r = run_uniform(cm);
  EXPECT_EQ(r.method, "uniform");
  EXPECT_PLAN(r.plan, {0, 3}, {1, 3}, {2, 2});
  EXPECT_EQ(r.cost.iteration_s, cm.evaluate(r.plan).iteration_s);
}

TEST(Uniform, NoMoreStagesThanLayers) {
  // N = 5, L = 3: Q = min(5, 3) = 3, one layer each on g0, g1, g2.
  std::vector<Gpu> gpus;
  for (int g = 0; g < 5; ++g) gpus.push_back(make_gpu("g" + std::to_string(g), 100));
  EXPECT_PLAN(uniform_plan(CostModel(pool(3, gpus))), {0, 1}, {1, 1}, {2, 1});
}

// ---- metis: order ---------------------------------------------------------------------

TEST(Metis, OrderStartsAtTheFastestAndFollowsTheCheapestRoundTrip) {
  // g1 (200 TFLOPS) is fastest. Round trips from g1: g3 2 * 1.6e-4 = 3.2e-4 (fast link),
  // g0 and g2 2 * 2.6e-3 = 5.2e-3 -> g3. From g3: g0 4e-4 + 2.6e-3 = 3e-3 (fast one way only),
  // g2 5.2e-3 -> g0. Then g2. (By speed alone it would be g1, g2/g3, ..., g0.)
  Problem p = pool(8, {make_gpu("g0", 50), make_gpu("g1", 200), make_gpu("g2", 100), make_gpu("g3", 100)});
  link_both_ways(p, "g1", "g3", LinkSpec{100, 0, 1});
  p.network.links.push_back({"g3", "g0", LinkSpec{40, 0, 1}});
  const CostModel cm(p);
  EXPECT_EQ(metis_order(cm, {0, 1, 2, 3}), (std::vector<int>{1, 3, 0, 2}));
  EXPECT_EQ(metis_order(cm, {2, 0}), (std::vector<int>{2, 0}));  // only the given GPUs
  EXPECT_TRUE(metis_order(cm, {}).empty());
}

TEST(Metis, OrderTiesGoToTheFasterThenTheLowerIndex) {
  // Equal links everywhere. g0 (200) starts; g1 (50) and g2 (100) tie on the
  // round trip, the faster g2 goes first.
  EXPECT_EQ(metis_order(CostModel(pool(4, {make_gpu("g0", 200), make_gpu("g1", 50), make_gpu("g2", 100)})),
                        {0, 1, 2}),
            (std::vector<int>{0, 2, 1}));
  // All equal: index order, whatever the input order.
  EXPECT_EQ(metis_order(CostModel(pool(4, {make_gpu("g0", 100), make_gpu("g1", 100), make_gpu("g2", 100)})),
                        {2, 0, 1}),
            (std::vector<int>{0, 1, 2}));
}

// ---- metis: split and repair ----------------------------------------------------------

TEST(Metis, LayersSplitInProportionToCompute) {
  // g0 100, g1 200, g2 100 TFLOPS, g1 <-> g2 fast: order [g1, g2, g0] (as above).
  // Weights 2 : 1 : 1, L = 8: one layer each, then 5 more by share 2.5, 1.25, 1.25
  // -> floors 2, 1, 1 (7 placed) and the largest remainder (0.5, g1) takes the 8th: [4, 2, 2].
  Problem p = pool(8, {make_gpu("g0", 100), make_gpu("g1", 200), make_gpu("g2", 100)});
  link_both_ways(p, "g1", "g2", LinkSpec{100, 0, 1});
  const CostModel cm(p);
  EXPECT_PLAN(metis_plan(cm, {0, 1, 2}), {1, 4}, {2, 2}, {0, 2});
  const SolveResult r = run_metis(cm);
  EXPECT_EQ(r.method, "metis");
  EXPECT_PLAN(r.plan, {1, 4}, {2, 2}, {0, 2});
}

TEST(Metis, MemoryRepairMovesLayersWhereTheyFinishSoonest) {
  // g0 200, g1 100, g2 50 TFLOPS, equal links: order [g0, g1, g2] (g1 beats g2 on speed).
  // Weights 4 : 2 : 1, L = 8: 1 each, then 5 * (4/7, 2/7, 1/7) = 2.857, 1.429, 0.714 -> floors 2, 1, 0
  // = [3, 2, 1] (6 placed); remainders .857 (g0), .714 (g2) take the last two: [4, 2, 2].
  // g0 holds 4e8 bytes: floor(4e8 / 1.76e8) = 2 layers in a 3-stage plan, so 2 must move.
  //   1st: to g1 (3 * 7.2e-4 = 2.16e-3) rather than g2 (3 * 1.44e-3 = 4.32e-3) -> [2, 3, 2]
  //   2nd: to g1 (4 * 7.2e-4 = 2.88e-3) rather than g2 (4.32e-3)                  -> [2, 4, 2]
  const CostModel cm(pool(8, {make_gpu("g0", 200, 4e8), make_gpu("g1", 100), make_gpu("g2", 50)}));
  const Plan plan = metis_plan(cm, {0, 1, 2});
  EXPECT_PLAN(plan, {0, 2}, {1, 4}, {2, 2});
  EXPECT_TRUE(cm.evaluate(plan).feasible);
}

TEST(Metis, DropsAGpuThatCannotHoldOneLayer) {
  // g2 is the fastest (200 TFLOPS) but has 1e8 bytes: not one layer at any Q
  // (1.36e8 at Q = 1). Left: g0, g1 at 100 TFLOPS, equal: order [g0, g1], L = 4 -> [2, 2].
  const CostModel cm(pool(4, {make_gpu("g0", 100), make_gpu("g1", 100), make_gpu("g2", 200, 1e8)}));
  const Plan plan = metis_plan(cm, {0, 1, 2});
  EXPECT_PLAN(plan, {0, 2}, {1, 2});
  EXPECT_TRUE(cm.evaluate(plan).feasible);
}

TEST(Metis, KeepsOnlyTheLFastestWhenGpusOutnumberLayers) {
  // L = 2, speeds 50, 100, 200: keep g2 and g1; order [g2, g1]; split 2 : 1 of L - Q = 0 -> [1, 1].
  const CostModel cm(pool(2, {make_gpu("g0", 50), make_gpu("g1", 100), make_gpu("g2", 200)}));
  EXPECT_PLAN(metis_plan(cm, {0, 1, 2}), {2, 1}, {1, 1});
}

TEST(Metis, NeverLeavesAStageWithoutLayers) {
  // g0 200 TFLOPS, 80 GiB; g1 100 TFLOPS with 1.6e8 bytes: one layer as a middle
  // stage (floor(1.6e8 / 1.56e8) = 1) but none as the last (floor((1.6e8 - 1.2e7) / 1.56e8) = 0).
  // Order [g0, g1] puts g1 last; split 2 : 1 of L = 4 -> 1 + 1.33, 1 + 0.67 -> [2, 2].
  // g1's capacity as the last stage is 0: repairing by moving every layer off it
  // leaves [g0:4, g1:0], a stage with no layers, which is no plan at all.
  const CostModel cm(pool(4, {make_gpu("g0", 200), make_gpu("g1", 100, 1.6e8)}));
  EXPECT_TRUE(is_valid_plan(metis_plan(cm, {0, 1}), cm));
  EXPECT_TRUE(is_valid_plan(run_metis(cm).plan, cm));
  EXPECT_TRUE(is_valid_plan(run_metis_improved(cm, 1).plan, cm));
}

// ---- metis-improved -------------------------------------------------------------------

TEST(MetisImproved, LeavesTheSlowGpuOut) {
  // The Fig. 2a pool of test_brute_force.cpp: three 100 TFLOPS GPUs and one at 10, 4e8 bytes
  // each, L = 6, 100 Gbps links without latency. All four: the slow one holds >= 1 layer,
  // T >= 4 * 7.2e-3. The three fast ones: [2, 2, 2], T = 10.3e-3.
  Problem p = pool(6, {make_gpu("g0", 100, 4e8), make_gpu("g1", 10, 4e8), make_gpu("g2", 100, 4e8),
                       make_gpu("g3", 100, 4e8)});
  p.network.default_link.reset();
  p.network.intra_site = LinkSpec{100, 0, 1};
  const CostModel cm(p);
  EXPECT_GE(run_metis(cm).cost.iteration_s, 28.8e-3 * (1 - 1e-12));
  const SolveResult r = run_metis_improved(cm, 1);
  EXPECT_EQ(r.method, "metis-improved");
  EXPECT_REL(r.cost.iteration_s, 10.3e-3);
  for (const Stage& s : r.plan) EXPECT_NE(s.gpu, 1);
}

// The best metis plan over every non-empty subset: feasible first, then least time.
Plan best_metis_over_subsets(const CostModel& cm) {
  Plan best;
  PlanCost best_cost;
  for (unsigned mask = 1; mask < (1u << cm.num_gpus()); ++mask) {
    std::vector<int> subset;
    for (int g = 0; g < cm.num_gpus(); ++g)
      if (mask >> g & 1u) subset.push_back(g);
    const Plan plan = metis_plan(cm, subset);
    const PlanCost cost = cm.evaluate(plan);
    const bool better = best.empty() || (cost.feasible && !best_cost.feasible) ||
                        (cost.feasible == best_cost.feasible && cost.iteration_s < best_cost.iteration_s);
    if (better) best = plan, best_cost = cost;
  }
  return best;
}

TEST(MetisImproved, IsExhaustiveUpToSevenGpus) {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    testing::PoolShape shape;
    shape.min_gpus = 2, shape.max_gpus = kMetisExhaustiveMaxGpus;
    const CostModel cm(testing::random_pool(seed, shape));
    const SolveResult r = run_metis_improved(cm, 99);
    const Plan expected = best_metis_over_subsets(cm);
    EXPECT_TRUE(same_plan(r.plan, expected)) << "seed " << seed << ": " << show(r.plan) << " vs " << show(expected);
    // the seed plays no part when every subset is tried
    EXPECT_TRUE(same_plan(run_metis_improved(cm, 5).plan, r.plan)) << "seed " << seed;
  }
}

TEST(MetisImproved, IsDeterministicForASeedBeyondSevenGpus) {
  testing::PoolShape shape;
  shape.min_gpus = 9, shape.max_gpus = 10, shape.min_layers = 6, shape.max_layers = 10;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const CostModel cm(testing::random_pool(seed, shape));
    const SolveResult a = run_metis_improved(cm, 42), b = run_metis_improved(cm, 42);
    EXPECT_TRUE(same_plan(a.plan, b.plan)) << "pool " << seed;
    EXPECT_EQ(a.cost.iteration_s, b.cost.iteration_s);
    // Sampled subsets are still metis plans of some subset: never worse than metis on all.
    const PlanCost all = run_metis(cm).cost;
    if (all.feasible) {
      EXPECT_LE(a.cost.iteration_s, all.iteration_s) << "pool " << seed;
    }
  }
}

// ---- References ----------------------------------------------------------------------

Problem reference_pool() {
  Problem p = pool(4, {make_gpu("g0", 100), make_gpu("g1", 50), make_gpu("g2", 100)});
  link_both_ways(p, "g0", "g1", LinkSpec{100, 0, 1});
  return p;
}

TEST(References, GivenReferencesAreUsedAsIs) {
  Problem p = reference_pool();
  p.objective.t_ref_ms = 870.4;
  p.objective.e_ref_j = 737.8;
  CostModel cm(p);
  const References refs = apply_references(p, cm);
  EXPECT_EQ(refs.t_ref_ms, 870.4);
  EXPECT_EQ(refs.e_ref_j, 737.8);
  EXPECT_EQ(refs.source, "problem");
  EXPECT_REL(cm.t_ref_s(), 0.8704);
  EXPECT_EQ(cm.e_ref_j(), 737.8);
}

TEST(References, MissingReferencesComeFromMetisImproved) {
  const Problem p = reference_pool();
  CostModel cm(p);
  const SolveResult baseline = run_metis_improved(cm, kReferenceSeed);
  const References refs = apply_references(p, cm);
  EXPECT_EQ(refs.source, "metis-improved");
  EXPECT_EQ(refs.t_ref_ms, baseline.cost.iteration_s * 1000.0);
  EXPECT_EQ(refs.e_ref_j, baseline.cost.energy_j);
  // so the baseline plan itself scores exactly lambda + (1 - lambda) = 1
  cm.set_lambda(0.3);
  EXPECT_REL(cm.evaluate(baseline.plan).objective, 1.0);
}

TEST(References, PartialReferencesAreCompleted) {
  Problem p = reference_pool();
  const SolveResult baseline = run_metis_improved(CostModel(p), kReferenceSeed);
  p.objective.t_ref_ms = 5;
  References refs = resolve_references(p, CostModel(p));
  EXPECT_EQ(refs.t_ref_ms, 5);
  EXPECT_EQ(refs.e_ref_j, baseline.cost.energy_j);
  EXPECT_EQ(refs.source, "problem+metis-improved");
  p.objective.t_ref_ms.reset();
  p.objective.e_ref_j = 3;
  refs = resolve_references(p, CostModel(p));
  EXPECT_EQ(refs.t_ref_ms, baseline.cost.iteration_s * 1000.0);
  EXPECT_EQ(refs.e_ref_j, 3);
  EXPECT_EQ(refs.source, "problem+metis-improved");
}

}  // namespace
}  // namespace geotrain
