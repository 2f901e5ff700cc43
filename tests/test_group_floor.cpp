// The floor for stage-group plans (search/bounds/group_floor.hpp): worked by
// hand on two small pools, and never above the hybrid optimum of brute force.
#include "search/bounds/group_floor.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>

#include "api/api.hpp"
#include "api/planner.hpp"
#include "model/input_error.hpp"
#include "model/problem_json.hpp"
#include "random_node_pool.hpp"
#include "search/bounds/pool_relaxation.hpp"
#include "test_support.hpp"
#include "prepare_if_plannable.hpp"

namespace geotrain {
namespace {

// The floors are bisected to a relative 1e-7 and taken from below.
#define EXPECT_REL(actual, expected) EXPECT_NEAR((actual), (expected), 1e-6 * std::fabs(expected))

Problem seconds_objective(Problem p) {
  p.objective.lambda = 1;
  p.objective.t_ref_ms = 1000;  // objective = T_iter in seconds
  p.objective.e_ref_j = 1;
  p.search.parallelism = Parallelism::hybrid;
  return p;
}

// Two equal one-GPU nodes at two sites (test_certificate.cpp's arithmetic):
// a layer 7.2e-4 s, the head 6e-5 s, a send 1.6e-4 s, M = 4. A plan of two
// stages crosses: its first stage holds a layer within 7.2e-4 + 1.6e-4 =
// 8.8e-4 s, its last within 7.2e-4 + 6e-5 + 1.6e-4 = 9.4e-4 s, so the floor
// under the largest tau is 9.4e-4 s and T >= 2 * 7.2e-4 + 6e-5 (compute)
// + 3.2e-4 (a round trip) + 3 * 9.4e-4 = 4.64e-3 s: the optimum (one stage
// takes 4 * 1.5e-3 = 6e-3 s).
TEST(GroupFloor, TwoOneGpuNodesAtTwoSites) {
  Problem p = seconds_objective(testing::two_equal_gpus_problem());
  p.gpus[0].site = "A", p.gpus[1].site = "B";
  const CostModel pipeline(p);
  EXPECT_REL(group_plan_lower_bound(p, pipeline), 4.64e-3);
}

// One node of two 100-TFLOPS GPUs, u = 2 (M = 2), 800 Gbps inside the node
// with no latency. Its groups: each GPU alone (a layer 1.44e-3 s, the head
// 1.2e-4 s, a send of 4 MB 4e-5 s), both as two data shards (a layer
// 7.2e-4 s, the head 6e-5 s) or tensor parallel (the same compute and
// 4 * 2 * (4e6 / (2 * 1e11)) = 1.6e-4 s of all-reduces per layer).
// Two stages can only be the two GPUs alone: the last holds a layer within
// 1.44e-3 + 1.2e-4 + 4e-5 = 1.6e-3 s, the floor. T >= 2 * 7.2e-4 + 6e-5 (the
// fastest layer and head of any group) + 8e-5 (a round trip) + 1 * 1.6e-3 =
// 3.18e-3 s. One stage is costed: two data shards take 2 * 1.5e-3 s plus
// the gradient all-reduce of 2 * 12e6 * 2 + 1e6 * 2 = 5e7 bytes,
// 2 * (5e7 / (2 * 1e11)) = 5e-4 s: 3.5e-3 s, the optimum. The bound: 3.18e-3.
TEST(GroupFloor, OneNodeOfTwoGpus) {
  Problem p = seconds_objective(testing::two_equal_gpus_problem());
  p.model.micro_batch_size = 2;
  for (Gpu& g : p.gpus) g.node = "n0";
  p.network.default_link.reset();
  p.network.intra_node = LinkSpec{800, 0, 1};
  const CostModel pipeline(p);
  EXPECT_REL(group_plan_lower_bound(p, pipeline), 3.18e-3);
  SolveOptions brute;
  brute.method = Method::brute_force;
  const PreparedProblem prepared = prepare_problem(p, brute);
  EXPECT_REL(run_method(prepared, brute).cost.objective, 3.5e-3);
}

TEST(GroupFloor, NeverAboveTheHybridOptimum) {
  int pools = 0, above_relaxation = 0;
  for (std::uint64_t seed = 1; pools < 40 && seed < 400; ++seed) {
    const Problem p = testing::random_node_pool(seed, 6, 4);
    SolveOptions o;
    o.method = Method::brute_force;
    const std::optional<PreparedProblem> prepared = testing::prepare_if_plannable(p, o);
    if (!prepared) continue;
    ++pools;
    const double optimum = run_method(*prepared, o).cost.objective;
    const double bound = group_plan_lower_bound(prepared->problem, prepared->model);
    EXPECT_LE(bound, optimum * (1 + 1e-9)) << p.name;
    above_relaxation += bound > any_plan_lower_bound(prepared->model) * (1 + 1e-9);
    // Every hybrid solve carries it.
    o.method = Method::memetic;
    const auto out = solve_request(problem_to_json(p).dump(), o);
    EXPECT_LE(out["lower_bound"].get<double>(), optimum * (1 + 1e-9)) << p.name;
    EXPECT_GE(out["lower_bound"].get<double>(), bound * (1 - 1e-12)) << p.name;
  }
  EXPECT_EQ(pools, 40);
  EXPECT_GT(above_relaxation, 10);  // it says more than perfect scaling
}

}  // namespace
}  // namespace geotrain
