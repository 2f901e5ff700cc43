// Carbon, money and run totals (shared/spec/objectives.md) against figures
// worked out by hand, and the file format's rules for the new fields.
//
// The hand pool of test_cost_model.cpp: H = T = V = 1000, L = 4, u = 1, B = 4
// (M = 4), fp16; g0 100 TFLOPS 50/250 W, g1 50 TFLOPS 10/60 W, g2 100 TFLOPS
// 20/120 W. The three-stage plan [g0: 1][g1: 2][g2: 1] takes T = 29.06e-3 s
// and per GPU (test_cost_model.cpp, StageEnergiesAddUpToTheIterationEnergy)
//   E_g0 = 2.029 J, E_g1 = 0.8666 J, E_g2 = 0.8932 J (sum 3.7888 J).
// Sites here: g0 on "a" (400 g/kWh, PUE 1.5, 0.2 per kWh), g1 and g2 on "b"
// (100 g/kWh, PUE 1.2, 0.1 per kWh); rents g0 3.6 per hour, g1 1.8, g2 0.
#include <gtest/gtest.h>

#include <cmath>

#include "api/api.hpp"
#include "api/references.hpp"
#include "model/cost_model.hpp"
#include "model/input_error.hpp"
#include "model/plan_report.hpp"
#include "model/problem_json.hpp"
#include "problem_doc.hpp"

namespace geotrain {
namespace {

#define EXPECT_REL(actual, expected) EXPECT_NEAR((actual), (expected), 1e-9 * std::fabs(expected))

Gpu make_gpu(const char* id, const char* site, double tflops, double idle_w, double active_w, double rent) {
  Gpu g;
  g.id = id, g.site = site, g.peak_tflops = tflops, g.memory_gib = 80;
  g.idle_w = idle_w, g.active_w = active_w, g.price_per_hour = rent;
  return g;
}

Problem priced_pool() {
  Problem p;
  p.name = "priced hand pool";
  p.model.hidden_size = 1000, p.model.num_layers = 4, p.model.seq_length = 1000, p.model.vocab_size = 1000;
  p.model.micro_batch_size = 1, p.model.global_batch_size = 4, p.model.precision = Precision::fp16;
  p.gpus = {make_gpu("g0", "a", 100, 50, 250, 3.6), make_gpu("g1", "b", 50, 10, 60, 1.8),
            make_gpu("g2", "b", 100, 20, 120, 0)};
  p.network.default_link = LinkSpec{10, 1, 1};
  p.network.links = {{"g1", "g0", LinkSpec{100, 0.5, 1}}, {"g2", "g1", LinkSpec{40, 0, 1}}};
  p.sites["a"] = SiteFigures{400, 1.5, 0.2};
  p.sites["b"] = SiteFigures{100, 1.2, 0.1};
  return p;
}

const Plan kThreeStages = {{0, 1}, {1, 2}, {2, 1}};

// Facility energy F_g = E_g * PUE: g0 2.029 * 1.5 = 3.0435 J, g1 0.8666 * 1.2
// = 1.03992 J, g2 0.8932 * 1.2 = 1.07184 J.
// Carbon: (3.0435 * 400 + (1.03992 + 1.07184) * 100) / 3.6e6
//       = (1217.4 + 211.176) / 3.6e6 = 1428.576 / 3.6e6 = 3.9682667e-4 g.
// Money: electricity (3.0435 * 0.2 + 2.11176 * 0.1) / 3.6e6 = 0.819876 / 3.6e6
//       = 2.27743e-7; rent (3.6 + 1.8) * 29.06e-3 / 3600 = 0.156924 / 3600
//       = 4.359e-5; total 4.3817743e-5.
TEST(Objectives, CarbonAndMoneyOfThreeStages) {
  const Problem p = priced_pool();
  const PlanCost cost = CostModel(p).evaluate(kThreeStages);
  EXPECT_REL(cost.iteration_s, 29.06e-3);
  EXPECT_REL(cost.energy_j, 3.7888);
  EXPECT_REL(cost.carbon_g, 1428.576 / 3.6e6);
  EXPECT_REL(cost.cost, 0.819876 / 3.6e6 + 0.156924 / 3600);
}

TEST(Objectives, StageAndSiteFiguresAddUp) {
  const Problem p = priced_pool();
  const PlanReport r = report_plan(CostModel(p), kThreeStages, p);
  EXPECT_REL(r.stages[0].facility_energy_j, 3.0435);
  EXPECT_REL(r.stages[1].facility_energy_j, 1.03992);
  EXPECT_REL(r.stages[0].carbon_g, 1217.4 / 3.6e6);     // 3.0435 * 400 / 3.6e6
  EXPECT_REL(r.stages[2].carbon_g, 107.184 / 3.6e6);    // 1.07184 * 100 / 3.6e6
  EXPECT_REL(r.stages[0].electricity_cost, 0.6087 / 3.6e6);  // 3.0435 * 0.2
  EXPECT_REL(r.stages[0].rental_cost, 0.104616 / 3600);      // 3.6 * 29.06e-3
  EXPECT_EQ(r.stages[2].rental_cost, 0.0);
  const auto out = report_to_json(r, p);
  ASSERT_EQ(out["sites"].size(), 2u);
  EXPECT_EQ(out["sites"][0]["site"], "a");
  EXPECT_EQ(out["sites"][1]["gpus_used"], 2);
  // Site b: F = 1.03992 + 1.07184 = 2.11176 J, carbon 211.176 / 3.6e6 g,
  // money 0.211176 / 3.6e6 + 1.8 * 29.06e-3 / 3600 = 5.8660e-8 + 1.453e-5.
  EXPECT_REL(out["sites"][1]["facility_energy_j"].get<double>(), 2.11176);
  EXPECT_REL(out["sites"][1]["carbon_g"].get<double>(), 211.176 / 3.6e6);
  EXPECT_REL(out["sites"][1]["cost"].get<double>(), 0.211176 / 3.6e6 + 0.052308 / 3600);
  EXPECT_REL(out["facility_energy_j"].get<double>(), 3.0435 + 2.11176);
  EXPECT_TRUE(out["run"].is_null());  // no training.iterations
}

// 100,000 iterations: 2906 s = 0.80722 h = 0.033634 days; E 378,880 J =
// 0.105244 kWh; F 515,526 J = 0.143202 kWh; carbon 39.683 g = 0.039683 kg;
// money 4.3817743.
TEST(Objectives, RunTotalsOverTheIterations) {
  Problem p = priced_pool();
  p.training.iterations = 100000;
  const auto run = report_to_json(report_plan(CostModel(p), kThreeStages, p), p)["run"];
  EXPECT_EQ(run["iterations"], 100000);
  EXPECT_REL(run["hours"].get<double>(), 2906.0 / 3600);
  EXPECT_REL(run["days"].get<double>(), 2906.0 / 86400);
  EXPECT_REL(run["energy_kwh"].get<double>(), 378880.0 / 3.6e6);
  EXPECT_REL(run["facility_energy_kwh"].get<double>(), 515526.0 / 3.6e6);
  EXPECT_REL(run["carbon_kg"].get<double>(), 1e5 * 1428.576 / 3.6e6 / 1000);
  EXPECT_REL(run["cost"].get<double>(), 1e5 * (0.819876 / 3.6e6 + 0.156924 / 3600));
}

// Weights {1, 1, 1, 1}, references 10 ms, 2 J, 1e-4 g, 1e-5:
// 2.906 + 1.8944 + 3.9682667 + 4.3817743 = 13.150441.
TEST(Objectives, FourWeightedTerms) {
  Problem p = priced_pool();
  p.objective.weights = ObjectiveWeights{1, 1, 1, 1};
  CostModel cm(p);
  cm.set_references(0.01, 2, 1e-4, 1e-5);
  const double carbon = 1428.576 / 3.6e6, money = 0.819876 / 3.6e6 + 0.156924 / 3600;
  EXPECT_REL(cm.evaluate(kThreeStages).objective, 2.906 + 1.8944 + carbon / 1e-4 + money / 1e-5);
  // Carbon alone: 3.9682667; money alone: 4.3817743.
  cm.set_weights(ObjectiveWeights{0, 0, 1, 0});
  EXPECT_REL(cm.evaluate(kThreeStages).objective, carbon / 1e-4);
  cm.set_weights(ObjectiveWeights{0, 0, 0, 1});
  EXPECT_REL(cm.evaluate(kThreeStages).objective, money / 1e-5);
}

// Without sites or rents the objective is the paper's two terms bit for bit.
TEST(Objectives, NoPricesGiveThePapersObjectiveExactly) {
  Problem p = priced_pool();
  p.sites.clear();
  for (Gpu& g : p.gpus) g.price_per_hour = 0;
  p.objective.lambda = 0.3;
  CostModel cm(p);
  cm.set_references(0.01, 2);
  EXPECT_FALSE(cm.has_prices());
  const PlanCost cost = cm.evaluate(kThreeStages);
  EXPECT_EQ(cost.carbon_g, 0.0);
  EXPECT_EQ(cost.cost, 0.0);
  EXPECT_EQ(cost.objective, 0.3 * cost.iteration_s / 0.01 + (1.0 - 0.3) * cost.energy_j / 2);
  // lambda is the shorthand of {lambda, 1 - lambda, 0, 0}.
  CostModel weighted(p);
  weighted.set_weights(ObjectiveWeights{0.3, 1.0 - 0.3, 0, 0});
  weighted.set_references(0.01, 2);
  EXPECT_EQ(weighted.evaluate(kThreeStages).objective, cost.objective);
}

// The bound powers turn the non-time terms into one energy-like sum:
// bound_objective(T, T sum bound_idle + M sum bound_active comp) = objective.
TEST(Objectives, BoundPowersReproduceTheObjective) {
  Problem p = priced_pool();
  for (const ObjectiveWeights w : {ObjectiveWeights{1, 1, 1, 1}, ObjectiveWeights{0, 0, 1, 0},
                                   ObjectiveWeights{0.5, 0, 0, 2}, ObjectiveWeights{1, 0, 0, 0}}) {
    p.objective.weights = w;
    CostModel cm(p);
    cm.set_references(0.01, 2, 1e-4, 1e-5);
    const PlanCost cost = cm.evaluate(kThreeStages);
    double idle = 0, active = 0;
    for (const Stage& s : kThreeStages) {
      const double comp = s.layers * cm.layer_compute_s(s.gpu) + (s.gpu == 2 ? cm.head_compute_s(2) : 0.0);
      idle += cm.bound_idle_w(s.gpu), active += cm.bound_active_extra_w(s.gpu) * comp;
    }
    EXPECT_REL(cm.bound_objective(cost.iteration_s, cost.iteration_s * idle + cm.micro_batches() * active),
               cost.objective);
  }
}

// A group's shards idle while the slowest computes: its carbon is the sum of
// each GPU's E_g (with comp_gj = comp_q * slowest / F_j) times PUE and intensity.
TEST(Objectives, GroupCarbonIsTheSumOverItsGpus) {
  Problem p = priced_pool();
  p.model.micro_batch_size = 2, p.model.global_batch_size = 4;  // two shards of one sample, M = 2
  p.gpus[1].site = "a";                                         // g0 and g1 as one group on site a
  p.gpus[0].node = p.gpus[1].node = "n0";
  CostModel cm(p, GroupLayout{DeviceGroup{{0, 1}, 1}, DeviceGroup{{2}, 1}});
  const PlanCost cost = cm.evaluate(Plan{{0, 3}, {1, 1}});
  // comp of the group (its slowest shard g1, 50 TFLOPS, one sample): 3 layers
  // of 7.2e10 / 5e13 = 1.44e-3 s = 4.32e-3 s; g0 computes half as long.
  const double comp_g1 = 4.32e-3, comp_g0 = comp_g1 * 5e13 / 1e14;
  const double comp_g2 = cm.layer_compute_s(1) + cm.head_compute_s(1);
  const double T = cost.iteration_s, M = 2;
  const double e0 = T * 50 + M * 200 * comp_g0, e1 = T * 10 + M * 50 * comp_g1, e2 = T * 20 + M * 100 * comp_g2;
  EXPECT_REL(cost.energy_j, e0 + e1 + e2);
  EXPECT_REL(cost.carbon_g, (e0 + e1) * 1.5 * 400 / 3.6e6 + e2 * 1.2 * 100 / 3.6e6);
  EXPECT_REL(cost.cost, (e0 + e1) * 1.5 * 0.2 / 3.6e6 + e2 * 1.2 * 0.1 / 3.6e6 + (3.6 + 1.8) * T / 3600);
}

}  // namespace
}  // namespace geotrain
