// Planning over stage groups (search.parallelism "hybrid"): node shapes and
// layouts, the hybrid memetic held against exact and brute force over the
// same space on many random pools, never worse than the pipeline memetic,
// deterministic, and the hybrid forms of the baselines.
#include <gtest/gtest.h>

#include "api/api.hpp"
#include "api/planner.hpp"
#include "model/input_error.hpp"
#include "model/problem_json.hpp"
#include "example_files.hpp"
#include "random_node_pool.hpp"
#include "search/space/hybrid_layouts.hpp"
#include "search/memetic/hybrid_memetic.hpp"
#include "search/memetic/memetic.hpp"
#include "search/space/node_shapes.hpp"

namespace geotrain {
namespace {

Problem four_and_one(std::int64_t micro_batch_size) {
  Problem p = testing::random_node_pool(1);
  p.gpus.clear();
  for (int i = 0; i < 5; ++i) {
    Gpu g;
    g.id = "g" + std::to_string(i);
    g.node = i < 4 ? "n0" : "";
    g.peak_tflops = i == 2 ? 200 : 100;  // g2 is the fastest GPU of n0
    g.memory_gib = 80, g.idle_w = 10, g.active_w = 100;
    p.gpus.push_back(g);
  }
  p.model.micro_batch_size = micro_batch_size;
  p.model.global_batch_size = 4 * micro_batch_size;
  return p;
}

std::vector<std::pair<int, int>> shapes_of(const PoolNode& node) {
  std::vector<std::pair<int, int>> out;
  for (const GroupShape& s : node.shapes) out.emplace_back(s.size, s.tensor_parallel);
  return out;
}

TEST(NodeShapes, EveryDivisorShapeWhoseShardsDivideTheMicroBatch) {
  const auto nodes = pool_nodes(four_and_one(2));
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(nodes[0].name, "n0");
  EXPECT_EQ(nodes[1].name, "g4");
  // u = 2: d = s / t must be 1 or 2, so (4, 1) with four shards is left out.
  EXPECT_EQ(shapes_of(nodes[0]), (std::vector<std::pair<int, int>>{{1, 1}, {2, 1}, {2, 2}, {4, 2}, {4, 4}}));
  EXPECT_EQ(shapes_of(nodes[1]), (std::vector<std::pair<int, int>>{{1, 1}}));
  // u = 1 leaves tensor parallelism only.
  EXPECT_EQ(shapes_of(pool_nodes(four_and_one(1))[0]), (std::vector<std::pair<int, int>>{{1, 1}, {2, 2}, {4, 4}}));
  // Fastest GPU first, so that it leads its group (and sends for it).
  EXPECT_EQ(nodes[0].gpus, (std::vector<int>{2, 0, 1, 3}));
}

TEST(NodeShapes, LayoutOfAChoiceCutsEachNodeIntoEqualGroups) {
  const auto nodes = pool_nodes(four_and_one(2));
  const GroupLayout layout = layout_of_choice(nodes, ShapeChoice{2, 0});  // n0 as (2, 2); g4 alone
  ASSERT_EQ(layout.size(), 3u);
  EXPECT_EQ(layout[0], (DeviceGroup{{2, 0}, 2}));
  EXPECT_EQ(layout[1], (DeviceGroup{{1, 3}, 2}));
  EXPECT_EQ(layout[2], (DeviceGroup{{4}, 1}));
  EXPECT_EQ(layout_of_choice(nodes, ShapeChoice{0, 0}).size(), 5u);
  EXPECT_EQ(count_choices(nodes, 100), 5);
}

TEST(NodeShapes, NodesOfOneSiteAndAlikeGpusAreOneKind) {
  Problem p = four_and_one(1);
  for (int i = 0; i < 4; ++i) {  // a second node like n0, then one on another site
    Gpu g = p.gpus[static_cast<std::size_t>(i)];
    g.id = "m" + std::to_string(i), g.node = "n1";
    p.gpus.push_back(g);
    g.id = "s" + std::to_string(i), g.node = "n2", g.site = "B";
    p.gpus.push_back(g);
  }
  const auto nodes = pool_nodes(p);
  ASSERT_EQ(nodes.size(), 4u);  // n0, g4, n1, n2 (by first GPU in the file)
  EXPECT_EQ(nodes[0].kind, nodes[2].kind);
  EXPECT_NE(nodes[0].kind, nodes[3].kind);
  EXPECT_NE(nodes[0].kind, nodes[1].kind);
}

SolveResult solve(const Problem& problem, Method method, double time_limit_s = 30) {
  SolveOptions options;
  options.method = method;
  options.time_limit_s = time_limit_s;
  const PreparedProblem prepared = prepare_problem(problem, options);
  return run_method(prepared, options);
}

bool has_feasible_plan(const Problem& problem) {
  try {
    prepare_problem(problem, SolveOptions{});
    return true;
  } catch (const PlanningError&) {
    return false;
  }
}

TEST(HybridSearch, ExactAgreesWithBruteForceOverLayouts) {
  int compared = 0;
  for (std::uint64_t seed = 1; compared < 25 && seed < 200; ++seed) {
    Problem p = testing::random_node_pool(seed, 6, 4);
    if (!has_feasible_plan(p)) continue;
    SCOPED_TRACE(p.name);
    const SolveResult exact = solve(p, Method::exact), brute = solve(p, Method::brute_force);
    ASSERT_TRUE(exact.optimal.value_or(false));
    EXPECT_NEAR(exact.cost.objective, brute.cost.objective, 1e-9 * brute.cost.objective);
    ++compared;
  }
  EXPECT_EQ(compared, 25);
}

TEST(HybridSearch, MemeticReachesTheHybridOptimumOnRandomPools) {
  int pools = 0, optimal = 0;
  double worst_ratio = 1;
  for (std::uint64_t seed = 1; pools < 40 && seed < 300; ++seed) {
    Problem p = testing::random_node_pool(seed, 8, 6);
    if (!has_feasible_plan(p)) continue;
    SCOPED_TRACE(p.name);
    const SolveResult exact = solve(p, Method::exact);
    ASSERT_TRUE(exact.optimal.value_or(false));
    const SolveResult memetic = solve(p, Method::memetic);
    ASSERT_TRUE(memetic.cost.feasible);
    const double ratio = memetic.cost.objective / exact.cost.objective;
    EXPECT_GE(ratio, 1 - 1e-9);  // exact is a proven optimum over the same space
    worst_ratio = std::max(worst_ratio, ratio);
    optimal += ratio <= 1 + 1e-9;
    ++pools;
  }
  ASSERT_EQ(pools, 40);
  // Every pool, as MEMETIC.md ("Stage groups") reports.
  EXPECT_EQ(optimal, pools) << "worst ratio " << worst_ratio;
}

TEST(HybridSearch, NeverWorseThanThePipelineMemetic) {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    Problem p = testing::random_node_pool(seed, 8, 8);
    Problem pipeline = p;
    pipeline.search.parallelism = Parallelism::pipeline;
    if (!has_feasible_plan(pipeline)) continue;
    SCOPED_TRACE(p.name);
    const SolveResult hybrid = solve(p, Method::memetic), alone = solve(pipeline, Method::memetic);
    EXPECT_LE(hybrid.cost.objective, alone.cost.objective);
  }
}

TEST(HybridSearch, SameSeedSamePlanAndSteppingMatchesEvolve) {
  Problem p = testing::random_node_pool(7, 8, 8);
  ASSERT_TRUE(has_feasible_plan(p));
  const SolveResult a = solve(p, Method::memetic), b = solve(p, Method::memetic);
  EXPECT_EQ(a.layout, b.layout);
  ASSERT_EQ(a.plan.size(), b.plan.size());
  for (std::size_t q = 0; q < a.plan.size(); ++q) {
    EXPECT_EQ(a.plan[q].gpu, b.plan[q].gpu);
    EXPECT_EQ(a.plan[q].layers, b.plan[q].layers);
  }
  EXPECT_EQ(a.evaluations, b.evaluations);

  const PreparedProblem prepared = prepare_problem(p, SolveOptions{});
  HybridRun run(prepared.problem, prepared.model, prepared.problem.search);
  while (run.step()) {
  }
  EXPECT_EQ(run.result().cost.objective, a.cost.objective);
  EXPECT_EQ(run.result().layout, a.layout);
}

TEST(HybridSearch, CancelKeepsTheBestPlanSoFar) {
  Problem p = testing::random_node_pool(7, 8, 8);
  const PreparedProblem prepared = prepare_problem(p, SolveOptions{});
  HybridRun run(prepared.problem, prepared.model, prepared.problem.search);
  for (int k = 0; k < 5; ++k) run.step();
  run.cancel();
  EXPECT_FALSE(run.step());
  const SolveResult r = run.result();
  EXPECT_EQ(r.stop_reason, "cancelled");
  EXPECT_FALSE(r.plan.empty());
  EXPECT_FALSE(r.layout.empty());
}

TEST(HybridSearch, BaselinesPickAShapeAndUniformIsOneGroupPerNode) {
  Problem p = four_and_one(2);
  p.model.num_layers = 4;
  p.network.intra_node = LinkSpec{2400, 0.005, 1};
  p.network.default_link = LinkSpec{10, 5, 1};
  const SolveResult uniform = solve(p, Method::uniform);
  ASSERT_EQ(uniform.plan.size(), 2u);  // n0 as one 4-way tensor-parallel group, then g4
  EXPECT_EQ(uniform.layout[static_cast<std::size_t>(uniform.plan[0].gpu)], (DeviceGroup{{2, 0, 1, 3}, 4}));
  EXPECT_EQ(uniform.plan[0].layers, 2);
  const SolveResult metis = solve(p, Method::metis), improved = solve(p, Method::metis_improved);
  EXPECT_GT(metis.layouts_tried, 1);
  // metis-improved searches a superset of metis's plans on each layout, by time.
  EXPECT_LE(improved.cost.iteration_s, metis.cost.iteration_s);
}

TEST(HybridSearch, PlansWhenNoPipelinePlanFits) {
  // H = 6144 in fp16: a layer's weights and optimizer state alone are
  // 4 * 12 H^2 * 2 B = 3.37 GiB, more than the 3 GiB of any GPU here; tensor
  // parallelism divides them (and the 1.46 GiB head of V = 32000) by t.
  Problem p = four_and_one(1);
  p.gpus.pop_back();
  p.model.hidden_size = 6144, p.model.num_layers = 2, p.model.seq_length = 512, p.model.vocab_size = 32000;
  for (Gpu& g : p.gpus) g.memory_gib = 3;
  Problem pipeline = p;
  pipeline.search.parallelism = Parallelism::pipeline;
  EXPECT_FALSE(has_feasible_plan(pipeline));
  const SolveResult r = solve(p, Method::memetic);
  EXPECT_TRUE(r.cost.feasible);
  for (const Stage& stage : r.plan) EXPECT_GT(r.layout[static_cast<std::size_t>(stage.gpu)].tensor_parallel, 1);
}

TEST(HybridSearch, BeatsOneTensorParallelStagePerNodeOnTheSixtyFourA100Pool) {
  const std::string problem = testing::read_example("llama70b-64xa100.json");
  ASSERT_FALSE(problem.empty());
  // The plan an engineer writes by hand: each 8-GPU node one 8-way stage of 10 layers.
  const auto hand = evaluate_request(problem, testing::one_stage_per_node_plan(problem).dump());
  const auto solved = solve_request(problem, SolveOptions{});
  EXPECT_LT(solved["iteration_ms"].get<double>(), hand["iteration_ms"].get<double>());
  EXPECT_GT(solved["gpus_used"].get<int>(), 40);
}

}  // namespace
}  // namespace geotrain
