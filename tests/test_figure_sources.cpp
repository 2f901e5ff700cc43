// Figure sources (issue 26, point 3): optional notes on where each GPU and
// link figure came from; checked, kept by validate, never read by the model.
#include <gtest/gtest.h>

#include "model/cost_model.hpp"
#include "model/figure_sources.hpp"
#include "problem_doc.hpp"

namespace geotrain {
namespace {

using testing::base_doc;
using testing::errors_of;
using testing::has_error;

nlohmann::json with_sources() {
  nlohmann::json doc = base_doc();
  doc["gpus"][0]["sources"] = {{"compute_util", "calibrated: 1 run (p.json 812 ms), rms error 0%"},
                               {"memory_gib", "imported: node1.csv line 2 (nvidia-smi memory.total 81920 MiB)"}};
  doc["network"]["default"]["sources"] = {{"bandwidth_gbps", "imported: a-b.iperf.json"}};
  doc["network"]["site_links"] = {{{"from", "A"}, {"to", "B"}, {"bandwidth_gbps", 1}, {"latency_ms", 9},
                                   {"sources", {{"latency_ms", "assumed: as network.default"}}}}};
  doc["network"]["links"] = {{{"from", "g0"}, {"to", "g1"}, {"bandwidth_gbps", 5}, {"latency_ms", 2},
                              {"sources", {{"util", "typed"}}}}};
  return doc;
}

TEST(FigureSourcesTest, KeptOnTheParsedProblemAndWrittenBack) {
  const ParsedProblem parsed = parse_problem(with_sources());
  EXPECT_TRUE(parsed.warnings.empty());
  const Problem& p = parsed.problem;
  EXPECT_EQ(p.gpus[0].sources.at("compute_util"), "calibrated: 1 run (p.json 812 ms), rms error 0%");
  EXPECT_TRUE(p.gpus[1].sources.empty());
  EXPECT_EQ(p.network.level_sources.at("default").at("bandwidth_gbps"), "imported: a-b.iperf.json");
  EXPECT_EQ(p.network.site_links[0].sources.at("latency_ms"), "assumed: as network.default");
  EXPECT_EQ(p.network.links[0].sources.at("util"), "typed");
  const nlohmann::json out = problem_to_json(p);
  EXPECT_EQ(out["gpus"][0]["sources"], with_sources()["gpus"][0]["sources"]);
  EXPECT_FALSE(out["gpus"][1].contains("sources"));
  EXPECT_EQ(out["network"]["default"]["sources"]["bandwidth_gbps"], "imported: a-b.iperf.json");
  EXPECT_EQ(out["network"]["site_links"][0]["sources"]["latency_ms"], "assumed: as network.default");
  EXPECT_EQ(out["network"]["links"][0]["sources"]["util"], "typed");
  // ... and read again the same.
  EXPECT_EQ(problem_to_json(parse_problem(out).problem), out);
}

// The replica fields (issue 21) live beside sources: a capacity may carry one, and
// validate keeps capacity_gbps, search.replicas and training.sync_* with the sources.
TEST(FigureSourcesTest, ReplicaFieldsAndTheirSourcesAreKept) {
  nlohmann::json doc = with_sources();
  doc["network"]["inter_site"] = {{"bandwidth_gbps", 10}, {"latency_ms", 20}, {"capacity_gbps", 40},
                                  {"sources", {{"capacity_gbps", "typed"}}}};
  doc["network"]["site_links"][0]["capacity_gbps"] = 2.5;
  doc["network"]["site_links"][0]["sources"]["capacity_gbps"] = "assumed: as network.inter_site";
  doc["search"]["replicas"] = "auto";
  doc["training"] = {{"sync_every", 4}, {"sync_compression", 0.25}};
  const ParsedProblem parsed = parse_problem(doc);
  EXPECT_TRUE(parsed.warnings.empty());
  EXPECT_EQ(parsed.problem.network.inter_site->capacity_gbps, 40);
  EXPECT_EQ(parsed.problem.network.level_sources.at("inter_site").at("capacity_gbps"), "typed");
  const nlohmann::json out = problem_to_json(parsed.problem);
  EXPECT_EQ(out["network"]["inter_site"]["capacity_gbps"], 40);
  EXPECT_EQ(out["network"]["inter_site"]["sources"]["capacity_gbps"], "typed");
  EXPECT_EQ(out["network"]["site_links"][0]["capacity_gbps"], 2.5);
  EXPECT_EQ(out["network"]["site_links"][0]["sources"]["capacity_gbps"], "assumed: as network.inter_site");
  EXPECT_EQ(out["search"]["replicas"], "auto");
  EXPECT_EQ(out["training"]["sync_every"], 4);
  EXPECT_EQ(out["training"]["sync_compression"], 0.25);
  EXPECT_EQ(problem_to_json(parse_problem(out).problem), out);
}

TEST(FigureSourcesTest, TheModelNeverReadsThem) {
  const Problem plain = parse_problem(base_doc()).problem;
  const Problem noted = parse_problem(with_sources()).problem;
  nlohmann::json doc = with_sources();
  doc["network"].erase("site_links");
  doc["network"].erase("links");
  const Problem same_links = parse_problem(doc).problem;
  const Plan plan = {{0, 2}, {1, 2}};
  const PlanCost a = CostModel(plain).evaluate(plan), b = CostModel(same_links).evaluate(plan);
  EXPECT_EQ(a.iteration_s, b.iteration_s);
  EXPECT_EQ(a.energy_j, b.energy_j);
  EXPECT_EQ(noted.gpus[0].compute_util, plain.gpus[0].compute_util);
}

TEST(FigureSourcesTest, BadSourcesAreRefusedNamingTheField) {
  nlohmann::json doc = base_doc();
  doc["gpus"][0]["sources"] = {{"compute_util", "measured by me"}, {"memory_gib", 5}, {"speed", "typed"}};
  doc["gpus"][1]["sources"] = "imported";
  doc["network"]["default"]["sources"] = {{"latency_ms", std::string(600, 'x')}};
  const auto errors = errors_of(doc);
  EXPECT_TRUE(has_error(errors, "gpus[0].sources.compute_util: must start with one of typed, catalogue, imported, "
                                "calibrated, assumed (then \": \" and a detail), got \"measured by me\""));
  EXPECT_TRUE(has_error(errors, "gpus[0].sources.memory_gib: must be text such as \"imported: node1.csv line 2\", got 5"));
  EXPECT_TRUE(has_error(errors, "gpus[1].sources: must be an object mapping figures to where they came from, got \"imported\""));
  EXPECT_TRUE(has_error(errors, "network.default.sources.latency_ms: must be at most 500 characters, got 600"));
  doc = base_doc();
  doc["gpus"][0]["sources"] = {{"speed", "typed"}};
  const ParsedProblem parsed = parse_problem(doc);
  ASSERT_EQ(parsed.warnings.size(), 1u);
  EXPECT_EQ(parsed.warnings[0], "gpus[0].sources.speed: not a figure that can carry a source, ignored");
}

TEST(FigureSourcesTest, KindsAreWholeWords) {
  EXPECT_EQ(source_kind("imported: a.csv line 2"), "imported");
  EXPECT_EQ(source_kind("typed"), "typed");
  EXPECT_EQ(source_kind("typedx"), "");
  EXPECT_EQ(source_kind("calibrated:no space"), "");
  EXPECT_EQ(source_kind(""), "");
}

}  // namespace
}  // namespace geotrain
