// The replica search (core/search/replicas/): shares balanced by hand-worked
// cases, the candidate partitions, plans carried to alike pools, the search
// never worse than one pipeline and held against brute force over every
// replica plan of many small random pools.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "api/planner.hpp"
#include "model/input_error.hpp"
#include "model/replica_cost_model.hpp"
#include "random_pool.hpp"
#include "search/random.hpp"
#include "search/replicas/micro_batch_shares.hpp"
#include "search/replicas/replica_brute_force.hpp"
#include "search/replicas/replica_pools.hpp"
#include "search/replicas/template_fit.hpp"
#include "test_support.hpp"

namespace geotrain {
namespace {

TEST(MicroBatchShares, MinimiseTheSlowestPipeline) {
  // Replica 0 drains after 10 + 2 (m - 1), replica 1 after 10 + 4 (m - 1); M = 9.
  // 6 + 3: max(20, 18) = 20; 5 + 4: max(18, 22) = 22; 7 + 2: max(22, 14) = 22. So 6 + 3.
  EXPECT_EQ(balance_micro_batches({{10, 2}, {10, 4}}, 9), (std::vector<std::int64_t>{6, 3}));
  // As many micro-batches as replicas: one each.
  EXPECT_EQ(balance_micro_batches({{1, 1}, {5, 5}, {9, 9}}, 3), (std::vector<std::int64_t>{1, 1, 1}));
  // Equal replicas, M = 10 over 4: 3, 3, 2, 2 (both orders drain at 3 micro-batches; the first take more).
  EXPECT_EQ(balance_micro_batches({{1, 1}, {1, 1}, {1, 1}, {1, 1}}, 10), (std::vector<std::int64_t>{3, 3, 2, 2}));
  // A replica whose first micro-batch alone is slower than the others' whole share keeps one.
  EXPECT_EQ(balance_micro_batches({{100, 1}, {1, 1}}, 50), (std::vector<std::int64_t>{1, 49}));
  // One replica takes every micro-batch, whatever the rounding of its drain time
  // (0.1 s per further micro-batch: 0.7 / 0.1 is 6.999... in doubles).
  EXPECT_EQ(balance_micro_batches({{0.3, 0.1}}, 8), (std::vector<std::int64_t>{8}));
  for (double step : {0.1, 0.3, 0.7, 1e-9, 3e7})
    for (std::int64_t M : {2, 7, 8, 100, 1000}) {
      const auto shares = balance_micro_batches({{step * 3, step}, {step * 2, step * 1.5}, {step, step}}, M);
      EXPECT_EQ(shares[0] + shares[1] + shares[2], std::max<std::int64_t>(M, 3)) << step << " " << M;
    }
}

Problem two_site_nodes() { return testing::two_sites_of_two_nodes(); }

TEST(ReplicaPools, FamiliesOfWholeNodes) {
  const Problem p = two_site_nodes();
  const auto candidates = replica_pool_candidates(p, 0, 8);
  std::vector<std::string> labels;
  for (const auto& c : candidates) labels.push_back(c.label);
  EXPECT_EQ(labels, (std::vector<std::string>{"one per site", "2 per site", "2 per site, the strongest site"}));
  EXPECT_EQ(candidates[0].pools, (std::vector<std::vector<int>>{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  EXPECT_EQ(candidates[1].pools, (std::vector<std::vector<int>>{{0, 1}, {2, 3}, {4, 5}, {6, 7}}));
  // A fixed count keeps only partitions of that many pools; 3 has none here but runs of nodes.
  EXPECT_EQ(replica_pool_candidates(p, 4, 8).size(), 1u);
  const auto three = replica_pool_candidates(p, 3, 8);
  ASSERT_EQ(three.size(), 1u);
  EXPECT_EQ(three[0].pools.size(), 3u);
  // At most two replicas allowed (say M = 2): the 4-pool partition goes.
  EXPECT_EQ(replica_pool_candidates(p, 0, 2).size(), 2u);
}

TEST(TemplateFit, CarriesAPlanNodeForNodeToAnAlikePool) {
  Problem p = two_site_nodes();
  for (auto& g : p.gpus) g.peak_tflops = 100;  // both sites alike
  const GroupPlan lead = {GroupStage{{0, 1}, 2, 3}, GroupStage{{2}, 1, 1}};
  const auto carried = carry_plan(p, lead, {0, 1, 2, 3}, {4, 5, 6, 7});
  ASSERT_TRUE(carried);
  EXPECT_EQ((*carried)[0].gpus, (std::vector<int>{4, 5}));
  EXPECT_EQ((*carried)[0].tensor_parallel, 2);
  EXPECT_EQ((*carried)[1].gpus, (std::vector<int>{6}));
  // Unlike pools (site B slower): nothing to carry; the template is fitted instead,
  // its heavier stage (3 layers) on the faster group.
  const Problem q = two_site_nodes();
  EXPECT_FALSE(carry_plan(q, lead, {0, 1, 2, 3}, {4, 5, 6, 7}));
  const auto fitted = fit_template(q, {3, 1}, {4, 5, 6, 7}, true, LinkTable(q));
  ASSERT_TRUE(fitted);
  EXPECT_EQ(fitted->size(), 2u);
  EXPECT_EQ((*fitted)[0].layers, 3);
}

SolveResult solve(Problem p, Method method = Method::memetic) {
  SolveOptions options;
  options.method = method;
  const PreparedProblem prepared = prepare_problem(std::move(p), options);
  return run_method(prepared, options);
}

PlanCost cost_of(const Problem& p, const SolveResult& r) {
  CostModel objective(p);
  SolveOptions options;
  objective.copy_objective_from(prepare_problem(p, options).model);
  const ReplicaPlan plan = !r.replicas.empty() ? r.replicas
                         : single_replica(r.layout.empty() ? to_group_plan(r.plan) : to_group_plan(r.plan, r.layout),
                                          p.model.micro_batches());
  const ReplicaPlanModel m(p, plan, objective);
  return m.model.evaluate(m.view());
}

TEST(ReplicaSearch, AutoIsNeverWorseThanOnePipelineAndFixedCountsAreHonoured) {
  Problem p = two_site_nodes();
  p.model.global_batch_size = 16;
  const SolveResult one = solve(p);
  p.search.replicas_auto = true;
  const SolveResult automatic = solve(p);
  EXPECT_LE(automatic.cost.objective, one.cost.objective);
  EXPECT_EQ(cost_of(p, automatic).objective, automatic.cost.objective);  // the reported cost is the plan's
  p.search.replicas_auto = false;
  p.search.replicas = 4;
  const SolveResult four = solve(p);
  ASSERT_EQ(four.replicas.size(), 4u);
  std::int64_t shares = 0;
  for (const Replica& r : four.replicas) shares += r.micro_batches;
  EXPECT_EQ(shares, 16);
  EXPECT_EQ(cost_of(p, four).objective, four.cost.objective);
}

TEST(ReplicaSearch, RefusesCountsThePoolCannotTake) {
  Problem p = two_site_nodes();  // M = 8, 8 GPUs
  p.search.replicas = 9;
  EXPECT_THROW(solve(p), InputError);
  p.model.global_batch_size = 4;
  p.search.replicas = 6;
  try {
    solve(p);
    FAIL() << "6 replicas of M = 4";
  } catch (const InputError& e) {
    EXPECT_EQ(e.messages().front(), "search.replicas: 6 replicas need at least 6 micro-batches, M = "
                                    "global_batch_size / micro_batch_size = 4");
  }
}

TEST(ReplicaSearch, SameSeedSamePlan) {
  Problem p = two_site_nodes();
  p.model.global_batch_size = 16;
  p.search.replicas_auto = true;
  p.search.parallelism = Parallelism::hybrid;
  const SolveResult a = solve(p), b = solve(p);
  EXPECT_EQ(a.cost.objective, b.cost.objective);
  ASSERT_EQ(a.replicas.size(), b.replicas.size());
  for (std::size_t r = 0; r < a.replicas.size(); ++r) {
    EXPECT_EQ(a.replicas[r].micro_batches, b.replicas[r].micro_batches);
    ASSERT_EQ(a.replicas[r].stages.size(), b.replicas[r].stages.size());
    for (std::size_t q = 0; q < a.replicas[r].stages.size(); ++q)
      EXPECT_EQ(a.replicas[r].stages[q].gpus, b.replicas[r].stages[q].gpus);
  }
}

// Small pools where replicas often pay: several GPUs that each hold the whole
// model, many micro-batches, small gradients; sites joined by links of every
// speed, some GPUs slower than others. Drawn from Rng, so the same everywhere.
Problem replica_pool(std::uint64_t seed, bool nodes) {
  Rng rng(seed);
  Problem p;
  p.name = "replica pool " + std::to_string(seed);
  p.model.hidden_size = 512 * rng.uniform_int(1, 4);
  p.model.num_layers = rng.uniform_int(2, nodes ? 3 : 4);
  p.model.seq_length = 1024 * rng.uniform_int(1, 4);
  p.model.vocab_size = 1000 * rng.uniform_int(1, 10);
  p.model.micro_batch_size = nodes ? 2 : 1;
  p.model.global_batch_size = p.model.micro_batch_size * rng.uniform_int(nodes ? 2 : 4, nodes ? 6 : 12);
  const int n = nodes ? 2 * rng.uniform_int(2, 3) : rng.uniform_int(4, 6);
  const int sites = rng.uniform_int(1, 3);
  for (int i = 0; i < n; ++i) {
    Gpu g;
    g.id = "g" + std::to_string(i);
    g.site = std::string(1, static_cast<char>('A' + (nodes ? (i / 2) % sites : rng.uniform_int(0, sites - 1))));
    if (nodes) g.node = "n" + std::to_string(i / 2);
    g.peak_tflops = nodes && i % 2 ? p.gpus.back().peak_tflops : 25.0 * rng.uniform_int(1, 8);
    g.memory_gib = 40;
    g.idle_w = 10.0 * rng.uniform_int(1, 6);
    g.active_w = g.idle_w + 50.0 * rng.uniform_int(1, 6);
    p.gpus.push_back(g);
  }
  p.network.intra_node = LinkSpec{800, 0.005, 1};
  p.network.intra_site = LinkSpec{50.0 * rng.uniform_int(1, 8), 0.05, 1};
  p.network.inter_site = LinkSpec{5.0 * rng.uniform_int(1, 40), 1.0 * rng.uniform_int(1, 40), 1};
  p.objective.lambda = 0.5 * rng.uniform_int(1, 2);
  p.objective.t_ref_ms = 100, p.objective.e_ref_j = 100;
  p.search.parallelism = nodes ? Parallelism::hybrid : Parallelism::pipeline;
  p.search.replicas_auto = true;
  p.search.max_generations = 60, p.search.patience = 20;
  return p;
}

struct Comparison {
  int compared = 0, replica_optima = 0, optimal = 0;
  std::vector<double> ratios;
};

Comparison compare_with_brute_force(bool nodes, int pools) {
  Comparison c;
  for (std::uint64_t seed = 1; c.compared < pools && seed < 10'000; ++seed) {
    const Problem p = replica_pool(seed, nodes);
    SolveResult best, found;
    try {
      best = solve(p, Method::brute_force);
      found = solve(p);
    } catch (const PlanningError&) {
      continue;  // nothing fits, or too many plans for brute force
    }
    ++c.compared;
    EXPECT_TRUE(best.cost.feasible && found.cost.feasible) << seed;
    EXPECT_TRUE(best.optimal.value_or(false)) << seed;
    EXPECT_GE(found.cost.objective, best.cost.objective * (1 - 1e-12)) << seed;  // nothing beats every plan
    c.ratios.push_back(found.cost.objective / best.cost.objective);
    c.replica_optima += best.replicas.size() > 1;
    c.optimal += c.ratios.back() < 1 + 1e-9;
  }
  std::sort(c.ratios.begin(), c.ratios.end());
  std::printf("replica search / brute force, %s: %d pools (%d best with replicas), %d optimal, median %.4f, "
              "worst %.4f\n", nodes ? "stage groups" : "pipeline", c.compared, c.replica_optima, c.optimal,
              c.ratios[c.ratios.size() / 2], c.ratios.back());
  return c;
}

// Many small random pools: the search (auto) against every replica plan.
TEST(ReplicaSearch, AgainstBruteForceOnSmallPipelinePools) {
  const Comparison c = compare_with_brute_force(false, 60);
  ASSERT_EQ(c.compared, 60);
  EXPECT_GE(c.replica_optima, 20);  // the pools exercise replicas
  EXPECT_LT(c.ratios[c.ratios.size() / 2], 1.02);
  EXPECT_LT(c.ratios.back(), 1.2);
}

TEST(ReplicaSearch, AgainstBruteForceOnSmallNodePools) {
  const Comparison c = compare_with_brute_force(true, 20);
  ASSERT_EQ(c.compared, 20);
  EXPECT_GE(c.replica_optima, 5);
  EXPECT_LT(c.ratios[c.ratios.size() / 2], 1.02);
  EXPECT_LT(c.ratios.back(), 1.2);
}

}  // namespace
}  // namespace geotrain
