// Replica formats (replicas.md): search.replicas, capacity_gbps,
// training.sync_every and sync_compression, and replica plan files with every
// rule refused by a message naming the field.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "api/api.hpp"
#include "model/input_error.hpp"
#include "model/problem_json.hpp"
#include "model/replica_plan_json.hpp"
#include "problem_doc.hpp"

namespace geotrain {
namespace {

using json = nlohmann::json;

// Four GPUs, a0 a1 on site A and b0 b1 on site B; L = 4, u = 1, B = 4 (M = 4).
json two_site_doc() {
  return json::parse(R"({
    "name": "two sites",
    "model": {"hidden_size": 1000, "num_layers": 4, "seq_length": 1000, "vocab_size": 1000,
              "micro_batch_size": 1, "global_batch_size": 4},
    "gpus": [
      {"id": "a0", "site": "A", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
      {"id": "a1", "site": "A", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
      {"id": "b0", "site": "B", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
      {"id": "b1", "site": "B", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250}
    ],
    "network": {"intra_site": {"bandwidth_gbps": 100, "latency_ms": 0.1},
                "inter_site": {"bandwidth_gbps": 10, "latency_ms": 10, "capacity_gbps": 4},
                "site_links": [{"from": "A", "to": "B", "bandwidth_gbps": 20, "latency_ms": 8, "capacity_gbps": 6}]},
    "search": {"replicas": "auto"},
    "training": {"sync_every": 10, "sync_compression": 0.5}
  })");
}

std::vector<std::string> plan_errors(const std::string& plan) {
  try {
    parse_replica_plan(json::parse(plan), parse_problem(two_site_doc()).problem);
  } catch (const InputError& e) {
    return e.messages();
  }
  return {};
}

TEST(ReplicaFormats, ReadsTheNewFields) {
  const Problem p = parse_problem(two_site_doc()).problem;
  EXPECT_TRUE(p.search.replicas_auto);
  EXPECT_EQ(p.network.inter_site->capacity_gbps, 4);
  EXPECT_EQ(p.network.site_links[0].link.capacity_gbps, 6);
  EXPECT_EQ(p.training.sync_every, 10);
  EXPECT_EQ(p.training.sync_compression, 0.5);
  // Defaults: one pipeline, synchronous, uncompressed, no capacity.
  const Problem base = parse_problem(testing::base_doc()).problem;
  EXPECT_EQ(base.search.replicas, 1);
  EXPECT_FALSE(base.search.replicas_auto);
  EXPECT_EQ(base.training.sync_every, 1);
  EXPECT_EQ(base.training.sync_compression, 1);
  EXPECT_EQ(base.network.default_link->capacity_gbps, 0);
  json fixed = two_site_doc();
  fixed["search"]["replicas"] = 3;
  EXPECT_EQ(parse_problem(fixed).problem.search.replicas, 3);
}

TEST(ReplicaFormats, ValidateWritesThemBackAndOldFilesStayAsTheyWere) {
  const json out = json::parse(validate_request(two_site_doc().dump())["problem"].dump());
  EXPECT_EQ(out["search"]["replicas"], "auto");
  EXPECT_EQ(out["network"]["inter_site"]["capacity_gbps"], 4);
  EXPECT_EQ(out["network"]["site_links"][0]["capacity_gbps"], 6);
  EXPECT_EQ(out["training"]["sync_every"], 10);
  EXPECT_EQ(out["training"]["sync_compression"], 0.5);
  const json base = json::parse(validate_request(testing::base_doc().dump())["problem"].dump());
  EXPECT_FALSE(base["search"].contains("replicas"));
  EXPECT_FALSE(base.contains("training"));
  EXPECT_FALSE(base["network"]["default"].contains("capacity_gbps"));
}

TEST(ReplicaFormats, RefusesBadSettingsNamingTheField) {
  auto with = [](const char* where, const char* key, json value) {
    json doc = two_site_doc();
    doc[where][key] = std::move(value);
    return doc;
  };
  EXPECT_ERROR(with("search", "replicas", "two"), "search.replicas: must be 1, an integer number of replicas or \"auto\", got \"two\"");
  EXPECT_ERROR(with("search", "replicas", 0), "search.replicas: must be in [1, 512], got 0");
  EXPECT_ERROR(with("search", "replicas", 513), "search.replicas: must be in [1, 512], got 513");
  EXPECT_ERROR(with("search", "replicas", 1.5), "search.replicas: must be an integer, got 1.5");
  EXPECT_ERROR(with("training", "sync_every", 0), "training.sync_every: must be in [1, 1000000000], got 0");
  EXPECT_ERROR(with("training", "sync_every", 2.5), "training.sync_every: must be an integer, got 2.5");
  EXPECT_ERROR(with("training", "sync_compression", 0), "training.sync_compression: must be in (0, 1], got 0");
  EXPECT_ERROR(with("training", "sync_compression", 1.5), "training.sync_compression: must be in (0, 1], got 1.5");
  EXPECT_ERROR(with("training", "sync_compression", 1e-9),
               "training.sync_compression: must be in [1e-06, 1], got 1e-09");
  json doc = two_site_doc();
  doc["network"]["inter_site"]["capacity_gbps"] = -1;
  EXPECT_ERROR(doc, "network.inter_site.capacity_gbps: must be > 0, got -1");
  doc = two_site_doc();
  doc["network"]["site_links"][0]["capacity_gbps"] = 1e9;
  EXPECT_ERROR(doc, "network.site_links[0].capacity_gbps: must be in [1e-06, 1e+06] Gbps, got 1000000000");
  doc = two_site_doc();
  doc["network"]["intra_site"]["capacity_gbps"] = 5;
  EXPECT_ERROR(doc, "network.intra_site.capacity_gbps: only network.inter_site and network.site_links take a "
                    "capacity (the shared pipe between two sites)");
}

TEST(ReplicaFormats, ReadsReplicaPlans) {
  const Problem p = parse_problem(two_site_doc()).problem;
  const ReplicaPlan plan = parse_replica_plan(json::parse(R"({"replicas": [
      {"micro_batches": 3, "stages": [{"gpu": "a0", "layers": 1}, {"gpu": "a1", "layers": 3}]},
      {"micro_batches": 1, "stages": [{"gpu": "b1", "layers": 1}, {"gpu": "b0", "layers": 3}]}]})"), p);
  ASSERT_EQ(plan.size(), 2u);
  EXPECT_EQ(plan[0].micro_batches, 3);
  EXPECT_EQ(plan[1].stages[0].gpus, std::vector<int>{3});
  // A plan of stages is one replica with all M micro-batches.
  const ReplicaPlan single = parse_replica_plan(json::parse(R"({"stages": [{"gpu": "b0", "layers": 4}]})"), p);
  ASSERT_EQ(single.size(), 1u);
  EXPECT_EQ(single[0].micro_batches, 4);
  // What replica_plan_to_json writes reads back the same.
  const ReplicaPlan again = parse_replica_plan(json::parse(replica_plan_to_json(plan, p).dump()), p);
  EXPECT_EQ(again[1].stages[1].gpus, plan[1].stages[1].gpus);
  EXPECT_EQ(again[0].micro_batches, 3);
}

TEST(ReplicaFormats, RefusesEveryBrokenRule) {
  using testing::has_error;
  // Stage templates that differ: in count, then in layers.
  EXPECT_TRUE(has_error(plan_errors(R"({"replicas": [
      {"micro_batches": 2, "stages": [{"gpu": "a0", "layers": 2}, {"gpu": "a1", "layers": 2}]},
      {"micro_batches": 2, "stages": [{"gpu": "b0", "layers": 4}]}]})"),
                        "replicas[1].stages: has 1 stages, replicas[0] has 2: every replica has the same stages "
                        "(one stage template)"));
  EXPECT_TRUE(has_error(plan_errors(R"({"replicas": [
      {"micro_batches": 2, "stages": [{"gpu": "a0", "layers": 2}, {"gpu": "a1", "layers": 2}]},
      {"micro_batches": 2, "stages": [{"gpu": "b0", "layers": 1}, {"gpu": "b1", "layers": 3}]}]})"),
                        "replicas[1].stages[0].layers: must equal replicas[0].stages[0].layers (2): stage q of "
                        "every replica holds the same layers, got 1"));
  // Shares that do not sum to M.
  EXPECT_TRUE(has_error(plan_errors(R"({"replicas": [
      {"micro_batches": 2, "stages": [{"gpu": "a0", "layers": 4}]},
      {"micro_batches": 1, "stages": [{"gpu": "b0", "layers": 4}]}]})"),
                        "replicas: micro_batches sum to 3, must equal M = model.global_batch_size / "
                        "micro_batch_size = 4"));
  // A share that is not a positive integer.
  EXPECT_TRUE(has_error(plan_errors(R"({"replicas": [
      {"micro_batches": 0, "stages": [{"gpu": "a0", "layers": 4}]},
      {"micro_batches": 4, "stages": [{"gpu": "b0", "layers": 4}]}]})"),
                        "replicas[0].micro_batches: must be in [1, 4], got 0"));
  EXPECT_TRUE(has_error(plan_errors(R"({"replicas": [
      {"micro_batches": 2.5, "stages": [{"gpu": "a0", "layers": 4}]},
      {"micro_batches": 1.5, "stages": [{"gpu": "b0", "layers": 4}]}]})"),
                        "replicas[0].micro_batches: must be an integer, got 2.5"));
  // A GPU in two replicas.
  EXPECT_TRUE(has_error(plan_errors(R"({"replicas": [
      {"micro_batches": 2, "stages": [{"gpu": "a0", "layers": 4}]},
      {"micro_batches": 2, "stages": [{"gpu": "a0", "layers": 4}]}]})"),
                        "replicas[1].stages[0].gpu: GPU \"a0\" already holds replicas[0].stages[0]; each GPU "
                        "serves at most one stage"));
  // Stage rules inside a replica are named with its path.
  EXPECT_TRUE(has_error(plan_errors(R"({"replicas": [
      {"micro_batches": 4, "stages": [{"gpu": "z9", "layers": 4}]}]})"),
                        "replicas[0].stages[0].gpu: unknown GPU id \"z9\""));
  EXPECT_TRUE(has_error(plan_errors(R"({"replicas": []})"), "replicas: must list at least one replica"));
  EXPECT_TRUE(has_error(plan_errors(R"({"replicas": [3]})"),
                        "replicas[0]: must be an object {\"micro_batches\": m, \"stages\": [...]}"));
  EXPECT_TRUE(has_error(plan_errors(R"({"replicas": [{"micro_batches": 4}]})"), "replicas[0].stages: required"));
  EXPECT_TRUE(has_error(plan_errors(R"({"stages": [{"gpu": "a0", "layers": 4}],
                                        "replicas": [{"micro_batches": 4, "stages": [{"gpu": "a0", "layers": 4}]}]})"),
                        "plan: give either `stages` (one pipeline) or `replicas` (copies of it), not both"));
}

TEST(ReplicaFormats, EvaluatePrintsEachReplicaAndThePlanFigures) {
  const json out = json::parse(evaluate_request(two_site_doc().dump(), R"({"replicas": [
      {"micro_batches": 2, "stages": [{"gpu": "a0", "layers": 2}, {"gpu": "a1", "layers": 2}]},
      {"micro_batches": 2, "stages": [{"gpu": "b0", "layers": 2}, {"gpu": "b1", "layers": 2}]}]})").dump());
  EXPECT_EQ(out["replica_count"], 2);
  ASSERT_EQ(out["replicas"].size(), 2u);
  EXPECT_EQ(out["replicas"][1]["micro_batches"], 2);
  EXPECT_TRUE(out["replicas"][0].contains("pipeline_ms"));
  EXPECT_EQ(out["replicas"][0]["stages"].size(), 2u);
  EXPECT_EQ(out["sync_every"], 10);
  EXPECT_EQ(out["sync_compression"], 0.5);
  EXPECT_TRUE(out.contains("cross_replica_sync_ms"));
  // Both directions of the site pair carry the ring: A -> B (its site_links entry) and B -> A (inter_site).
  ASSERT_EQ(out["site_pipes"].size(), 2u);
  EXPECT_EQ(out["site_pipes"][0]["from"], "A");
  EXPECT_FALSE(out.contains("stages"));
}

}  // namespace
}  // namespace geotrain
