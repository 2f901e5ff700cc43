// The problem-file fields of objectives.md: sites, price_per_hour,
// training.iterations, objective.weights and references, and
// search.micro_batch_size; every fault names its field, and a file without
// them reads exactly as before.
#include <gtest/gtest.h>

#include "api/api.hpp"
#include "api/planner.hpp"
#include "model/objective_json.hpp"
#include "problem_doc.hpp"

namespace geotrain {
namespace {

using nlohmann::json;
using testing::base_doc;
using testing::errors_of;

// Some message starts with `path: ` and contains `words`.
::testing::AssertionResult names_field(const json& doc, const std::string& path, const std::string& words) {
  const auto messages = errors_of(doc);
  for (const auto& m : messages)
    if (m.rfind(path + ": ", 0) == 0 && m.find(words) != std::string::npos) return ::testing::AssertionSuccess();
  auto failure = ::testing::AssertionFailure() << "no \"" << path << ": ..." << words << "...\" among:";
  for (const auto& m : messages) failure << "\n  " << m;
  return failure;
}

TEST(ObjectiveFormats, SitesAreReadWithDefaults) {
  json doc = base_doc();
  doc["sites"] = {{"A", {{"carbon_g_per_kwh", 50}, {"pue", 1.1}, {"price_per_kwh", 0.08}}}, {"B", {{"pue", 1.4}}}};
  const Problem p = parse_problem(doc).problem;
  EXPECT_EQ(p.site_figures("A").carbon_g_per_kwh, 50);
  EXPECT_EQ(p.site_figures("A").pue, 1.1);
  EXPECT_EQ(p.site_figures("A").price_per_kwh, 0.08);
  EXPECT_EQ(p.site_figures("B").carbon_g_per_kwh, 0);  // defaults: 0 g/kWh, PUE 1, free
  EXPECT_EQ(p.site_figures("B").pue, 1.4);
  EXPECT_EQ(p.site_figures("B").price_per_kwh, 0);
}

TEST(ObjectiveFormats, SiteFaultsNameTheField) {
  json doc = base_doc();
  doc["sites"] = {{"C", {{"pue", 1.2}}}};
  EXPECT_TRUE(names_field(doc, "sites.C", "no GPU is on site"));
  doc["sites"] = {{"A", {{"pue", 0.9}}}};
  EXPECT_TRUE(names_field(doc, "sites.A.pue", "must be in [1, 10]"));
  doc["sites"] = {{"A", {{"carbon_g_per_kwh", -1}}}};
  EXPECT_TRUE(names_field(doc, "sites.A.carbon_g_per_kwh", "must be in [0, 10000]"));
  doc["sites"] = {{"A", {{"price_per_kwh", "cheap"}}}};
  EXPECT_TRUE(names_field(doc, "sites.A.price_per_kwh", "must be a number"));
  doc["sites"] = json::array();
  EXPECT_TRUE(names_field(doc, "sites", "must be an object keyed by site name"));
  doc["sites"] = {{"A", 3}};
  EXPECT_TRUE(names_field(doc, "sites.A", "must be an object"));
}

TEST(ObjectiveFormats, PricesIterationsAndModeFaultsNameTheField) {
  json doc = base_doc();
  doc["gpus"][1]["price_per_hour"] = -2;
  EXPECT_TRUE(names_field(doc, "gpus[1].price_per_hour", "must be"));
  doc = base_doc();
  doc["gpus"][0]["price_per_hour"] = 1e7;
  EXPECT_TRUE(names_field(doc, "gpus[0].price_per_hour", "must be in [0, 1e+06]"));
  doc = base_doc();
  doc["training"] = {{"iterations", 0}};
  EXPECT_TRUE(names_field(doc, "training.iterations", "must be"));
  doc["training"] = {{"iterations", 2.5}};
  EXPECT_TRUE(names_field(doc, "training.iterations", "integer"));
  doc = base_doc();
  doc["search"] = {{"micro_batch_size", "sometimes"}};
  EXPECT_TRUE(names_field(doc, "search.micro_batch_size", "must be \"fixed\""));
}

TEST(ObjectiveFormats, WeightsReplaceLambdaAndFaultsNameTheField) {
  json doc = base_doc();
  doc["objective"] = {{"weights", {{"time", 0.5}, {"carbon", 0.5}}}};
  const Objective o = parse_problem(doc).problem.objective;
  ASSERT_TRUE(o.weights);
  EXPECT_EQ(o.effective_weights().time, 0.5);
  EXPECT_EQ(o.effective_weights().energy, 0.0);  // missing weights are 0
  EXPECT_EQ(o.effective_weights().carbon, 0.5);
  doc["objective"]["lambda"] = 0.2;  // weights win, and the file is told so
  const ParsedProblem parsed = parse_problem(doc);
  EXPECT_EQ(parsed.problem.objective.effective_weights().time, 0.5);
  ASSERT_FALSE(parsed.warnings.empty());
  EXPECT_EQ(parsed.warnings[0], "objective.lambda: ignored: objective.weights replaces lambda");

  doc["objective"] = {{"weights", {{"time", 0}, {"energy", 0}}}};
  EXPECT_TRUE(names_field(doc, "objective.weights", "at least one of time, energy, carbon and cost must be > 0"));
  doc["objective"] = {{"weights", {{"carbon", -1}}}};
  EXPECT_TRUE(names_field(doc, "objective.weights.carbon", "must be in [0, 1e+06]"));
  doc["objective"] = {{"weights", {{"money", 1}}}};  // unknown keys warn; then nothing is > 0
  EXPECT_TRUE(names_field(doc, "objective.weights", "at least one"));
  doc["objective"] = {{"c_ref_g", 0}};
  EXPECT_TRUE(names_field(doc, "objective.c_ref_g", "must be"));
  doc["objective"] = {{"m_ref", 1e30}};
  EXPECT_TRUE(names_field(doc, "objective.m_ref", "must be in [1e-09, 1e+15]"));
}

TEST(ObjectiveFormats, LambdaAloneMeansTimeAndEnergy) {
  json doc = base_doc();
  doc["objective"] = {{"lambda", 0.25}};
  const ObjectiveWeights w = parse_problem(doc).problem.objective.effective_weights();
  EXPECT_EQ(w.time, 0.25);
  EXPECT_EQ(w.energy, 0.75);
  EXPECT_EQ(w.carbon, 0.0);
  EXPECT_EQ(w.cost, 0.0);
}

TEST(ObjectiveFormats, NewFieldsRoundTripAndOldFilesWriteAsBefore) {
  json doc = base_doc();
  const json plain = problem_to_json(parse_problem(doc).problem);
  EXPECT_FALSE(plain.contains("sites"));
  EXPECT_FALSE(plain.contains("training"));
  EXPECT_FALSE(plain["search"].contains("micro_batch_size"));
  EXPECT_FALSE(plain["objective"].contains("weights"));
  EXPECT_FALSE(plain["gpus"][0].contains("price_per_hour"));

  doc["sites"] = {{"A", {{"carbon_g_per_kwh", 50}, {"pue", 1.1}}}};
  doc["gpus"][0]["price_per_hour"] = 2.5;
  doc["training"] = {{"iterations", 1000}};
  doc["objective"] = {{"weights", {{"time", 1}, {"cost", 2}}}, {"m_ref", 0.5}};
  doc["search"] = {{"micro_batch_size", "auto"}};
  const json written = problem_to_json(parse_problem(doc).problem);
  const Problem again = parse_problem(written).problem;
  EXPECT_EQ(again.site_figures("A").carbon_g_per_kwh, 50);
  EXPECT_EQ(again.gpus[0].price_per_hour, 2.5);
  EXPECT_EQ(*again.training.iterations, 1000);
  EXPECT_EQ(again.objective.effective_weights().cost, 2);
  EXPECT_EQ(*again.objective.m_ref, 0.5);
  EXPECT_TRUE(again.search.micro_batch_auto);
}

TEST(ObjectiveFormats, SolveOptionsTakeWeightsAndTheMicroBatchMode) {
  const SolveOptions o = parse_solve_options(json{{"weights", {{"carbon", 1}}}, {"micro_batch_size", "auto"}});
  ASSERT_TRUE(o.weights);
  EXPECT_EQ(o.weights->carbon, 1);
  EXPECT_TRUE(o.micro_batch_auto.value_or(false));
  try {
    parse_solve_options(json{{"weights", {{"time", -1}}}, {"micro_batch_size", "big"}});
    FAIL() << "accepted bad options";
  } catch (const InputError& e) {
    ASSERT_EQ(e.messages().size(), 2u);
    EXPECT_EQ(e.messages()[0].rfind("options.weights.time: must be in [0, 1e+06]", 0), 0u) << e.messages()[0];
    EXPECT_EQ(e.messages()[1].rfind("options.micro_batch_size: must be \"fixed\" or \"auto\"", 0), 0u);
  }
}

}  // namespace
}  // namespace geotrain
