// Exact's live progress (core/search/exact/exact.cpp): the nodes expanded and the
// least lower bound over what is still open, as the page shows them during a
// run, and the stepping session that forwards them (core/api/planning_session).
// The live bound is proven like the final gap: it never exceeds the incumbent
// of its moment, nor the bound the run ends with (the open set only shrinks,
// and a node's children are bounded no lower than the node).
#include "search/exact/exact.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/planning_session.hpp"
#include "model/feasibility.hpp"
#include "model/problem_json.hpp"
#include "random_pool.hpp"

namespace geotrain {
namespace {

using testing::PoolShape;
using testing::random_pool;

// Big enough that a 1.5 s search reports several times (every 200 ms of it).
Problem slow_pool() { return random_pool(6, PoolShape{16, 16, 32, 32, true, 1.0}); }

struct Seen {
  std::int64_t nodes;
  double best, bound;
};

TEST(ExactProgress, ReportsGrowingNodesAndAProvenLowerBound) {
  const CostModel model(slow_pool());
  ASSERT_TRUE(any_feasible_plan(model));
  ExactSettings settings;
  settings.time_limit_s = 1.5;
  std::vector<Seen> seen;
  const SolveResult r = solve_exact(model, settings, {}, [&](const Progress& p) {
    EXPECT_TRUE(p.nodes.has_value());
    if (p.lower_bound && p.has_plan) seen.push_back({*p.nodes, p.best_cost.objective, *p.lower_bound});
    return true;
  });
  ASSERT_GE(seen.size(), 2u) << "the search should report a bound more than once";
  const double final_bound = r.optimal.value_or(false) ? r.cost.objective : r.cost.objective * (1.0 - r.gap.value_or(0));
  for (std::size_t k = 0; k < seen.size(); ++k) {
    SCOPED_TRACE("report " + std::to_string(k));
    EXPECT_GT(seen[k].nodes, 0);
    if (k > 0) EXPECT_GE(seen[k].nodes, seen[k - 1].nodes);
    EXPECT_LE(seen[k].bound, seen[k].best);
    EXPECT_GE(seen[k].bound, 0.0);
    EXPECT_LE(seen[k].bound, final_bound * (1 + 1e-9));
  }
  EXPECT_LE(seen.back().nodes, r.nodes);
}

TEST(ExactProgress, TheSteppingSessionForwardsAOneGoMethodsProgress) {
  const Problem problem = slow_pool();
  nlohmann::json doc = problem_to_json(problem);
  doc["search"]["time_limit_s"] = 1.0;
  SolveOptions options;
  options.method = Method::exact;
  PlanningSession session(doc.dump(), options);
  int reports = 0;
  const bool done = session.step(50, [&](const Progress& p) {
    ++reports;
    EXPECT_TRUE(p.nodes.has_value());
    return true;
  });
  EXPECT_TRUE(done);  // exact runs to its end (here its time limit) in the first step
  EXPECT_GE(reports, 2);
  const nlohmann::ordered_json progress = session.progress_json();
  EXPECT_TRUE(progress.contains("nodes"));
  EXPECT_EQ(session.result_json()["method"], "exact");
}

TEST(ExactProgress, AFalseAnswerFromTheSessionsReportCancels) {
  nlohmann::json doc = problem_to_json(slow_pool());
  doc["search"]["time_limit_s"] = 30.0;
  SolveOptions options;
  options.method = Method::exact;
  PlanningSession session(doc.dump(), options);
  session.step(50, [](const Progress&) { return false; });
  const nlohmann::ordered_json result = session.result_json();
  EXPECT_EQ(result["stop_reason"], "cancelled");
  EXPECT_EQ(result["optimal"], false);
}

}  // namespace
}  // namespace geotrain
