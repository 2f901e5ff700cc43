// Trade-offs on any two of time, energy, carbon and money (the pareto study's
// `axes`) and the "where to train" study, on a two-site pool worked out by hand.
//
// Two-site pool: H = T = V = 1000, u = 1, M = 4, L = 4 (the hand pool of
// tests/test_api.cpp): per layer 0.72 ms at 100 TFLOPS, 1.44 ms at 50; LM head
// 0.06 / 0.12 ms; lambda 0.5, T_ref 10 ms, E_ref 2 J.
//   site "fast": GPU f, 100 TFLOPS, idle 50 W, active 250 W, rent 3 / h;
//                grid 500 g/kWh, PUE 1, 0.1 / kWh.
//   site "clean": GPU c, 50 TFLOPS, idle 10 W, active 60 W, rent 2 / h;
//                grid 20 g/kWh, PUE 1.5, 0.3 / kWh.
//   [f:4]: tau = 4 * 0.72 + 0.06 = 2.94 ms, T = 4 * 2.94 = 11.76 ms,
//          E = 0.01176 * 50 + 4 * 200 * 2.94e-3 = 2.94 J,
//          C = 2.94 / 3.6e6 * 500 = 4.0833e-4 g,
//          M = 2.94 / 3.6e6 * 0.1 + 3 * 0.01176 / 3600 = 8.1667e-8 + 9.8e-6 = 9.8817e-6,
//          objective 0.5 * 11.76 / 10 + 0.5 * 2.94 / 2 = 1.323.
//   [c:4]: tau = 4 * 1.44 + 0.12 = 5.88 ms, T = 23.52 ms,
//          E = 0.02352 * 10 + 4 * 50 * 5.88e-3 = 1.4112 J, facility 2.1168 J,
//          C = 2.1168 / 3.6e6 * 20 = 1.176e-5 g,
//          M = 2.1168 / 3.6e6 * 0.3 + 2 * 0.02352 / 3600 = 1.764e-7 + 1.30667e-5 = 1.32431e-5,
//          objective 0.5 * 2.352 + 0.5 * 0.7056 = 1.5288.
// So f is the fastest and the cheapest, c the cleanest.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "api/api.hpp"
#include "model/input_error.hpp"
#include "model/problem_json.hpp"
#include "studies/studies.hpp"
#include "studies/where_study.hpp"
#include "problem_doc.hpp"

namespace geotrain {
namespace {

using json = nlohmann::json;

#define EXPECT_REL(actual, expected) EXPECT_NEAR((actual), (expected), 1e-9 * std::fabs(expected))

constexpr double kFastCarbonG = 2.94 / 3.6e6 * 500;
constexpr double kFastCost = 2.94 / 3.6e6 * 0.1 + 3 * 0.01176 / 3600;
constexpr double kCleanCarbonG = 1.4112 * 1.5 / 3.6e6 * 20;
constexpr double kCleanCost = 1.4112 * 1.5 / 3.6e6 * 0.3 + 2 * 0.02352 / 3600;

json two_sites() {
  return json::parse(R"({
    "name": "two sites",
    "model": {"hidden_size": 1000, "num_layers": 4, "seq_length": 1000, "vocab_size": 1000,
              "micro_batch_size": 1, "global_batch_size": 4},
    "gpus": [
      {"id": "f", "site": "fast", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250, "price_per_hour": 3},
      {"id": "c", "site": "clean", "peak_tflops": 50, "memory_gib": 80, "idle_w": 10, "active_w": 60, "price_per_hour": 2}
    ],
    "sites": {"fast": {"carbon_g_per_kwh": 500, "pue": 1, "price_per_kwh": 0.1},
              "clean": {"carbon_g_per_kwh": 20, "pue": 1.5, "price_per_kwh": 0.3}},
    "network": {"default": {"bandwidth_gbps": 10, "latency_ms": 1},
                "site_links": [{"from": "fast", "to": "clean", "bandwidth_gbps": 20, "latency_ms": 2}],
                "links": [{"from": "c", "to": "f", "bandwidth_gbps": 100, "latency_ms": 0.5}]},
    "training": {"iterations": 1000000},
    "objective": {"lambda": 0.5, "t_ref_ms": 10, "e_ref_j": 2}
  })");
}

json plan_result(const char* gpu) { return {{"stages", {{{"gpu", gpu}, {"layers", 4}}}}}; }

std::vector<std::string> errors_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const InputError& e) {
    return e.messages();
  }
  return {};
}

std::string read_example(const std::string& name) {
  std::ifstream in(std::string(GEOTRAIN_EXAMPLES_DIR) + "/" + name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// ---- axes ----

TEST(StudyAxes, FaultsNameTheField) {
  using V = std::vector<std::string>;
  auto errors = [](const json& axes, const char* study = "pareto") {
    return errors_of([&] { parse_study_options({{"study", study}, {"axes", axes}}); });
  };
  EXPECT_EQ(errors({"carbon", "money"}), V{"study.axes[1]: must be time, energy, carbon or cost, got \"money\""});
  EXPECT_EQ(errors({"cost", "cost"}), V{"study.axes[1]: repeats axes[0] (\"cost\"); name two different figures"});
  EXPECT_EQ(errors({"time"}), V{"study.axes: must list two of time, energy, carbon and cost, got [\"time\"]"});
  EXPECT_EQ(errors({"time", "energy", "cost"})[0].rfind("study.axes: must list two", 0), 0u);
  EXPECT_EQ(errors("carbon"), V{"study.axes: must list two of time, energy, carbon and cost, got \"carbon\""});
  EXPECT_EQ(errors({1, "time"}), V{"study.axes[0]: must be time, energy, carbon or cost, got 1"});
  EXPECT_EQ(errors({"time", "cost"}, "subset"), V{"study.axes: only the pareto study takes axes, not subset"});
  const StudyOptions o = parse_study_options({{"study", "pareto"}, {"axes", {"cost", "time"}}});
  EXPECT_EQ(o.axes.x, StudyAxis::cost);
  EXPECT_EQ(o.axes.y, StudyAxis::time);
  EXPECT_TRUE(parse_study_options({{"study", "pareto"}}).axes.is_time_energy());
}

TEST(StudyAxes, TimeAndEnergyGiveExactlyTheOldStudy) {
  const std::string text = testing::hand_problem().dump();
  const json plain = {{"study", "pareto"}, {"lambdas", {0, 0.5, 1}}, {"seeds", 1}};
  json named = plain;
  named["axes"] = {"time", "energy"};
  EXPECT_EQ(json(study_jobs(text, named)).dump(), json(study_jobs(text, plain)).dump());
  const json jobs = study_jobs(text, plain);
  // The job options of before: a lambda, no weights; the problem has no carbon or money reference.
  EXPECT_EQ(jobs["jobs"][1]["options"], json({{"method", "memetic"}, {"seed", 1}, {"lambda", 0.5}}));
  EXPECT_FALSE(jobs["jobs"][1]["problem"]["objective"].contains("c_ref_g"));
  const json results = {{"lambda=0/seed=1", plan_result("g2")}, {"lambda=0.5/seed=1", plan_result("g2")},
                        {"lambda=1/seed=1", plan_result("g0")}};
  const json a = summarise_study(text, plain, results), b = summarise_study(text, named, results);
  EXPECT_EQ(a.dump(), b.dump());
  EXPECT_FALSE(a.contains("axes"));
  EXPECT_FALSE(a["points"][0].contains("carbon_g"));
  EXPECT_FALSE(a["table"][0].contains("weights"));
}

TEST(StudyAxes, CarbonAgainstMoneyByHand) {
  const std::string text = two_sites().dump();
  const json options = {{"study", "pareto"}, {"axes", {"carbon", "cost"}}, {"lambdas", {0, 0.5, 1}}, {"seeds", 1}};
  const json jobs = study_jobs(text, options);
  ASSERT_EQ(jobs["jobs"].size(), 3u);
  // w = 0.5: {carbon: 0.5, cost: 0.5}, no lambda.
  EXPECT_EQ(jobs["jobs"][1]["options"],
            json({{"method", "memetic"}, {"seed", 1},
                  {"weights", {{"time", 0.0}, {"energy", 0.0}, {"carbon", 0.5}, {"cost", 0.5}}}}));
  // C_ref and M_ref from the full problem's metis-improved plan, the fastest: [f:4].
  const json& objective = jobs["jobs"][0]["problem"]["objective"];
  EXPECT_REL(objective["c_ref_g"].get<double>(), kFastCarbonG);
  EXPECT_REL(objective["m_ref"].get<double>(), kFastCost);
  EXPECT_EQ(objective["t_ref_ms"], 10.0);
  for (const auto& job : jobs["jobs"]) EXPECT_NO_THROW(parse_solve_options(job["options"]));

  const json results = {{"lambda=0/seed=1", plan_result("f")},     // all money: the cheaper
                        {"lambda=0.5/seed=1", plan_result("c")},
                        {"lambda=1/seed=1", plan_result("c")}};    // all carbon: the cleaner
  const json s = summarise_study(text, options, results);
  EXPECT_EQ(s["axes"], json({"carbon", "cost"}));
  EXPECT_REL(s["c_ref_g"].get<double>(), kFastCarbonG);
  ASSERT_EQ(s["table"].size(), 3u);
  const json& f = s["table"][0];
  EXPECT_REL(f["carbon_g"].get<double>(), kFastCarbonG);
  EXPECT_REL(f["cost"].get<double>(), kFastCost);
  EXPECT_REL(f["iteration_ms"].get<double>(), 11.76);
  EXPECT_REL(f["energy_j"].get<double>(), 2.94);
  // Against lambda = 1 ([c:4]): carbon 4.0833e-4 / 1.176e-5 = 34.72, so +3372.2%; money -25.4%.
  EXPECT_REL(f["delta_c_pct"].get<double>(), (kFastCarbonG - kCleanCarbonG) / kCleanCarbonG * 100);
  EXPECT_NEAR(f["delta_c_pct"].get<double>(), 3372.2, 0.1);
  EXPECT_NEAR(f["delta_m_pct"].get<double>(), -25.38, 0.01);
  EXPECT_FALSE(f.contains("delta_t_pct"));
  // w = 0.5: 0.5 * 1.176e-5 / 4.0833e-4 + 0.5 * 1.32431e-5 / 9.8817e-6 = 0.0144 + 0.6701 = 0.6845.
  EXPECT_REL(s["table"][1]["objective"].get<double>(),
             0.5 * kCleanCarbonG / kFastCarbonG + 0.5 * kCleanCost / kFastCost);
  // Neither dominates on (carbon, money): both on the frontier; two points make no knee.
  EXPECT_EQ(f["on_frontier"], true);
  EXPECT_EQ(s["table"][2]["on_frontier"], true);
  EXPECT_TRUE(s["knee"].is_null());
  EXPECT_REL(s["points"][2]["carbon_g"].get<double>(), kCleanCarbonG);
  EXPECT_EQ(s["points"][2]["weights"]["carbon"], 1.0);
  EXPECT_REL(s["reference"]["carbon_g"].get<double>(), kFastCarbonG);
  // CSV: the four figures, then the chosen deltas.
  const std::string csv = study_summary_csv(s);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "lambda,job,iteration_ms,energy_j,carbon_g,cost,delta_c_pct,delta_m_pct,gpus_used,gpus,plan,seeds_agreeing,"
            "on_frontier,knee");
}

// ---- where ----

TEST(WhereStudy, RestrictingKeepsEveryRemainingLink) {
  json doc = two_sites();
  doc["gpus"].push_back({{"id", "c2"}, {"site", "clean"}, {"peak_tflops", 50}, {"memory_gib", 80}, {"idle_w", 10},
                         {"active_w", 60}});
  doc["network"]["links"].push_back({{"from", "c2"}, {"to", "c"}, {"bandwidth_gbps", 400}, {"latency_ms", 0}});
  const Problem full = parse_problem(doc).problem;
  const Problem clean = restricted_to_sites(full, {"clean"});
  ASSERT_EQ(clean.gpus.size(), 2u);
  EXPECT_EQ(clean.gpus[0].id, "c");
  ASSERT_EQ(clean.network.links.size(), 1u);  // c -> f is gone, c2 -> c stays
  EXPECT_EQ(clean.network.links[0].from_gpu, "c2");
  EXPECT_TRUE(clean.network.site_links.empty());
  EXPECT_EQ(clean.sites.size(), 1u);
  EXPECT_NO_THROW(parse_problem(problem_to_json(clean)));  // a valid problem file again
  const Problem both = restricted_to_sites(full, {"fast", "clean"});
  EXPECT_EQ(both.network.links.size(), 2u);
  EXPECT_EQ(both.network.site_links.size(), 1u);
}

TEST(WhereStudy, JobsPerSiteAndPairWithTheFullProblemsReferences) {
  const json jobs = study_jobs(two_sites().dump(), {{"study", "where"}, {"method", "exact"}});
  ASSERT_EQ(jobs["jobs"].size(), 3u);  // exact: one seed; fast, clean, fast+clean
  EXPECT_EQ(jobs["jobs"][0]["id"], "sites=fast/seed=1");
  EXPECT_EQ(jobs["jobs"][1]["id"], "sites=clean/seed=1");
  EXPECT_EQ(jobs["jobs"][2]["id"], "sites=fast+clean/seed=1");
  EXPECT_EQ(jobs["jobs"][1]["problem"]["gpus"].size(), 1u);
  EXPECT_EQ(jobs["jobs"][1]["problem"]["objective"]["t_ref_ms"], 10.0);
  EXPECT_EQ(jobs["jobs"][1]["options"]["lambda"], 0.5);
  for (const auto& job : jobs["jobs"]) EXPECT_NO_THROW(parse_problem(job["problem"]));
  // With four weights the jobs plan with them.
  json weighted = two_sites();
  weighted["objective"]["weights"] = {{"time", 1}, {"carbon", 1}};
  const json w = study_jobs(weighted.dump(), {{"study", "where"}, {"method", "exact"}});
  EXPECT_EQ(w["jobs"][0]["options"]["weights"]["carbon"], 1.0);
  EXPECT_FALSE(w["jobs"][0]["options"].contains("lambda"));
  EXPECT_REL(w["jobs"][1]["problem"]["objective"]["c_ref_g"].get<double>(), kFastCarbonG);  // the full problem's
}

TEST(WhereStudy, TheCleanestSiteIsNotTheFastest) {
  const json s = run_study(two_sites().dump(), {{"study", "where"}, {"method", "exact"}});
  EXPECT_EQ(s["sites"], json({"fast", "clean"}));
  ASSERT_EQ(s["points"].size(), 3u);
  const json& fast = s["points"][0];
  EXPECT_EQ(fast["sites"], json({"fast"}));
  EXPECT_REL(fast["iteration_ms"].get<double>(), 11.76);
  EXPECT_REL(fast["energy_j"].get<double>(), 2.94);
  EXPECT_REL(fast["carbon_g"].get<double>(), kFastCarbonG);
  EXPECT_REL(fast["cost"].get<double>(), kFastCost);
  EXPECT_REL(fast["objective"].get<double>(), 1.323);
  // Run of 1e6 iterations: 11760 s = 3.2667 h, 0.40833 kg, 9.8817 money.
  EXPECT_REL(fast["run"]["hours"].get<double>(), 1e6 * 0.01176 / 3600);
  EXPECT_REL(fast["run"]["carbon_kg"].get<double>(), 1e6 * kFastCarbonG / 1000);
  EXPECT_REL(fast["run"]["cost"].get<double>(), 1e6 * kFastCost);
  const json& clean = s["points"][1];
  EXPECT_REL(clean["iteration_ms"].get<double>(), 23.52);
  EXPECT_REL(clean["carbon_g"].get<double>(), kCleanCarbonG);
  EXPECT_REL(clean["cost"].get<double>(), kCleanCost);
  EXPECT_REL(clean["objective"].get<double>(), 1.5288);
  // The pair can do what either site does alone, so it is never worse.
  EXPECT_LE(s["points"][2]["objective"].get<double>(), 1.323 + 1e-12);
  EXPECT_EQ(s["fastest"]["sites"], json({"fast"}));  // 11.76 ms; the pair ties at best, and singles come first
  EXPECT_EQ(s["cleanest"]["sites"], json({"clean"}));
  EXPECT_REL(s["cleanest"]["carbon_g"].get<double>(), kCleanCarbonG);
  EXPECT_EQ(s["cheapest"]["sites"], json({"fast"}));
  EXPECT_TRUE(s["best"].is_object());
  EXPECT_EQ(s["notes"], json::array());
  const std::string csv = study_summary_csv(s);
  EXPECT_NE(csv.find("\nfast,sites=fast/seed=1,true,11.76"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",cleanest,"), std::string::npos) << csv;
}

TEST(WhereStudy, ASiteWhereNothingFitsSaysWhy) {
  json doc = two_sites();
  doc["gpus"].push_back({{"id", "tiny"}, {"site", "small"}, {"peak_tflops", 50}, {"memory_gib", 0.01},
                         {"idle_w", 10}, {"active_w", 60}});
  const json s = run_study(doc.dump(), {{"study", "where"}, {"method", "exact"}});
  ASSERT_EQ(s["points"].size(), 6u);  // 3 sites + 3 pairs
  const json& small = s["points"][2];
  EXPECT_EQ(small["sites"], json({"small"}));
  EXPECT_EQ(small["feasible"], false);
  EXPECT_TRUE(small["job"].is_null());
  EXPECT_NE(small["reason"].get<std::string>().find("memory"), std::string::npos) << small["reason"];
  EXPECT_EQ(s["points"][4]["sites"], json({"fast", "small"}));
  EXPECT_EQ(s["points"][4]["feasible"], true);
  EXPECT_EQ(s["jobs"], 5);
}

TEST(WhereStudy, OneSiteGivesOneRowAndANote) {
  const json s = run_study(testing::hand_problem().dump(), {{"study", "where"}, {"method", "exact"}});
  ASSERT_EQ(s["points"].size(), 1u);
  EXPECT_EQ(s["points"][0]["sites"], json({""}));
  ASSERT_EQ(s["notes"].size(), 2u);  // one site, and no site figures
  EXPECT_EQ(s["notes"][0].get<std::string>().rfind("every GPU is on one site ((no site))", 0), 0u) << s["notes"][0];
  EXPECT_TRUE(s["points"][0]["run"].is_null());  // no training.iterations
}

TEST(WhereStudy, RefusesMoreThanTwelveSites) {
  json doc = two_sites();
  doc.erase("sites");
  doc["network"].erase("site_links");
  doc["network"].erase("links");
  for (int i = 0; i < 11; ++i)
    doc["gpus"].push_back({{"id", "x" + std::to_string(i)}, {"site", "s" + std::to_string(i)}, {"peak_tflops", 50},
                           {"memory_gib", 80}, {"idle_w", 10}, {"active_w", 60}});
  EXPECT_EQ(errors_of([&] { study_jobs(doc.dump(), {{"study", "where"}}); }),
            std::vector<std::string>{
                "study: where to train compares at most 12 sites (78 subsets of one or two), the problem has 13"});
  doc["gpus"].erase(doc["gpus"].size() - 1);  // 12 sites: 78 subsets
  const json jobs = study_jobs(doc.dump(), {{"study", "where"}, {"method", "exact"}});
  EXPECT_EQ(jobs["jobs"].size(), 78u);
}

TEST(WhereStudy, WorldWideExampleSummarisesAlikeTwice) {
  const std::string text = read_example("world-wide.json");
  const json options = {{"study", "where"}, {"seeds", 1}, {"time_limit_s", 5}};
  const json jobs = study_jobs(text, options);
  ASSERT_GT(jobs["jobs"].size(), 1u);
  json results = json::object();
  // Two jobs solved; the rest missing: the summary says so.
  for (int j = 0; j < 2; ++j) {
    const json& job = jobs["jobs"][j];
    results[job["id"].get<std::string>()] = solve_request(job["problem"].dump(), parse_solve_options(job["options"]));
  }
  const json s = summarise_study(text, options, results);
  EXPECT_EQ(s["missing"], static_cast<int>(jobs["jobs"].size()) - 2);
  EXPECT_EQ(json(summarise_study(text, options, results)).dump(), s.dump());
  EXPECT_TRUE(s["points"][0].contains("carbon_g"));
}

// search.micro_batch_size "auto" may return a plan at another u: the summary figures it at that u,
// as evaluate does for a plan file with micro_batch_size, and refuses a u that does not divide B.
TEST(StudyResults, APlanAtAnotherMicroBatchSizeIsFiguredAtIt) {
  const std::string text = two_sites().dump();
  const json options = {{"study", "where"}, {"method", "exact"}};
  json plan = {{"stages", {{{"gpu", "f"}, {"layers", 2}}, {{"gpu", "c"}, {"layers", 2}}}}, {"micro_batch_size", 2}};
  const json s = summarise_study(text, options, {{"sites=fast+clean/seed=1", plan}});
  const json evaluated = evaluate_request(text, plan.dump());
  EXPECT_REL(s["points"][2]["iteration_ms"].get<double>(), evaluated["iteration_ms"].get<double>());
  EXPECT_REL(s["points"][2]["carbon_g"].get<double>(), evaluated["carbon_g"].get<double>());
  EXPECT_REL(s["points"][2]["run"]["hours"].get<double>(), evaluated["run"]["hours"].get<double>());
  plan.erase("micro_batch_size");
  const json at_own_u = evaluate_request(text, plan.dump());
  EXPECT_NE(evaluated["iteration_ms"], at_own_u["iteration_ms"]);  // u = 2 does change the figures
  plan["micro_batch_size"] = 3;
  const auto errors = errors_of([&] { summarise_study(text, options, {{"sites=fast+clean/seed=1", plan}}); });
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].rfind("results[\"sites=fast+clean/seed=1\"].micro_batch_size: must divide", 0), 0u) << errors[0];
}

}  // namespace
}  // namespace geotrain
