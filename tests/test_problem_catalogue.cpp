// Problem files and the GPU catalogue: a type fills the numbers a GPU leaves
// out, for the model's precision; numbers in the file win; unknown types and
// missing figures name the field; unknown fields are warnings.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/input_error.hpp"
#include "problem_doc.hpp"
#include "model/problem_json.hpp"

namespace geotrain {
namespace {

using json = nlohmann::json;
using testing::base_doc;
using testing::errors_of;
using testing::has_error;

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

}  // namespace
}  // namespace geotrain
