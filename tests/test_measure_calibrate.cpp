// geotrain calibrate: compute_util fitted so that the model's iteration time
// reproduces measured runs; cases worked by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "measure/calibrate.hpp"
#include "measure/least_squares.hpp"
#include "measured_fixtures.hpp"
#include "model/problem_json.hpp"

namespace geotrain {
namespace {

using measure::Document;
using measure::MeasuredRun;
using testing::refused_with;

// H = T = V = 1000, L = 4, u = 1, B = 4 (M = 4), fp16; C = 24 H^2 = 2.4e7.
// Types A (100 TFLOPS) and B (50 TFLOPS); 10 Gbps and 1 ms between any two.
const char* const kProblem = R"({"name": "hand", "model": {"hidden_size": 1000, "num_layers": 4, "seq_length": 1000,
  "vocab_size": 1000, "micro_batch_size": 1, "global_batch_size": 4},
  "gpus": [
    {"id": "a0", "type": "A", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250, "compute_util": 0.9},
    {"id": "a1", "type": "A", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250, "compute_util": 0.9},
    {"id": "b0", "type": "B", "peak_tflops": 50, "memory_gib": 80, "idle_w": 10, "active_w": 60, "compute_util": 0.7},
    {"id": "c0", "peak_tflops": 10, "memory_gib": 80, "idle_w": 10, "active_w": 60}],
  "network": {"default": {"bandwidth_gbps": 10, "latency_ms": 1}}})";

const std::string kOneStageA = R"({"stages": [{"gpu": "a0", "layers": 4}]})";
const std::string kOneStageB = R"({"stages": [{"gpu": "b0", "layers": 4}]})";
const std::string kTwoStagesA = R"({"stages": [{"gpu": "a0", "layers": 2}, {"gpu": "a1", "layers": 2}]})";

double util_of(const Document& problem, std::size_t gpu) { return problem["gpus"][gpu]["compute_util"].get<double>(); }

TEST(CalibrateTest, OneStageByHand) {
  // One stage of 4 layers on a0 at F = 1e14 u FLOP/s: compute (1 + 2) x 4 x 2.4e7 x 1000 / F = 2.88e11 / F,
  // the head 3 x 2 x 1000 x 1000 x 1000 / F = 6e9 / F: 2.94e11 / F = 2.94 ms / u per micro-batch, and
  // T = M x 2.94 / u = 11.76 ms / u. Measured 23.52 ms: u = 0.5, for a0 and a1 (type A) alike.
  const auto c = measure::calibrate(kProblem, {{"one.json", kOneStageA, 23.52, "given"}});
  EXPECT_NEAR(util_of(c.problem, 0), 0.5, 1e-12);
  EXPECT_NEAR(util_of(c.problem, 1), 0.5, 1e-12);
  EXPECT_EQ(util_of(c.problem, 2), 0.7);  // type B ran in no plan: unchanged
  ASSERT_EQ(c.types.size(), 1u);
  EXPECT_EQ(c.types[0].type, "A");
  EXPECT_EQ(c.types[0].gpus, 2u);
  EXPECT_EQ(c.types[0].before_min, 0.9);
  ASSERT_EQ(c.runs.size(), 1u);
  EXPECT_NEAR(c.runs[0].before_ms, 11.76 / 0.9, 1e-9);
  EXPECT_NEAR(c.runs[0].after_ms, 23.52, 1e-9);
  EXPECT_LT(c.rms_error, 1e-12);
  EXPECT_TRUE(c.determined);
  EXPECT_EQ(c.problem["gpus"][0]["sources"]["compute_util"], "calibrated: 1 run (one.json 23.52 ms), rms error 0%");
  EXPECT_EQ(c.changes.size(), 2u);
}

TEST(CalibrateTest, SendsMakeTimeAffineNotLinearInOneOverUtil) {
  // Two stages of 2 layers on a0, a1. Compute: stage 1 3 x 2 x 2.4e10 / F = 1.44 ms / u, stage 2 adds
  // the head: 1.5 ms / u. A send: 1 ms + 2e6 B / 1.25e9 B/s = 2.6 ms, one per stage (forward from 1,
  // backward from 2). tau1 = 1.44/u + 2.6, tau2 = 1.5/u + 2.6 (the max), so
  // T = tau1 + tau2 + 3 tau2 = 7.44 / u + 13 ms. Measured 27.88 ms: 7.44 / u = 14.88, u = 0.5 —
  // where a fit linear in 1/u (T = 20.44 / u) would have said 0.733.
  const auto c = measure::calibrate(kProblem, {{"two.json", kTwoStagesA, 27.88, "given"}});
  EXPECT_NEAR(util_of(c.problem, 0), 0.5, 1e-12);
  EXPECT_NEAR(c.runs[0].before_ms, 7.44 / 0.9 + 13, 1e-9);
}

TEST(CalibrateTest, TwoTypesTwoRunsTogether) {
  // Run 1 on a0: T = 11.76 / uA = 29.4 -> uA = 0.4. Run 2 on b0 (50 TFLOPS): T = 23.52 / uB = 29.4 ->
  // uB = 0.8. Least squares over both, with the 1e-3 pull toward (0.9, 0.7), lands within 1e-5 of it.
  const auto c = measure::calibrate(kProblem, {{"a.json", kOneStageA, 29.4, "given"}, {"b.json", kOneStageB, 29.4, "given"}});
  EXPECT_NEAR(util_of(c.problem, 0), 0.4, 1e-5);
  EXPECT_NEAR(util_of(c.problem, 2), 0.8, 1e-5);
  EXPECT_TRUE(c.determined);
  EXPECT_LT(c.rms_error, 1e-5);
  EXPECT_EQ(c.types.size(), 2u);
}

TEST(CalibrateTest, SeveralRunsOfOneTypeAreAveragedInTheLeastSquaresSense) {
  // T = 11.76 / u twice, measured 23.52 and 29.4: minimise (11.76/(23.52 u) - 1)^2 + (11.76/(29.4 u) - 1)^2.
  // With v = 1/u: (v/2 - 1)^2 + (0.4 v - 1)^2 is least at v = (1/2 + 0.4) / (1/4 + 0.16) = 2.195122,
  // u = 0.455556, each run off by +-9.76%.
  const auto c = measure::calibrate(kProblem, {{"a.json", kOneStageA, 23.52, "given"}, {"b.json", kOneStageA, 29.4, "given"}});
  EXPECT_NEAR(util_of(c.problem, 0), 0.41 / 0.9, 1e-9);
  EXPECT_NEAR(c.rms_error, std::sqrt((std::pow(0.9 / 0.82 - 1, 2) + std::pow(0.72 / 0.82 - 1, 2)) / 2), 1e-9);
}

TEST(CalibrateTest, OneRunCannotTellTwoTypesApart) {
  const std::string mixed = R"({"stages": [{"gpu": "a0", "layers": 2}, {"gpu": "b0", "layers": 2}]})";
  const auto c = measure::calibrate(kProblem, {{"mixed.json", mixed, 30, "given"}});
  EXPECT_FALSE(c.determined);
  ASSERT_FALSE(c.warnings.empty());
  EXPECT_EQ(c.warnings[0].rfind("1 run(s) cannot tell 2 GPU types apart", 0), 0u);
  EXPECT_LT(c.rms_error, 1e-4);  // it still reproduces the run
}

TEST(CalibrateTest, AFasterRunThanTheModelAllowsStopsAtOne) {
  // At u = 1 the one-stage plan takes 11.76 ms; measured 10: util stays 1 and the fit says it is 17.6% off.
  const auto c = measure::calibrate(kProblem, {{"fast.json", kOneStageA, 10, "given"}});
  EXPECT_EQ(util_of(c.problem, 0), 1.0);
  EXPECT_EQ(c.types[0].bound, "upper");
  EXPECT_NEAR(c.rms_error, 0.176, 1e-12);
  EXPECT_EQ(c.warnings[0], "A: even at compute_util 1 the model is slower than measured; the links or the plan may be priced too slowly");
}

TEST(CalibrateTest, AGpuWithoutATypeIsItsOwnType) {
  const std::string plan = R"({"stages": [{"gpu": "c0", "layers": 4}]})";
  // c0: 10 TFLOPS, T = 117.6 ms / u; measured 235.2: u = 0.5.
  const auto c = measure::calibrate(kProblem, {{"c.json", plan, 235.2, "given"}});
  EXPECT_EQ(c.types[0].type, "gpu c0");
  EXPECT_NEAR(util_of(c.problem, 3), 0.5, 1e-12);
}

TEST(CalibrateTest, ReadsAMegatronLog) {
  const auto run = measure::run_from_megatron_log("p.json", kOneStageA, testing::fixture("train.log"));
  EXPECT_DOUBLE_EQ(run.iteration_ms, 1892.6);
  EXPECT_EQ(run.how, "median of 8 logged intervals in train.log (the first, with start-up, left out)");
}

TEST(CalibrateTest, RefusesBadRunsNamingThem) {
  EXPECT_TRUE(refused_with([] { measure::calibrate(kProblem, {{"p.json", kOneStageA, -3, "given"}}); },
                           "p.json: the measured iteration time must be a positive number of ms up to 1e9, got -3"));
  EXPECT_TRUE(refused_with([] { measure::calibrate(kProblem, {{"p.json", R"({"stages": [{"gpu": "zz", "layers": 4}]})", 5, ""}}); },
                           "p.json: the plan names GPU \"zz\", which the problem does not have"));
  EXPECT_TRUE(refused_with([] { measure::calibrate(kProblem, {}); }, "calibrate: no measured runs (give --run PLAN:MS)"));
  const auto errors = testing::input_errors([] { measure::calibrate("{}", {{"p.json", kOneStageA, 5, ""}}); });
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0], "the problem to calibrate: model: required");
}

TEST(LeastSquaresTest, BoundedLevenbergMarquardtStopsAtTheBound) {
  // r = (x0 - 3, x1 + 1) on [0, 2] x [0, 2]: the least is at (2, 0).
  const auto fit = measure::levenberg_marquardt(
      [](const std::vector<double>& x) { return std::vector<double>{x[0] - 3, x[1] + 1}; }, {1, 1}, {0, 0}, {2, 2});
  EXPECT_NEAR(fit.x[0], 2, 1e-9);
  EXPECT_NEAR(fit.x[1], 0, 1e-9);
  EXPECT_NEAR(fit.cost, 2, 1e-9);
}

TEST(LeastSquaresTest, OneDimensionalSearches) {
  EXPECT_NEAR(measure::minimise_on_interval([](double x) { return (x - 0.3) * (x - 0.3); }, -1, 1), 0.3, 1e-7);
  EXPECT_NEAR(measure::increasing_root([](double x) { return x * x * x - 0.125; }, 0, 1), 0.5, 1e-15);
  EXPECT_EQ(measure::increasing_root([](double x) { return x - 5; }, 0, 1), 1.0);
}

}  // namespace
}  // namespace geotrain
