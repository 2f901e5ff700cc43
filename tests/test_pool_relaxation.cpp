// The bound valid for every plan (search/bounds/pool_relaxation.hpp): worked by hand
// on the hand pool, and never above the optimum of brute force, over one-GPU
// stages at every micro-batch size and over stage groups.
#include "search/bounds/pool_relaxation.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <tuple>

#include "api/api.hpp"
#include "api/micro_batch_search.hpp"
#include "api/planner.hpp"
#include "model/feasibility.hpp"
#include "model/input_error.hpp"
#include "model/problem_json.hpp"
#include "random_node_pool.hpp"
#include "random_pool.hpp"
#include "search/exact/brute_force.hpp"
#include "test_support.hpp"
#include "prepare_if_plannable.hpp"

namespace geotrain {
namespace {

// The hand pool of test_cost_model.cpp: one layer of one micro-batch takes
// 7.2e-4 s on g0 and g2, 1.44e-3 s on g1; the head is 6e9 / 7.2e10 = 1/12 of
// a layer. L + rho = 4.083333; the pool does 1/7.2e-4 + 1/1.44e-3 + 1/7.2e-4
// = 3472.22 layers per second, so T >= M (L + rho) / 3472.22 = 4 * 4.083333 /
// 3472.22 = 4.704e-3 s. With lambda 1 and T_ref 10 ms: 0.4704 (the optimum,
// g0 alone, is 11.76 ms: 1.176).
TEST(PoolRelaxation, HandPoolTimeBound) {
  Problem p;
  p.model = testing::round_model(4);
  for (auto [id, tflops, idle, active] : {std::tuple{"g0", 100.0, 50.0, 250.0}, std::tuple{"g1", 50.0, 10.0, 60.0},
                                          std::tuple{"g2", 100.0, 20.0, 120.0}}) {
    Gpu g;
    g.id = id, g.peak_tflops = tflops, g.memory_gib = 80, g.idle_w = idle, g.active_w = active;
    p.gpus.push_back(g);
  }
  p.model.precision = Precision::fp16;
  p.network.default_link = LinkSpec{10, 1, 1};
  CostModel model(p);
  model.set_references(0.01, 2);
  EXPECT_NEAR(any_plan_lower_bound(model), 4 * (4 + 1.0 / 12) / (2 / 7.2e-4 + 1 / 1.44e-3) / 0.01, 1e-9);
  // lambda 0: E >= T * 10 W (least idle) + M (L + rho) * min(200 * 7.2e-4, 50 * 1.44e-3, 100 * 7.2e-4)
  //         = 4.704e-3 * 10 + 4 * 4.083333 * 0.072 = 0.04704 + 1.176 = 1.22304 J; over E_ref 2: 0.61152.
  model.set_lambda(0);
  EXPECT_NEAR(any_plan_lower_bound(model), (4.704e-3 * 10 + 4 * (4 + 1.0 / 12) * 0.072) / 2, 1e-5);
}

TEST(PoolRelaxation, NeverAboveTheOptimumAtAnyMicroBatchSize) {
  int pools = 0;
  for (std::uint64_t seed = 1; pools < 60 && seed < 400; ++seed) {
    const Problem p = testing::random_pool(seed);
    CostModel file_model(p);
    if (!any_feasible_plan(file_model)) continue;
    ++pools;
    const double bound = any_plan_lower_bound(file_model);
    for (std::int64_t u : micro_batch_candidates(p.model)) {
      CostModel at_u(with_micro_batch_size(p, u));
      at_u.copy_objective_from(file_model);
      if (!any_feasible_plan(at_u)) continue;
      EXPECT_LE(bound, brute_force(at_u).cost.objective * (1 + 1e-12)) << "seed " << seed << " u " << u;
    }
  }
  EXPECT_EQ(pools, 60);
}

TEST(PoolRelaxation, NeverAboveTheHybridOptimumAndEveryHybridSolveCarriesIt) {
  int pools = 0;
  for (std::uint64_t seed = 1; pools < 15 && seed < 200; ++seed) {
    const Problem p = testing::random_node_pool(seed, 6, 4);
    SolveOptions o;
    o.method = Method::brute_force;
    const std::optional<PreparedProblem> prepared = testing::prepare_if_plannable(p, o);
    if (!prepared) continue;
    ++pools;
    const double optimum = run_method(*prepared, o).cost.objective;
    EXPECT_LE(any_plan_lower_bound(prepared->model), optimum * (1 + 1e-12)) << p.name;
    o.method = Method::memetic;
    const auto out = solve_request(problem_to_json(p).dump(), o);
    ASSERT_TRUE(out.contains("lower_bound")) << p.name;
    EXPECT_LE(out["lower_bound"].get<double>(), optimum * (1 + 1e-12));
    EXPECT_GE(out["gap"].get<double>(), 0.0);
    EXPECT_LE(out["gap"].get<double>(), 1.0);
  }
  EXPECT_EQ(pools, 15);
}

}  // namespace
}  // namespace geotrain
