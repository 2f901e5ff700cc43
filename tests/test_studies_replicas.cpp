// The replicas study (studies.hpp): one pipeline against replicas per wide-area
// bandwidth and sync period, its jobs, summary, CSV and refusals.
#include <gtest/gtest.h>

#include "model/input_error.hpp"
#include "model/problem_json.hpp"
#include "problem_doc.hpp"
#include "studies/studies.hpp"

namespace geotrain {
namespace {

using json = nlohmann::json;

// Two sites of one 4-GPU node each (100 TFLOPS), M = 16: a replica per site
// pays when the wide-area link is fast and loses when it is slow (a replica
// takes whole nodes, so at 0.1 Gbps one pipeline inside a site wins).
json two_site_doc() {
  json doc = json::parse(R"({
    "name": "two sites of nodes",
    "model": {"hidden_size": 1024, "num_layers": 4, "seq_length": 4096, "vocab_size": 1000,
              "micro_batch_size": 1, "global_batch_size": 16},
    "gpus": [],
    "network": {"intra_node": {"bandwidth_gbps": 800, "latency_ms": 0.005},
                "intra_site": {"bandwidth_gbps": 100, "latency_ms": 0.05},
                "inter_site": {"bandwidth_gbps": 10, "latency_ms": 1}},
    "objective": {"lambda": 1},
    "search": {"max_generations": 40, "patience": 10}
  })");
  for (int i = 0; i < 8; ++i)
    doc["gpus"].push_back({{"id", "g" + std::to_string(i)}, {"site", i < 4 ? "A" : "B"},
                           {"node", "n" + std::to_string(i / 4)}, {"peak_tflops", 100}, {"memory_gib", 80},
                           {"idle_w", 50}, {"active_w", 300}});
  return doc;
}

TEST(ReplicasStudy, JobsPerBandwidthAndSyncPeriod) {
  const json jobs = study_jobs(two_site_doc().dump(),
                               {{"study", "replicas"}, {"values", {1, 400}}, {"sync_every", {1, 10}}});
  ASSERT_EQ(jobs["jobs"].size(), 8u);  // 2 bandwidths x 2 periods x {one pipeline, replicas}, one seed
  EXPECT_EQ(jobs["jobs"][0]["id"], "bandwidth=1/sync_every=1/one-pipeline/seed=1");
  EXPECT_EQ(jobs["jobs"][1]["id"], "bandwidth=1/sync_every=1/replicas/seed=1");
  EXPECT_EQ(jobs["jobs"][1]["problem"]["search"]["replicas"], "auto");
  EXPECT_EQ(jobs["jobs"][3]["problem"]["training"]["sync_every"], 10);
  EXPECT_EQ(jobs["jobs"][4]["problem"]["network"]["inter_site"]["bandwidth_gbps"], 400);
}

TEST(ReplicasStudy, ReplicasNeverLoseAndWinWhenTheWideAreaIsFast) {
  const json summary =
      json::parse(run_study(two_site_doc().dump(), {{"study", "replicas"}, {"values", {0.1, 400}}}).dump());
  ASSERT_EQ(summary["points"].size(), 2u);
  for (const auto& p : summary["points"])
    EXPECT_LE(p["replicas"]["objective"].get<double>(), p["one_pipeline"]["objective"].get<double>() * (1 + 1e-12));
  // 400 Gbps: two or more replicas, faster than one pipeline.
  const json& fast = summary["points"][1];
  EXPECT_EQ(fast["winner"], "replicas");
  EXPECT_GE(fast["replicas"]["replica_count"].get<int>(), 2);
  EXPECT_GT(fast["gain_pct"].get<double>(), 0);
  EXPECT_EQ(summary["crossover"][0]["lowest_gbps"], 400);
  EXPECT_EQ(summary["missing"], 0);
  EXPECT_EQ(summary["failed"], 0);
  const std::string csv = study_summary_csv(run_study(two_site_doc().dump(), {{"study", "replicas"}, {"values", {400}}}));
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "bandwidth_gbps,sync_every,one_pipeline_iteration_ms,one_pipeline_gpus_used,replicas_iteration_ms,"
            "replicas_gpus_used,replica_count,winner,gain_pct");
}

TEST(ReplicasStudy, RefusesWhatItCannotSweep) {
  using testing::has_error;
  auto errors = [](const json& options, json doc = two_site_doc()) {
    try {
      study_jobs(doc.dump(), options);
    } catch (const InputError& e) {
      return e.messages();
    }
    return std::vector<std::string>{};
  };
  EXPECT_TRUE(has_error(errors({{"study", "replicas"}, {"sync_every", {1, 2.5}}}),
                        "study.sync_every[1]: must be an integer in [1, 1000000000], got 2.5"));
  EXPECT_TRUE(has_error(errors({{"study", "bandwidth"}, {"sync_every", {1}}}),
                        "study.sync_every: only the replicas study takes sync_every, not bandwidth"));
  json one_site = two_site_doc();
  for (auto& g : one_site["gpus"]) g["site"] = "A";
  EXPECT_TRUE(has_error(errors({{"study", "replicas"}}, one_site),
                        "study: replicas sweep needs GPUs on at least two sites"));
}

TEST(ReplicasStudy, OtherStudiesPlanOnePipelineAndSaySo) {
  json doc = two_site_doc();
  doc["search"]["replicas"] = "auto";
  const json jobs = study_jobs(doc.dump(), {{"study", "subset"}});
  EXPECT_FALSE(jobs["jobs"][0]["problem"]["search"].contains("replicas"));
  ASSERT_TRUE(jobs.contains("warnings"));
  EXPECT_EQ(jobs["warnings"].back(), "search.replicas: the subset study plans one pipeline per point; the replicas "
                                     "study compares one pipeline with replicas");
}

}  // namespace
}  // namespace geotrain
