// Studies with stage groups: the parallelism study (pipeline-only against
// hybrid on the same pool) and the other studies in hybrid mode, where plans
// are groups and GPUs are counted, not stages.
//
// Node pool: H = T = V = 1000, u = 2, B = 8 so M = 4, L = 4, lambda 1;
// node na = a0, a1 on site A (100 TFLOPS, idle 50 W, active 250 W), node nb =
// b0, b1 on site B (50 TFLOPS); every GPU 0.5 GiB; intra_node 2400 Gbps
// 0.001 ms, default 10 Gbps 1 ms. One layer at 100 TFLOPS, u = 2: 1.44 ms
// (the hand pool's 0.72 ms at u = 1); LM head 0.12 ms. A single GPU cannot
// hold all 4 layers (0.67 GiB needed), so a 1-stage plan needs a group.
//   pipeline [a0:2, a1:2]: send a0 -> a1 = 0.001 + 4e6 B / 300e9 B/s
//     = 0.014333 ms; tau0 = 2.88 + 0.014333 = 2.894333, tau1 = 2.88 + 0.12 +
//     0.014333 = 3.014333; T = 5.908667 + 3 * 3.014333 = 14.951667 ms;
//     E = 0.014951667 * 100 W + 4 * (200 * 2.88e-3 + 200 * 3.0e-3)
//       = 1.4951667 + 4.704 = 6.1991667 J.
//   hybrid [a0+a1, t = 2 : 4]: comp = (4 * 1.44 + 0.12) / 2 = 2.94 ms;
//     AR(4e6 B) over 2 GPUs = 2 * (0.001 + 4e6 / (2 * 300e9) s) = 0.0153333 ms,
//     tp = 4 * 4 * 0.0153333 = 0.2453333 ms; T = 4 * 3.1853333 = 12.741333 ms;
//     E = 0.012741333 * 100 + 4 * 2 * 200 * 2.94e-3 = 1.2741333 + 4.704 = 5.9781333 J.
//   gain = (14.951667 - 12.741333) / 14.951667 * 100 = 14.78319 %;
//   energy change = (5.9781333 - 6.1991667) / 6.1991667 * 100 = -3.56553 %.
#include <gtest/gtest.h>

#include <cmath>

#include "model/input_error.hpp"
#include "studies/studies.hpp"

namespace geotrain {
namespace {

using json = nlohmann::json;

#define EXPECT_REL(actual, expected) EXPECT_NEAR((actual), (expected), 1e-6 * std::fabs(expected))

constexpr double kPipelineMs = 14.951666666666667, kPipelineJ = 6.1991666666666667;
constexpr double kHybridMs = 12.741333333333333, kHybridJ = 5.9781333333333333;

json node_pool(const char* parallelism = "hybrid") {
  json gpus = json::array();
  for (const char* id : {"a0", "a1", "b0", "b1"}) {
    const bool a = id[0] == 'a';
    gpus.push_back({{"id", id}, {"site", a ? "A" : "B"}, {"node", a ? "na" : "nb"}, {"peak_tflops", a ? 100 : 50},
                    {"memory_gib", 0.5}, {"idle_w", a ? 50 : 10}, {"active_w", a ? 250 : 60}});
  }
  return {{"name", "two nodes"},
          {"model", {{"hidden_size", 1000}, {"num_layers", 4}, {"seq_length", 1000}, {"vocab_size", 1000},
                     {"micro_batch_size", 2}, {"global_batch_size", 8}}},
          {"gpus", gpus},
          {"network", {{"default", {{"bandwidth_gbps", 10}, {"latency_ms", 1}}},
                       {"intra_node", {{"bandwidth_gbps", 2400}, {"latency_ms", 0.001}}}}},
          {"search", {{"parallelism", parallelism}}},
          {"objective", {{"lambda", 1}}}};
}

json pipeline_plan() {
  return {{"stages", {{{"gpu", "a0"}, {"layers", 2}}, {{"gpu", "a1"}, {"layers", 2}}}}};
}
json group_plan() {
  return {{"stages", {{{"gpus", {"a0", "a1"}}, {"tensor_parallel", 2}, {"layers", 4}}}}};
}

std::vector<std::string> option_errors(const json& options) {
  try {
    parse_study_options(options);
  } catch (const InputError& e) {
    return e.messages();
  }
  return {};
}

TEST(ParallelismStudy, Options) {
  EXPECT_EQ(parse_study_options({{"study", "parallelism"}}).kind, StudyKind::parallelism);
  EXPECT_EQ(parse_study_options({{"study", "parallelism"}}).seeds, 3);  // memetic: as pareto
  EXPECT_EQ(parse_study_options({{"study", "parallelism"}, {"method", "exact"}}).seeds, 1);
  EXPECT_EQ(option_errors({{"study", "parallelism"}, {"lambdas", {0.5}}}),
            std::vector<std::string>{"study.lambdas: only the pareto study takes lambdas, not parallelism"});
  EXPECT_EQ(option_errors({{"study", "parallelism"}, {"values", {1}}}),
            std::vector<std::string>{
                "study.values: only the latency, bandwidth and replicas sweeps take values, not parallelism"});
}

TEST(ParallelismStudy, TwoJobsPerSeedOnTheSamePool) {
  // The problem's own parallelism does not matter: both sides are always run.
  const json jobs = study_jobs(node_pool("pipeline").dump(), {{"study", "parallelism"}, {"seeds", 2}});
  ASSERT_EQ(jobs["jobs"].size(), 4u);
  const char* ids[] = {"pipeline/seed=1", "pipeline/seed=2", "hybrid/seed=1", "hybrid/seed=2"};
  for (int j = 0; j < 4; ++j) {
    const json& job = jobs["jobs"][j];
    EXPECT_EQ(job["id"], ids[j]);
    EXPECT_EQ(job["problem"]["search"]["parallelism"], j < 2 ? "pipeline" : "hybrid");
    EXPECT_EQ(job["options"]["method"], "memetic");
    // Pinned references: both sides optimise the same objective.
    EXPECT_EQ(job["problem"]["objective"]["t_ref_ms"], jobs["jobs"][0]["problem"]["objective"]["t_ref_ms"]);
    EXPECT_EQ(job["problem"]["objective"]["e_ref_j"], jobs["jobs"][0]["problem"]["objective"]["e_ref_j"]);
  }
}

TEST(ParallelismStudy, SummaryOfHandPlans) {
  const json options = {{"study", "parallelism"}, {"method", "exact"}};
  const json s = summarise_study(node_pool().dump(), options,
                                 {{"pipeline/seed=1", pipeline_plan()}, {"hybrid/seed=1", group_plan()}});
  EXPECT_EQ(s["study"], "parallelism");
  EXPECT_REL(s["pipeline"]["iteration_ms"].get<double>(), kPipelineMs);
  EXPECT_REL(s["pipeline"]["energy_j"].get<double>(), kPipelineJ);
  EXPECT_EQ(s["pipeline"]["gpus_used"], 2);
  EXPECT_EQ(s["pipeline"]["stage_count"], 2);
  EXPECT_REL(s["hybrid"]["iteration_ms"].get<double>(), kHybridMs);
  EXPECT_REL(s["hybrid"]["energy_j"].get<double>(), kHybridJ);
  EXPECT_EQ(s["hybrid"]["gpus_used"], 2);  // GPUs, not stages
  EXPECT_EQ(s["hybrid"]["stage_count"], 1);
  EXPECT_EQ(s["hybrid"]["gpus"], "1\u00d7a0, 1\u00d7a1");
  EXPECT_EQ(s["hybrid"]["stages"], group_plan()["stages"]);
  EXPECT_REL(s["gain_pct"].get<double>(), 14.783190);
  EXPECT_REL(s["energy_change_pct"].get<double>(), -3.565533);
  EXPECT_EQ(s["jobs"], 2);
  EXPECT_EQ(s["missing"], 0);

  const json half = summarise_study(node_pool().dump(), options, {{"hybrid/seed=1", group_plan()}});
  EXPECT_TRUE(half["pipeline"].is_null());
  EXPECT_TRUE(half["gain_pct"].is_null());
  EXPECT_EQ(half["missing"], 1);
  const json failed = summarise_study(node_pool().dump(), options,
                                      {{"pipeline/seed=1", {{"error", {{"messages", {"stopped"}}}}}}});
  EXPECT_EQ(failed["pipeline"]["error"], "stopped");
  EXPECT_EQ(failed["failed"], 1);
}

TEST(ParallelismStudy, ExactRunFindsTheGroup) {
  const json s = run_study(node_pool().dump(), {{"study", "parallelism"}, {"method", "exact"}});
  EXPECT_EQ(s["pipeline"]["stages"], pipeline_plan()["stages"]);
  EXPECT_EQ(s["hybrid"]["stages"], group_plan()["stages"]);
  EXPECT_REL(s["gain_pct"].get<double>(), 14.783190);
  // CSV: one row a side, a group as its GPUs joined by + and its tensor degree.
  const std::string csv = study_summary_csv(s);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "parallelism,job,feasible,iteration_ms,energy_j,objective,gpus_used,stage_count,gpus,plan,gain_pct,error");
  EXPECT_NE(csv.find("\nhybrid,hybrid/seed=1,true,"), std::string::npos);
  EXPECT_NE(csv.find(",a0+a1/t2:4,"), std::string::npos);
  EXPECT_NE(csv.find(",a0:2 a1:2,"), std::string::npos);
}

TEST(HybridStudies, SubsetCountsGpus) {
  // k counts stages; k = 1 fits only as a group (no single GPU holds 4 layers).
  const json s = run_study(node_pool().dump(), {{"study", "subset"}, {"method", "exact"}});
  EXPECT_EQ(s["parallelism"], "hybrid");
  ASSERT_EQ(s["points"].size(), 4u);
  const json& one = s["points"][0];
  EXPECT_EQ(one["k"], 1);
  ASSERT_TRUE(one["feasible"].get<bool>());
  EXPECT_EQ(one["stages"], group_plan()["stages"]);
  EXPECT_EQ(one["gpus_used"], 2);
  EXPECT_REL(one["iteration_ms"].get<double>(), kHybridMs);
  for (const json& p : s["points"]) {
    if (!p.contains("stages")) continue;
    int gpus = 0;
    for (const json& stage : p["stages"]) gpus += stage.contains("gpus") ? static_cast<int>(stage["gpus"].size()) : 1;
    EXPECT_EQ(p["gpus_used"], gpus) << p.dump();
  }
  EXPECT_EQ(s["best_k"], 1);
  // In pipeline mode the same pool has no 1-stage plan.
  const json pipeline = run_study(node_pool("pipeline").dump(), {{"study", "subset"}, {"method", "exact"}});
  EXPECT_FALSE(pipeline["points"][0]["feasible"].get<bool>());
  EXPECT_FALSE(pipeline.contains("parallelism"));
}

TEST(HybridStudies, ParetoAndSplitTakeGroupPlans) {
  const json pareto = summarise_study(node_pool().dump(), {{"study", "pareto"}, {"lambdas", {0, 1}}, {"seeds", 1}},
                                      {{"lambda=0/seed=1", pipeline_plan()}, {"lambda=1/seed=1", group_plan()}});
  ASSERT_EQ(pareto["table"].size(), 2u);
  EXPECT_EQ(pareto["table"][1]["gpus_used"], 2);
  EXPECT_REL(pareto["table"][1]["iteration_ms"].get<double>(), kHybridMs);
  // The group plan is faster and uses less energy: it dominates, and alone is the frontier.
  EXPECT_FALSE(pareto["table"][0]["on_frontier"].get<bool>());
  EXPECT_TRUE(pareto["table"][1]["on_frontier"].get<bool>());

  const json split = summarise_study(node_pool().dump(), {{"study", "split"}}, {{"split/seed=1", group_plan()}});
  EXPECT_EQ(split["gpus"], json({"a0+a1"}));
  EXPECT_REL(split["uniform"]["iteration_ms"].get<double>(), kHybridMs);  // one stage: the same split
  EXPECT_EQ(split["gain_pct"], 0.0);
}

}  // namespace
}  // namespace geotrain
