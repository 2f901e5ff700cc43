// Problem files: one test per validation rule, each asserting the exact
// message with its field path; defaults, catalogue fill, warnings. Garbage
// input: test_problem_json_garbage.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "model/cost_model.hpp"
#include "model/input_error.hpp"
#include "model/problem_json.hpp"
#include "problem_doc.hpp"

namespace geotrain {
namespace {

using json = nlohmann::json;
using testing::base_doc;
using testing::errors_of;
using testing::errors_of_text;
using testing::has_error;



// ---- A valid file ---------------------------------------------------------------

TEST(ProblemJson, BaseDocumentParsesWithDefaults) {
  const ParsedProblem parsed = parse_problem(base_doc());
  const Problem& p = parsed.problem;
  EXPECT_TRUE(parsed.warnings.empty());
  EXPECT_EQ(p.name, "base");
  EXPECT_EQ(p.model.hidden_size, 1000);
  EXPECT_EQ(p.model.num_layers, 4);
  EXPECT_EQ(p.model.micro_batches(), 4);
  EXPECT_EQ(p.model.precision, Precision::fp16);  // default precision
  ASSERT_EQ(p.gpus.size(), 2u);
  EXPECT_EQ(p.gpus[1].id, "g1");
  EXPECT_EQ(p.gpus[1].site, "B");
  EXPECT_EQ(p.gpus[1].peak_tflops, 50);
  EXPECT_EQ(p.gpus[1].compute_util, 1);  // default utilisations
  EXPECT_EQ(p.gpus[1].memory_util, 1);
  ASSERT_TRUE(p.network.default_link.has_value());
  EXPECT_EQ(p.network.default_link->util, 1);  // default link util
  EXPECT_EQ(p.objective.lambda, 1);            // default lambda
  EXPECT_FALSE(p.objective.t_ref_ms.has_value());
  EXPECT_EQ(p.search.population, 200);  // the paper's settings
  EXPECT_EQ(p.search.tournament, 4);
  EXPECT_EQ(p.search.elite, 2);
  EXPECT_EQ(p.search.local_search_rate, 0.5);
  EXPECT_EQ(p.search.time_limit_s, 120);
  EXPECT_EQ(p.search.patience, 100);
  EXPECT_EQ(p.search.max_generations, 500);
  EXPECT_EQ(p.search.seed, 1u);
}

TEST(ProblemJson, WrittenProblemReadsBackTheSame) {
  json doc = base_doc();
  doc["gpus"][0]["compute_util"] = 0.5;
  doc["network"]["links"] = json::array({{{"from", "g0"}, {"to", "g1"}, {"bandwidth_gbps", 5}, {"latency_ms", 2},
                                          {"util", 0.8}}});
  doc["objective"] = {{"lambda", 0.25}, {"t_ref_ms", 10}, {"e_ref_j", 2}};
  const Problem a = parse_problem(doc).problem;
  const Problem b = parse_problem(problem_to_json(a)).problem;
  EXPECT_EQ(problem_to_json(b), problem_to_json(a));
  EXPECT_EQ(b.gpus[0].compute_util, 0.5);
  ASSERT_EQ(b.network.links.size(), 1u);
  EXPECT_EQ(b.network.links[0].link.util, 0.8);
  EXPECT_EQ(b.objective.lambda, 0.25);
  EXPECT_EQ(*b.objective.e_ref_j, 2);
}

// ---- Not JSON, not an object, too deep ----------------------------------------------

TEST(ProblemJson, NotJsonNamesLineAndColumn) {
  // Line 2 is `  "name": }`: the '}' is its 11th character.
  const auto errors = errors_of_text("{\n  \"name\": }");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].rfind("problem: not valid JSON: parse error at line 2, column 11", 0), 0u) << errors[0];
}

TEST(ProblemJson, EmptyTextIsNotJson) {
  const auto errors = errors_of_text("");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].rfind("problem: not valid JSON: ", 0), 0u) << errors[0];
}

TEST(ProblemJson, DocumentMustBeAnObject) {
  EXPECT_TRUE(has_error(errors_of_text("null"), "(document): must be an object, got null"));
  EXPECT_TRUE(has_error(errors_of_text("[1, 2]"), "(document): must be an object, got an array"));
  EXPECT_TRUE(has_error(errors_of_text("\"gpus\""), "(document): must be an object, got a string"));
  EXPECT_TRUE(has_error(errors_of_text("42"), "(document): must be an object, got a number"));
}

TEST(ProblemJson, NestingDeeperThan64IsRefused) {
  EXPECT_TRUE(has_error(errors_of_text(std::string(65, '[') + std::string(65, ']')),
                        "problem: nested deeper than 64 levels at line 1, column 65"));
  // 64 levels are fine as JSON (and then not a problem object).
  EXPECT_TRUE(has_error(errors_of_text(std::string(64, '[') + std::string(64, ']')),
                        "(document): must be an object, got an array"));
  // Brackets inside strings do not count.
  json doc = base_doc();
  doc["description"] = std::string(100, '[');
  EXPECT_TRUE(errors_of_text(doc.dump()).empty());
}

// ---- Types and required fields -------------------------------------------------------

TEST(ProblemJson, WrongTypesNameTheField) {
  json doc = base_doc();
  doc["model"]["hidden_size"] = "1024";
  EXPECT_ERROR(doc, "model.hidden_size: must be an integer, got a string \"1024\"");
  doc = base_doc();
  doc["gpus"][1]["peak_tflops"] = "100";
  EXPECT_ERROR(doc, "gpus[1].peak_tflops: must be a number, got a string \"100\"");
  doc = base_doc();
  doc["gpus"] = json::object();
  EXPECT_ERROR(doc, "gpus: must be an array, got an object");
  doc = base_doc();
  doc["model"] = json::array();
  EXPECT_ERROR(doc, "model: must be an object, got an array");
  doc = base_doc();
  doc["gpus"][0] = "g0";
  EXPECT_ERROR(doc, "gpus[0]: must be an object, got a string");
  doc = base_doc();
  doc["gpus"][0]["id"] = 5;
  EXPECT_ERROR(doc, "gpus[0].id: must be a string, got a number 5");
  doc = base_doc();
  doc["network"]["links"] = json::object();
  EXPECT_ERROR(doc, "network.links: must be an array, got an object");
  doc = base_doc();
  doc["network"]["default"] = 10;
  EXPECT_ERROR(doc, "network.default: must be an object, got a number");
  doc = base_doc();
  doc["objective"] = {{"lambda", true}};
  EXPECT_ERROR(doc, "objective.lambda: must be a number, got a boolean true");
  doc = base_doc();
  doc["search"] = "fast";
  EXPECT_ERROR(doc, "search: must be an object, got a string");
}

TEST(ProblemJson, MissingRequiredFields) {
  json doc = base_doc();
  doc.erase("model");
  EXPECT_ERROR(doc, "model: required");
  doc = base_doc();
  doc["model"].erase("num_layers");
  EXPECT_ERROR(doc, "model.num_layers: required");
  doc = base_doc();
  doc["model"]["vocab_size"] = nullptr;  // null counts as missing
  EXPECT_ERROR(doc, "model.vocab_size: required");
  doc = base_doc();
  doc.erase("gpus");
  EXPECT_ERROR(doc, "gpus: required");
  doc = base_doc();
  doc["gpus"][1].erase("id");
  EXPECT_ERROR(doc, "gpus[1].id: required");
  doc = base_doc();
  doc["gpus"][1].erase("memory_gib");
  EXPECT_ERROR(doc, "gpus[1].memory_gib: required (or give a catalogue `type`)");
  doc = base_doc();
  doc["gpus"][0].erase("idle_w");
  EXPECT_ERROR(doc, "gpus[0].idle_w: required (or give a catalogue `type`)");
  doc = base_doc();
  doc["network"]["default"].erase("bandwidth_gbps");
  EXPECT_ERROR(doc, "network.default.bandwidth_gbps: required");
  doc = base_doc();
  doc["network"]["links"] = json::array({{{"to", "g1"}, {"bandwidth_gbps", 5}, {"latency_ms", 2}}});
  EXPECT_ERROR(doc, "network.links[0].from: required");
}

TEST(ProblemJson, EmptyIdIsRefused) {
  json doc = base_doc();
  doc["gpus"][0]["id"] = "";
  EXPECT_ERROR(doc, "gpus[0].id: must not be empty");
}

// ---- Ranges ---------------------------------------------------------------------------

TEST(ProblemJson, ComputeAndMemoryMustBePositive) {
  json doc = base_doc();
  doc["gpus"][0]["peak_tflops"] = 0;
  EXPECT_ERROR(doc, "gpus[0].peak_tflops: must be > 0, got 0");
  doc["gpus"][0]["peak_tflops"] = -5;
  EXPECT_ERROR(doc, "gpus[0].peak_tflops: must be > 0, got -5");
  doc = base_doc();
  doc["gpus"][1]["memory_gib"] = 0;
  EXPECT_ERROR(doc, "gpus[1].memory_gib: must be > 0, got 0");
  doc = base_doc();
  doc["model"]["hidden_size"] = 0;
  EXPECT_ERROR(doc, "model.hidden_size: must be in [1, 1000000], got 0");
}

TEST(ProblemJson, BandwidthMustBePositive) {
  json doc = base_doc();
  doc["network"]["default"]["bandwidth_gbps"] = 0;
  EXPECT_ERROR(doc, "network.default.bandwidth_gbps: must be > 0, got 0");
  doc = base_doc();
  doc["network"]["links"] = json::array({{{"from", "g0"}, {"to", "g1"}, {"bandwidth_gbps", -1}, {"latency_ms", 2}}});
  EXPECT_ERROR(doc, "network.links[0].bandwidth_gbps: must be > 0, got -1");
}

TEST(ProblemJson, LatencyMustBeNonNegative) {
  json doc = base_doc();
  doc["network"]["default"]["latency_ms"] = -1;
  EXPECT_ERROR(doc, "network.default.latency_ms: must be >= 0, got -1");
  doc["network"]["default"]["latency_ms"] = 0;
  EXPECT_ACCEPTED(doc);
}

TEST(ProblemJson, UtilisationsMustBeInZeroOne) {
  json doc = base_doc();
  doc["gpus"][1]["compute_util"] = 1.5;
  EXPECT_ERROR(doc, "gpus[1].compute_util: must be in (0, 1], got 1.5");
  doc["gpus"][1]["compute_util"] = 0;
  EXPECT_ERROR(doc, "gpus[1].compute_util: must be in (0, 1], got 0");
  doc = base_doc();
  doc["gpus"][0]["memory_util"] = -0.5;
  EXPECT_ERROR(doc, "gpus[0].memory_util: must be in (0, 1], got -0.5");
  doc = base_doc();
  doc["network"]["default"]["util"] = 0;
  EXPECT_ERROR(doc, "network.default.util: must be in (0, 1], got 0");
  doc = base_doc();
  doc["gpus"][0]["compute_util"] = 1;
  doc["gpus"][0]["memory_util"] = 0.01;
  doc["network"]["default"]["util"] = 1;
  EXPECT_ACCEPTED(doc);
}

TEST(ProblemJson, ActivePowerMustNotBeBelowIdle) {
  json doc = base_doc();
  doc["gpus"][0]["idle_w"] = 60.5;
  doc["gpus"][0]["active_w"] = 50.5;
  EXPECT_ERROR(doc, "gpus[0].active_w: must be >= idle_w (60.5), got 50.5");
  doc["gpus"][0]["active_w"] = 60.5;  // equal is fine: a GPU that draws the same busy or idle
  EXPECT_ACCEPTED(doc);
  doc = base_doc();
  doc["gpus"][0]["idle_w"] = -1;
  EXPECT_ERROR(doc, "gpus[0].idle_w: must be >= 0, got -1");
}

TEST(ProblemJson, ZeroActivePowerBelowIdleIsRefusedToo) {
  // active_w = 0 < idle_w = 50 breaks the same rule (and would make active
  // energy negative); an explicit 0 must not slip through.
  json doc = base_doc();
  doc["gpus"][0]["idle_w"] = 50;
  doc["gpus"][0]["active_w"] = 0;
  const auto errors = errors_of(doc);
  ASSERT_EQ(errors.size(), 1u) << "active_w 0 < idle_w 50 was accepted";
  EXPECT_EQ(errors[0].rfind("gpus[0].active_w: must be >= idle_w (50", 0), 0u) << errors[0];
}

TEST(ProblemJson, GpuIdsMustBeUnique) {
  json doc = base_doc();
  doc["gpus"][1]["id"] = "g0";
  EXPECT_ERROR(doc, "gpus[1].id: duplicate of gpus[0].id \"g0\"");
}

TEST(ProblemJson, LinksMustNameKnownGpus) {
  json doc = base_doc();
  doc["network"]["links"] = json::array({{{"from", "g0"}, {"to", "gx"}, {"bandwidth_gbps", 5}, {"latency_ms", 2}}});
  EXPECT_ERROR(doc, "network.links[0].to: unknown GPU id \"gx\" (known: g0, g1)");
  doc["network"]["links"][0]["from"] = "gy";
  EXPECT_ERROR(doc, "network.links[0].from: unknown GPU id \"gy\" (known: g0, g1)");
}

TEST(ProblemJson, SiteLinksMustNameKnownSites) {
  json doc = base_doc();
  doc["network"]["site_links"] = json::array({{{"from", "A"}, {"to", "Z"}, {"bandwidth_gbps", 5}, {"latency_ms", 2}}});
  EXPECT_ERROR(doc, "network.site_links[0].to: unknown site \"Z\" (known: A, B)");
}

TEST(ProblemJson, LinkFromAGpuToItselfIsRefused) {
  json doc = base_doc();
  doc["network"]["links"] = json::array({{{"from", "g1"}, {"to", "g1"}, {"bandwidth_gbps", 5}, {"latency_ms", 2}}});
  EXPECT_ERROR(doc, "network.links[0].to: must differ from `from` (a GPU needs no link to itself)");
}

TEST(ProblemJson, GlobalBatchMustBeAMultipleOfMicroBatch) {
  json doc = base_doc();
  doc["model"]["micro_batch_size"] = 3;
  doc["model"]["global_batch_size"] = 8;
  EXPECT_ERROR(doc, "model.global_batch_size: must be a multiple of model.micro_batch_size (3), got 8");
  doc["model"]["global_batch_size"] = 9;
  EXPECT_ACCEPTED(doc);
}

TEST(ProblemJson, LambdaMustBeInZeroOne) {
  json doc = base_doc();
  doc["objective"] = {{"lambda", 1.5}};
  EXPECT_ERROR(doc, "objective.lambda: must be in [0, 1], got 1.5");
  doc["objective"]["lambda"] = -0.1;
  EXPECT_ERROR(doc, "objective.lambda: must be in [0, 1], got -0.1");
  doc["objective"]["lambda"] = 0;
  EXPECT_ACCEPTED(doc);
  doc["objective"]["lambda"] = 1;
  EXPECT_ACCEPTED(doc);
  doc["objective"]["t_ref_ms"] = 0;
  EXPECT_ERROR(doc, "objective.t_ref_ms: must be > 0, got 0");
}

TEST(ProblemJson, AtLeastOneGpu) {
  json doc = base_doc();
  doc["gpus"] = json::array();
  EXPECT_ERROR(doc, "gpus: must list at least one GPU");
}

json many_gpus(int count) {
  json doc = base_doc();
  doc["gpus"] = json::array();
  for (int i = 0; i < count; ++i)
    doc["gpus"].push_back(
        {{"id", "g" + std::to_string(i)}, {"peak_tflops", 100}, {"memory_gib", 80}, {"idle_w", 50}, {"active_w", 250}});
  return doc;
}

TEST(ProblemJson, AtMostKMaxGpus) {
  EXPECT_ERROR(many_gpus(kMaxGpus + 1), "gpus: at most 512 GPUs are supported, got 513");
  EXPECT_ACCEPTED(many_gpus(kMaxGpus));
}

TEST(ProblemJson, AtMostKMaxLayers) {
  json doc = base_doc();
  doc["model"]["num_layers"] = kMaxLayers + 1;
  EXPECT_ERROR(doc, "model.num_layers: must be in [1, 1024], got 1025");
  doc["model"]["num_layers"] = 0;
  EXPECT_ERROR(doc, "model.num_layers: must be in [1, 1024], got 0");
  doc["model"]["num_layers"] = kMaxLayers;
  EXPECT_ACCEPTED(doc);
}

TEST(ProblemJson, PrecisionNames) {
  json doc = base_doc();
  doc["model"]["precision"] = "fp8";
  EXPECT_ERROR(doc, "model.precision: must be one of fp16, bf16, fp32, got \"fp8\"");
  doc["model"]["precision"] = 16;
  EXPECT_ERROR(doc, "model.precision: must be a string, got a number 16");
  doc["model"]["precision"] = "FP32";  // case does not matter
  EXPECT_EQ(parse_problem(doc).problem.model.precision, Precision::fp32);
  doc["model"]["precision"] = "bf16";
  EXPECT_EQ(parse_problem(doc).problem.model.precision, Precision::bf16);
}

TEST(ProblemJson, SearchSettingsOutOfRange) {
  const std::vector<std::pair<json, std::string>> cases = {
      {{{"population", 1}}, "search.population: must be in [2, 10000], got 1"},
      {{{"tournament", 0}}, "search.tournament: must be in [1, 200], got 0"},
      {{{"population", 10}, {"tournament", 11}}, "search.tournament: must be in [1, 10], got 11"},
      {{{"elite", 200}}, "search.elite: must be in [0, 199], got 200"},
      {{{"local_search_rate", 1.5}}, "search.local_search_rate: must be in [0, 1], got 1.5"},
      {{{"crossover_fallback_rate", -0.1}}, "search.crossover_fallback_rate: must be in [0, 1], got -0.1"},
      {{{"time_limit_s", 0}}, "search.time_limit_s: must be > 0, got 0"},
      {{{"time_limit_s", 90000.5}}, "search.time_limit_s: must be at most 86400 (one day), got 90000.5"},
      {{{"patience", 0}}, "search.patience: must be in [1, 1000000000], got 0"},
      {{{"max_generations", 0}}, "search.max_generations: must be in [1, 1000000000], got 0"},
      {{{"seed", -1}}, "search.seed: must be in [0, 9007199254740991], got -1"},
      {{{"seed", 9007199254740992}}, "search.seed: must be in [0, 9007199254740991], got 9007199254740992"},
      {{{"population", 2.5}}, "search.population: must be an integer, got 2.5"},
      {{{"boundary_shift", "sideways"}}, "search.boundary_shift: must be \"paper\" or \"both\", got \"sideways\""},
      {{{"boundary_shift", 1}}, "search.boundary_shift: must be a string, got a number 1"},
  };
  for (const auto& [search, message] : cases) {
    json doc = base_doc();
    doc["search"] = search;
    EXPECT_ERROR(doc, message);
  }
}

TEST(ProblemJson, SearchSettingsAtTheirLimitsAreAccepted) {
  json doc = base_doc();
  doc["search"] = {{"population", 10}, {"tournament", 10}, {"elite", 9}, {"local_search_rate", 0},
                   {"time_limit_s", 86400}, {"seed", 9007199254740991}};
  const SearchSettings s = parse_problem(doc).problem.search;
  EXPECT_EQ(s.population, 10);
  EXPECT_EQ(s.tournament, 10);
  EXPECT_EQ(s.elite, 9);
  EXPECT_EQ(s.local_search_rate, 0);
  EXPECT_EQ(s.seed, 9007199254740991u);
  EXPECT_FALSE(s.shift_both_ways);  // the paper's Alg. 3 unless asked
  doc["search"]["boundary_shift"] = "both";
  EXPECT_TRUE(parse_problem(doc).problem.search.shift_both_ways);
  doc["search"]["boundary_shift"] = "paper";
  EXPECT_FALSE(parse_problem(doc).problem.search.shift_both_ways);
}

TEST(ProblemJson, IntegersRefuseFractionsButAcceptPointZero) {
  json doc = base_doc();
  doc["model"]["num_layers"] = 12.5;
  EXPECT_ERROR(doc, "model.num_layers: must be an integer, got 12.5");
  doc["model"]["num_layers"] = 12.0;  // a float that happens to be whole, as "12.0" in a file
  ASSERT_TRUE(doc["model"]["num_layers"].is_number_float());
  EXPECT_EQ(parse_problem(doc).problem.model.num_layers, 12);
  EXPECT_EQ(parse_problem_text(R"({"model": {"hidden_size": 1000, "num_layers": 12.0, "seq_length": 1000,
      "vocab_size": 1000, "micro_batch_size": 1, "global_batch_size": 4},
      "gpus": [{"id": "g0", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250}]})")
                .problem.model.num_layers,
            12);
}

TEST(ProblemJson, HugeNumbersAreRangeErrors) {
  json doc = base_doc();
  doc["model"]["hidden_size"] = 1e300;
  EXPECT_ERROR(doc, "model.hidden_size: must be in [1, 1000000], got 1e+300");
  doc = base_doc();
  doc["model"]["global_batch_size"] = 18446744073709551615u;
  EXPECT_ERROR(doc, "model.global_batch_size: must be in [1, 1000000000], got 18446744073709551615");
}

TEST(ProblemJson, EveryErrorIsCollectedInOneThrow) {
  json doc = base_doc();
  doc["model"]["num_layers"] = 12.5;
  doc["gpus"][0]["compute_util"] = 2;
  doc["gpus"][1]["id"] = "g0";
  doc["network"]["default"]["latency_ms"] = -3;
  doc["objective"] = {{"lambda", 7}};
  doc["search"] = {{"seed", "one"}};
  const auto errors = errors_of(doc);
  EXPECT_TRUE(has_error(errors, "model.num_layers: must be an integer, got 12.5"));
  EXPECT_TRUE(has_error(errors, "gpus[0].compute_util: must be in (0, 1], got 2"));
  EXPECT_TRUE(has_error(errors, "gpus[1].id: duplicate of gpus[0].id \"g0\""));
  EXPECT_TRUE(has_error(errors, "network.default.latency_ms: must be >= 0, got -3"));
  EXPECT_TRUE(has_error(errors, "objective.lambda: must be in [0, 1], got 7"));
  EXPECT_TRUE(has_error(errors, "search.seed: must be an integer, got a string \"one\""));
  EXPECT_EQ(errors.size(), 6u);
  // what() joins them, one a line.
  try {
    parse_problem(doc);
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(std::count(what.begin(), what.end(), '\n'), 5);
  }
}

}  // namespace
}  // namespace geotrain
