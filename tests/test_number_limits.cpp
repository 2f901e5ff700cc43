// The limits on a problem's numbers (core/model/derived_checks.hpp): each field
// is refused beyond its limit with a message naming the field and the limit,
// accepted at the limit; derived quantities of problems built in code are
// checked before planning; and a pool drawing no power still ranks plans.
#include "model/derived_checks.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>

#include "api/api.hpp"
#include "api/planner.hpp"
#include "model/input_error.hpp"
#include "search/baselines/baselines.hpp"
#include "problem_doc.hpp"

namespace geotrain {
namespace {

using json = nlohmann::json;
using testing::base_doc;
using testing::errors_of;
using testing::has_error;

// ---- Field limits: refused beyond, accepted at ----------------------------------------

TEST(NumberLimits, PeakTflopsBeyondEitherEndIsRefused) {
  json doc = base_doc();
  doc["gpus"][0]["peak_tflops"] = 1e300;  // 1e312 FLOP/s: no GPU, and a time of 0 per layer
  EXPECT_ERROR(doc, "gpus[0].peak_tflops: must be in [1e-06, 100000] TFLOPS, got 1e+300");
  doc["gpus"][0]["peak_tflops"] = 1e-7;
  EXPECT_ERROR(doc, "gpus[0].peak_tflops: must be in [1e-06, 100000] TFLOPS, got 1e-07");
  doc["gpus"][0]["peak_tflops"] = 1e5;
  EXPECT_ACCEPTED(doc);
  doc["gpus"][0]["peak_tflops"] = 1e-6;
  EXPECT_ACCEPTED(doc);
}

TEST(NumberLimits, DenormalUtilisationsAreRefused) {
  json doc = base_doc();
  doc["gpus"][1]["compute_util"] = 1e-320;  // a layer would take 1e300 s times the rest: infinity
  doc["gpus"][1]["memory_util"] = 5e-7;
  EXPECT_ERROR(doc, "gpus[1].compute_util: must be in [1e-06, 1], got 1e-320");
  EXPECT_ERROR(doc, "gpus[1].memory_util: must be in [1e-06, 1], got 5e-07");
  doc["gpus"][1]["compute_util"] = 1e-6;
  doc["gpus"][1]["memory_util"] = 1e-6;
  EXPECT_ACCEPTED(doc);
}

TEST(NumberLimits, MemoryBeyondAPebibyteIsRefused) {
  json doc = base_doc();
  doc["gpus"][0]["memory_gib"] = 2e6;
  EXPECT_ERROR(doc, "gpus[0].memory_gib: must be in [1e-06, 1e+06] GiB, got 2000000");
  doc["gpus"][0]["memory_gib"] = 1e6;
  EXPECT_ACCEPTED(doc);
}

TEST(NumberLimits, PowerIsZeroOrARealFigure) {
  json doc = base_doc();
  doc["gpus"][0]["active_w"] = 1e308;  // times any time overflows the energy
  EXPECT_ERROR(doc, "gpus[0].active_w: must be 0 or in [1e-06, 1e+06] W, got 1e+308");
  doc["gpus"][0]["idle_w"] = 0;
  doc["gpus"][0]["active_w"] = 1e-9;  // a denormal-prone nanowatt
  EXPECT_ERROR(doc, "gpus[0].active_w: must be 0 or in [1e-06, 1e+06] W, got 1e-09");
  doc["gpus"][0]["active_w"] = 0;
  EXPECT_ACCEPTED(doc);
  doc["gpus"][0]["active_w"] = 1e6;
  doc["gpus"][0]["idle_w"] = 1e-6;
  EXPECT_ACCEPTED(doc);
}

TEST(NumberLimits, LinkFiguresAreBounded) {
  json doc = base_doc();
  doc["network"]["default"] = {{"bandwidth_gbps", 1e-320}, {"latency_ms", 2e6}, {"util", 1e-7}};
  doc["network"]["links"] = {{{"from", "g0"}, {"to", "g1"}, {"bandwidth_gbps", 2e6}, {"latency_ms", 1}}};
  const auto errors = errors_of(doc);
  EXPECT_TRUE(has_error(errors, "network.default.bandwidth_gbps: must be in [1e-06, 1e+06] Gbps, got 1e-320"));
  EXPECT_TRUE(has_error(errors, "network.default.latency_ms: must be in [0, 1e+06] ms, got 2000000"));
  EXPECT_TRUE(has_error(errors, "network.default.util: must be in [1e-06, 1], got 1e-07"));
  EXPECT_TRUE(has_error(errors, "network.links[0].bandwidth_gbps: must be in [1e-06, 1e+06] Gbps, got 2000000"));
  doc["network"]["default"] = {{"bandwidth_gbps", 1e-6}, {"latency_ms", 1e6}, {"util", 1e-6}};
  doc["network"]["links"][0]["bandwidth_gbps"] = 1e6;
  doc["network"]["links"][0]["latency_ms"] = 0;
  EXPECT_ACCEPTED(doc);
}

TEST(NumberLimits, GivenReferencesAreBounded) {
  json doc = base_doc();
  doc["objective"] = {{"t_ref_ms", 5e-324}, {"e_ref_j", 1e300}};
  EXPECT_ERROR(doc, "objective.t_ref_ms: must be in [1e-09, 1e+15] ms, got 5e-324");
  EXPECT_ERROR(doc, "objective.e_ref_j: must be in [1e-09, 1e+15] J, got 1e+300");
  doc["objective"] = {{"t_ref_ms", 1e-9}, {"e_ref_j", 1e15}};
  EXPECT_ACCEPTED(doc);
}

// ---- Derived quantities --------------------------------------------------------------

TEST(DerivedQuantities, NoneFailWithinTheLimitsEvenAtTheWorstCorner) {
  // Every model size and GPU figure at the end that makes figures largest:
  // a layer is 72 H^2 u T = 7.2e26 FLOPs at 1 FLOP/s, the energy about 1e47 J.
  json doc = base_doc();
  doc["model"] = {{"hidden_size", 1000000}, {"num_layers", 1024},      {"seq_length", 10000000},
                  {"vocab_size", 100000000}, {"micro_batch_size", 1}, {"global_batch_size", 1000000000}};
  for (auto& g : doc["gpus"]) g.update({{"peak_tflops", 1e-6}, {"compute_util", 1e-6}, {"idle_w", 1e6}, {"active_w", 1e6}});
  doc["network"]["default"] = {{"bandwidth_gbps", 1e-6}, {"latency_ms", 1e6}, {"util", 1e-6}};
  doc["objective"] = {{"t_ref_ms", 1e-9}, {"e_ref_j", 1e-9}};
  EXPECT_ACCEPTED(doc);
  EXPECT_TRUE(derived_quantity_errors(parse_problem(doc).problem).empty());
}

TEST(DerivedQuantities, AProblemBuiltInCodeIsCheckedBeforePlanning) {
  Problem problem = parse_problem(base_doc()).problem;
  problem.gpus[0].peak_tflops = 1e300;  // 1e312 FLOP/s overflows to infinity
  problem.network.default_link->bandwidth_gbps = 1e-320;
  const auto errors = derived_quantity_errors(problem);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0], "gpus[0]: the effective speed peak_tflops x 1e12 x compute_util (FLOP/s) is inf, must be finite and > 0");
  EXPECT_EQ(errors[1], "network.default: one activation's send time (s) is inf, must be finite and > 0");
  EXPECT_THROW(prepare_problem(problem, SolveOptions{}), InputError);
}

TEST(DerivedQuantities, MetisSplitsEvenlyWhenSpeedsAreNotFinite) {
  // Built in code past validation: g0's 1e300 TFLOPS overflow to an infinite
  // speed, whose share of the layers was a NaN cast to int (about -2^31
  // layers, and a loop of 2^31 steps). Now the split is even: 2 and 2.
  Problem problem = parse_problem(base_doc()).problem;
  problem.gpus[0].peak_tflops = 1e300;
  CostModel model(problem);
  const SolveResult r = run_metis(model);
  ASSERT_EQ(r.plan.size(), 2u);
  EXPECT_EQ(r.plan[0].layers + r.plan[1].layers, 4);
  EXPECT_EQ(r.plan[0].layers, 2);
  EXPECT_EQ(r.plan[1].layers, 2);
}

// ---- A pool that draws no power ---------------------------------------------------------

TEST(ZeroPower, ReferenceEnergyIsOneJouleAndPlansRankByTime) {
  // The base pool at lambda 1 with every GPU at 0 W: E_ref would be 0 and
  // 0 x 0 / 0 made every objective NaN. Now E_ref = 1 J, energies are 0, and
  // brute force's plan is the time optimum of the same pool with power.
  json with_power = base_doc();
  json without = base_doc();
  for (auto& g : without["gpus"]) g["idle_w"] = 0, g["active_w"] = 0;
  SolveOptions brute;
  brute.method = Method::brute_force;
  const auto reference = solve_request(with_power.dump(), brute);
  const auto out = solve_request(without.dump(), brute);
  EXPECT_EQ(out["e_ref_j"], 1.0);
  EXPECT_EQ(out["energy_j"], 0.0);
  EXPECT_TRUE(std::isfinite(out["objective"].get<double>()));
  EXPECT_EQ(out["iteration_ms"], reference["iteration_ms"]);
  EXPECT_EQ(out["stages"], reference["stages"]);
  for (Method m : {Method::exact, Method::memetic, Method::metis_improved}) {
    SolveOptions options;
    options.method = m;
    options.time_limit_s = 2;
    const auto other = solve_request(without.dump(), options);
    SCOPED_TRACE(method_name(m));
    EXPECT_TRUE(std::isfinite(other["objective"].get<double>()));
    if (m != Method::metis_improved) EXPECT_EQ(other["iteration_ms"], reference["iteration_ms"]);
  }
}

TEST(ZeroPower, StragglerExampleAtZeroWattsGivesItsTimeOptimum) {
  // Issue 13's case: examples/straggler-4gpu.json (lambda 1) with every GPU at
  // 0 W gave memetic 522.5 ms, brute force 445.5 ms and exact 238.8 ms; the
  // time optimum, which the file with its watts gives at lambda 1, is 211.0 ms.
  std::ifstream file(std::string(GEOTRAIN_EXAMPLES_DIR) + "/straggler-4gpu.json");
  const json original = json::parse(file);
  json zero = original;
  for (auto& g : zero["gpus"]) g["idle_w"] = 0, g["active_w"] = 0;
  SolveOptions brute;
  brute.method = Method::brute_force;
  const double optimum_ms = solve_request(original.dump(), brute)["iteration_ms"].get<double>();
  EXPECT_NEAR(optimum_ms, 211.0, 0.05);
  for (Method m : {Method::brute_force, Method::exact, Method::memetic}) {
    SolveOptions options;
    options.method = m;
    const auto out = solve_request(zero.dump(), options);
    SCOPED_TRACE(method_name(m));
    EXPECT_EQ(out["iteration_ms"].get<double>(), optimum_ms);
    EXPECT_TRUE(std::isfinite(out["objective"].get<double>()));
  }
}

TEST(ZeroPower, EnergyTermStillRanksAMixedPool) {
  // Only g1 draws power. At lambda 0 the objective is E / E_ref: a plan on g0
  // alone uses 0 J, so it is the optimum whatever E_ref is.
  json doc = base_doc();
  doc["gpus"][0]["idle_w"] = 0, doc["gpus"][0]["active_w"] = 0;
  doc["objective"] = {{"lambda", 0}};
  SolveOptions brute;
  brute.method = Method::brute_force;
  const auto out = solve_request(doc.dump(), brute);
  EXPECT_EQ(out["stages"].dump(), R"([{"gpu":"g0","layers":4}])");
  EXPECT_EQ(out["objective"], 0.0);
}

}  // namespace
}  // namespace geotrain
