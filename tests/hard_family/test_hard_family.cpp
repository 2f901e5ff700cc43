// The memetic run at default settings on the hard family (issue 23): no worse
// than exact's plan after about a second nor than metis-improved on every
// pool. `HardFamily.Sample*` (a few pools, the default test run) and
// `HardFamilyLong.*` (48 pools, the long target: ctest --preset long).
//
// Exact's plan after 1 s depends on the clock; the test holds the memetic
// run against a stand-in without one that does at least as much: the
// planner's exact pipeline (its incumbent from metis-improved and a
// 100-generation memetic run, then exact's own first plans, climbing and
// branch and bound) with a node budget of 2^21 / N, more than the
// nodes exact reaches in one second on pools this size (core/EXACT.md). The
// committed table (docs/performance.md) compares with `--time-limit 1` itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "api/api.hpp"
#include "api/planner.hpp"
#include "hard_pool.hpp"
#include "search/baselines/baselines.hpp"
#include "search/exact/exact.hpp"
#include "search/memetic/memetic.hpp"

namespace geotrain::hard_family {
namespace {

struct Outcome {
  double memetic = 0, exact = 0, metis = 0;
  bool metis_fits = false;
};

Outcome run_pool(const HardPoolShape& shape) {
  const PreparedProblem prepared = prepare_problem(hard_pool(shape), SolveOptions{});
  const CostModel& model = prepared.model;
  const SearchSettings& search = prepared.problem.search;
  Outcome out;
  out.memetic = MemeticAlgorithm(search).evolve(model).cost.objective;
  const SolveResult metis = run_metis_improved(model, search.seed);
  out.metis = metis.cost.objective;
  out.metis_fits = metis.cost.feasible;
  // Exact's pipeline without the clock.
  SearchSettings quick = search;
  quick.max_generations = 100;
  const SolveResult memetic_100 = MemeticAlgorithm(quick).evolve(model);
  const Plan start = metis.cost.feasible && metis.cost.objective < memetic_100.cost.objective ? metis.plan
                                                                                                : memetic_100.plan;
  ExactSettings exact;
  exact.time_limit_s = 1e6;
  exact.max_nodes = (std::int64_t{1} << 21) / model.num_gpus();
  out.exact = solve_exact(model, exact, start).cost.objective;
  return out;
}

void expect_never_trapped(const HardPoolShape& shape) {
  const Outcome o = run_pool(shape);
  const std::string pool = hard_pool_name(shape);
  EXPECT_LE(o.memetic, o.exact * (1 + 1e-9)) << pool << ": memetic " << o.memetic << ", exact " << o.exact;
  if (o.metis_fits) EXPECT_LE(o.memetic, o.metis * (1 + 1e-9)) << pool << ": metis-improved " << o.metis;
}

// One pool of each archetype at 64 GPUs x 48 layers (pool seed 1), and the
// 256 x 96 few-of-many pool where the memetic run lost 23% before the moves
// at the scale of sites (0.6968 against exact's 0.5360).
TEST(HardFamily, SampleNeverTrapped) {
  for (int a = 0; a < kArchetypes; ++a) expect_never_trapped({64, 48, 1, static_cast<Archetype>(a)});
  expect_never_trapped({256, 96, 1, Archetype::few_of_many});
}

// Issue 23, round three: on this pool the final step's floored searches end
// on a plan of 40 stages (0.509639) and the planner's exact on its first
// second, on an idle machine, on one of 49 (`geotrain solve POOL --method
// exact --time-limit 1`: 0.5093501725967947). The plain last search from the
// floored plan finds that plan, and a floored search from it one better
// still (0.506850); without the plain search the run stays behind.
TEST(HardFamily, PlainLastSearchReachesExactsFirstSecond) {
  const PreparedProblem prepared = prepare_problem(hard_pool({256, 96, 2, Archetype::fast_wan}), SolveOptions{});
  const double exact_first_second = 0.509351;  // rounded up
  SearchSettings without = prepared.problem.search;
  without.scale_moves.final_plain = false;
  EXPECT_LE(MemeticAlgorithm(prepared.problem.search).evolve(prepared.model).cost.objective, exact_first_second);
  EXPECT_GT(MemeticAlgorithm(without).evolve(prepared.model).cost.objective, exact_first_second);
}

// The 512-A100 pool on four sites (hybrid): its plan proven within 20% of
// the optimum (81% with perfect scaling over the pool alone, before the
// floor for stage groups; 1.4% with it at 10 Gbps between sites).
void expect_certified(double inter_site_gbps) {
  SolveOptions options;
  const auto out = solve_request(a100_four_sites_json(inter_site_gbps).dump(), options);
  EXPECT_EQ(out["parallelism"], "hybrid");
  EXPECT_LE(out["gap"].get<double>(), 0.20) << inter_site_gbps << " Gbps: " << out["objective"] << " above "
                                            << out["lower_bound"];
}

TEST(HardFamily, A100FourSitesCertified) { expect_certified(10); }
TEST(HardFamilyLongA100, CertifiedAtOtherLinkSpeeds) {
  for (double gbps : {25.0, 100.0}) expect_certified(gbps);
}

// The generator: the same pool for the same tuple, and the kinds it promises.
TEST(HardFamily, PoolsAreReproducibleAndFit) {
  for (const HardPoolShape& shape : family_shapes(1)) {
    if (shape.num_gpus > 128) continue;
    EXPECT_EQ(hard_pool_json(shape).dump(), hard_pool_json(shape).dump());
    const Problem p = hard_pool(shape);
    EXPECT_EQ(static_cast<int>(p.gpus.size()), shape.num_gpus);
    EXPECT_EQ(p.model.num_layers, shape.num_layers);
    std::vector<std::string> sites;
    for (const Gpu& g : p.gpus)
      if (std::find(sites.begin(), sites.end(), g.site) == sites.end()) sites.push_back(g.site);
    EXPECT_GE(sites.size(), 2u) << hard_pool_name(shape);
    EXPECT_LE(sites.size(), 12u) << hard_pool_name(shape);
    EXPECT_NO_THROW(prepare_problem(p, SolveOptions{})) << hard_pool_name(shape);  // some plan fits
  }
}

// The long target: all 48 pools (three pool seeds of every archetype at
// 64 x 48, 128 x 64, 256 x 96 and 512 x 128).
class HardFamilyLong : public ::testing::TestWithParam<HardPoolShape> {};

TEST_P(HardFamilyLong, NeverTrapped) { expect_never_trapped(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Pools, HardFamilyLong, ::testing::ValuesIn(family_shapes(3)),
                         [](const ::testing::TestParamInfo<HardPoolShape>& info) {
                           std::string name = hard_pool_name(info.param);
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

}  // namespace
}  // namespace geotrain::hard_family
