// Problem files: one test per validation rule, each asserting the exact
// message with its field path; defaults, catalogue fill, warnings; and garbage
// that must end in InputError, never in a crash or another exception.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "cost_model.hpp"
#include "input_error.hpp"
#include "problem_json.hpp"
#include "random.hpp"

namespace geotrain {
namespace {

using json = nlohmann::json;

// A valid two-GPU problem; each test breaks one thing.
json base_doc() {
  return json::parse(R"({
    "name": "base",
    "model": {"hidden_size": 1000, "num_layers": 4, "seq_length": 1000, "vocab_size": 1000,
              "micro_batch_size": 1, "global_batch_size": 4},
    "gpus": [
      {"id": "g0", "site": "A", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
      {"id": "g1", "site": "B", "peak_tflops": 50, "memory_gib": 80, "idle_w": 10, "active_w": 60}
    ],
    "network": {"default": {"bandwidth_gbps": 10, "latency_ms": 1}}
  })");
}

std::vector<std::string> errors_of(const json& doc) {
  try {
    parse_problem(doc);
  } catch (const InputError& e) {
    return e.messages();
  }
  return {};
}

std::vector<std::string> errors_of_text(const std::string& text) {
  try {
    parse_problem_text(text);
  } catch (const InputError& e) {
    return e.messages();
  }
  return {};
}

::testing::AssertionResult has_error(const std::vector<std::string>& messages, const std::string& expected) {
  for (const auto& m : messages)
    if (m == expected) return ::testing::AssertionSuccess();
  auto failure = ::testing::AssertionFailure() << "no message \"" << expected << "\" among " << messages.size()
                                               << ":";
  for (const auto& m : messages) failure << "\n  " << m;
  return failure;
}

#define EXPECT_ERROR(doc, expected) EXPECT_TRUE(has_error(errors_of(doc), expected))
#define EXPECT_ACCEPTED(doc) EXPECT_EQ(errors_of(doc), std::vector<std::string>{})

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
                        "problem: nested deeper than 64 levels"));
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

// ---- Catalogue fill ---------------------------------------------------------------

TEST(ProblemJson, CatalogueTypeFillsMissingNumbers) {
  json doc = base_doc();
  doc["gpus"][0] = {{"id", "g0"}, {"type", "A100-SXM-80GB"}};
  const Gpu g = parse_problem(doc).problem.gpus[0];
  EXPECT_EQ(g.type, "A100-SXM-80GB");
  EXPECT_EQ(g.peak_tflops, 312);  // fp16 dense tensor peak
  EXPECT_EQ(g.memory_gib, 80);
  EXPECT_EQ(g.idle_w, 60);
  EXPECT_EQ(g.active_w, 400);
}

TEST(ProblemJson, CatalogueNamesAreNormalised) {
  json doc = base_doc();
  doc["gpus"][0] = {{"id", "g0"}, {"type", "a100 sxm 80gb"}};
  EXPECT_EQ(parse_problem(doc).problem.gpus[0].type, "A100-SXM-80GB");
}

TEST(ProblemJson, NumbersInTheFileWinOverTheCatalogue) {
  json doc = base_doc();
  doc["gpus"][0] = {{"id", "g0"}, {"type", "A100-SXM-80GB"}, {"peak_tflops", 100}, {"idle_w", 70}};
  const Gpu g = parse_problem(doc).problem.gpus[0];
  EXPECT_EQ(g.peak_tflops, 100);
  EXPECT_EQ(g.idle_w, 70);
  EXPECT_EQ(g.memory_gib, 80);  // still from the catalogue
  EXPECT_EQ(g.active_w, 400);
  // A bad number in the file is reported, not papered over by the catalogue.
  doc["gpus"][0]["peak_tflops"] = -1;
  EXPECT_ERROR(doc, "gpus[0].peak_tflops: must be > 0, got -1");
}

TEST(ProblemJson, CataloguePrecisionPicksThePeak) {
  json doc = base_doc();
  doc["gpus"][0] = {{"id", "g0"}, {"type", "A100-SXM-80GB"}};
  doc["model"]["precision"] = "fp32";
  EXPECT_EQ(parse_problem(doc).problem.gpus[0].peak_tflops, 19.5);  // plain FP32
  doc["model"]["precision"] = "bf16";
  EXPECT_EQ(parse_problem(doc).problem.gpus[0].peak_tflops, 312);
}

TEST(ProblemJson, UnknownTypeWithMissingNumbersNamesEachField) {
  json doc = base_doc();
  doc["gpus"][1] = {{"id", "g1"}, {"type", "Foo-9000"}, {"peak_tflops", 10}};
  const auto errors = errors_of(doc);
  EXPECT_TRUE(has_error(errors, "gpus[1].memory_gib: required (type \"Foo-9000\" is not in the built-in catalogue)"));
  EXPECT_TRUE(has_error(errors, "gpus[1].idle_w: required (type \"Foo-9000\" is not in the built-in catalogue)"));
  EXPECT_TRUE(has_error(errors, "gpus[1].active_w: required (type \"Foo-9000\" is not in the built-in catalogue)"));
  EXPECT_EQ(errors.size(), 3u);
  // With every number given, a free-text type is just a label.
  doc["gpus"][1].update({{"memory_gib", 16}, {"idle_w", 5}, {"active_w", 50}});
  const Gpu g = parse_problem(doc).problem.gpus[1];
  EXPECT_EQ(g.type, "Foo-9000");
  EXPECT_EQ(g.memory_gib, 16);
}

TEST(ProblemJson, Bf16OnAGpuWithoutBf16NeedsAPeak) {
  json doc = base_doc();
  doc["model"]["precision"] = "bf16";
  doc["gpus"][0] = {{"id", "g0"}, {"type", "T4"}};
  EXPECT_ERROR(doc, "gpus[0].peak_tflops: required: the catalogue has no such figure for type \"T4\"");
  doc["gpus"][0]["peak_tflops"] = 30;
  EXPECT_EQ(parse_problem(doc).problem.gpus[0].peak_tflops, 30);
}

// ---- Warnings and collected errors -----------------------------------------------

TEST(ProblemJson, UnknownFieldsAreWarningsNotErrors) {
  json doc = base_doc();
  doc["bogus"] = 1;
  doc["model"]["hiden_size"] = 1000;
  doc["gpus"][1]["colour"] = "green";
  doc["network"]["default"]["jitter_ms"] = 3;
  doc["search"] = {{"populaton", 10}};
  const ParsedProblem parsed = parse_problem(doc);
  const auto& w = parsed.warnings;
  EXPECT_TRUE(has_error(w, "bogus: unknown field, ignored"));
  EXPECT_TRUE(has_error(w, "model.hiden_size: unknown field, ignored"));
  EXPECT_TRUE(has_error(w, "gpus[1].colour: unknown field, ignored"));
  EXPECT_TRUE(has_error(w, "network.default.jitter_ms: unknown field, ignored"));
  EXPECT_TRUE(has_error(w, "search.populaton: unknown field, ignored"));
  EXPECT_EQ(w.size(), 5u);
  EXPECT_EQ(parsed.problem.search.population, 200);
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

// ---- Garbage never crashes -------------------------------------------------------

// Parses `text`; anything but success or InputError is a failure.
void expect_clean_outcome(const std::string& text, const std::string& label) {
  try {
    const ParsedProblem parsed = parse_problem_text(text);
    // Whatever parses must also evaluate without trouble.
    const CostModel cm(parsed.problem);
    const Plan single{{0, static_cast<int>(parsed.problem.model.num_layers)}};
    (void)cm.evaluate(single);
  } catch (const InputError&) {
  } catch (const std::exception& e) {
    ADD_FAILURE() << label << ": " << e.what() << "\n" << text.substr(0, 300);
  } catch (...) {
    ADD_FAILURE() << label << ": unknown exception";
  }
}

TEST(ProblemJsonGarbage, SpecialTexts) {
  static const char kRawNul[] = "{\"name\": \"a\0b\"}";
  const std::vector<std::string> texts = {
      "",
      "null",
      " ",
      "{",
      "}",
      "{}",
      "[]",
      "\"\"",
      "1e400",
      "-1e400",
      R"({"model": {"hidden_size": 1e400}})",
      R"({"model": {"num_layers": 99999999999999999999999999999}})",
      R"({"model": {"num_layers": -0}})",
      std::string(100000, '['),
      std::string(100000, '{'),
      std::string(100000, ']'),
      "{\"name\": \"\xff\xfe\"}",                 // invalid UTF-8
      "{\"name\": \"\\ud800\"}",                  // lone surrogate escape
      std::string(kRawNul, sizeof kRawNul - 1),  // raw NUL inside a string
      "\xef\xbb\xbf{}",                           // byte order mark
      "{} {}",
      R"({"gpus": [null, 1, "x", [], {}]})",
      R"({"network": {"links": [null, 1, {"from": 1, "to": []}]}})",
      R"({"network": {"site_links": [{"from": null}]}, "gpus": [{"id": "a"}]})",
  };
  for (std::size_t i = 0; i < texts.size(); ++i) expect_clean_outcome(texts[i], "text " + std::to_string(i));
}

TEST(ProblemJsonGarbage, RandomBytes) {
  Rng rng(20240601);
  for (int k = 0; k < 2000; ++k) {
    std::string text(rng.below(120), '\0');
    for (char& c : text) c = static_cast<char>(rng.below(256));
    if (k % 2) text.insert(0, "{\"model\": ");  // get past the first byte now and then
    expect_clean_outcome(text, "random " + std::to_string(k));
  }
}

TEST(ProblemJsonGarbage, TruncatedDocumentsAreRefused) {
  const std::string text = base_doc().dump();
  for (std::size_t n = 0; n < text.size(); ++n) {
    try {
      parse_problem_text(text.substr(0, n));
      ADD_FAILURE() << "accepted a prefix of " << n << " bytes";
    } catch (const InputError&) {
    } catch (const std::exception& e) {
      ADD_FAILURE() << "prefix " << n << ": " << e.what();
    }
  }
}

TEST(ProblemJsonGarbage, MutatedDocuments) {
  const std::string text = base_doc().dump(1);
  const std::string alphabet = "{}[]\",:.-+eE0123456789 truefalsnul\\xg";
  Rng rng(7);
  for (int k = 0; k < 3000; ++k) {
    std::string t = text;
    const int edits = 1 + static_cast<int>(rng.below(3));
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = rng.below(t.size());
      switch (rng.below(3)) {
        case 0: t[at] = alphabet[rng.below(alphabet.size())]; break;
        case 1: t.erase(at, 1); break;
        default: t.insert(at, 1, alphabet[rng.below(alphabet.size())]); break;
      }
    }
    expect_clean_outcome(t, "mutation " + std::to_string(k));
  }
}

TEST(ProblemJsonGarbage, EveryFieldReplacedByEveryKindOfValue) {
  json doc = base_doc();
  doc["objective"] = {{"lambda", 0.5}, {"t_ref_ms", 10}, {"e_ref_j", 2}};
  doc["search"] = {{"population", 10}, {"seed", 3}};
  doc["network"]["links"] = json::array({{{"from", "g0"}, {"to", "g1"}, {"bandwidth_gbps", 5}, {"latency_ms", 2}}});
  doc["network"]["site_links"] =
      json::array({{{"from", "A"}, {"to", "B"}, {"bandwidth_gbps", 5}, {"latency_ms", 2}}});
  const std::vector<json> values = {nullptr, true, "x", "", -1, 0, 0.5, 12.5, 1e308, -1e308,
                                    json::array(), json::object(), json::array({1, 2}), json{{"a", 1}}};
  // Every leaf and every container, by JSON pointer.
  std::set<std::string> pointers;
  const json flat = doc.flatten();
  for (const auto& item : flat.items()) {
    json::json_pointer p(item.key());
    for (; !p.empty(); p = p.parent_pointer()) pointers.insert(p.to_string());
  }
  for (const auto& text : pointers) {
    const json::json_pointer pointer(text);
    for (const json& value : values) {
      json mutated = doc;
      mutated[pointer] = value;
      expect_clean_outcome(mutated.dump(), pointer.to_string() + " = " + value.dump());
    }
  }
}

}  // namespace
}  // namespace geotrain
