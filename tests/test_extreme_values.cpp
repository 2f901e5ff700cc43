// Property: on every accepted problem, every method either refuses cleanly
// (InputError, PlanningError) or returns finite figures and a plan that
// evaluate accepts with the same figures, within its time limit; exact and
// brute force agree, and no method beats brute force. Problems are drawn from
// the extremes NumberLimits allows (each limit itself, denormal latencies,
// zero watts, ratios of 10^11 between GPUs and links, a quarter of them in
// hybrid mode with stage groups over nodes of two GPUs); every limit is also
// crossed once, and then every method must refuse naming the field.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "api/api.hpp"
#include "model/input_error.hpp"

namespace geotrain {
namespace {

using json = nlohmann::json;
constexpr double kTimeLimitS = 0.05;
const Method kAllMethods[] = {Method::memetic, Method::exact,          Method::brute_force,
                              Method::metis,   Method::metis_improved, Method::uniform};

// A small deterministic generator (std distributions differ between libraries).
struct Draw {
  std::uint64_t state;
  std::uint64_t next() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 33;
  }
  template <typename T>
  T pick(std::initializer_list<T> values) {
    return *(values.begin() + next() % values.size());
  }
  bool chance(int percent) { return static_cast<int>(next() % 100) < percent; }
};

json extreme_link(Draw& d) {
  return {{"bandwidth_gbps", d.pick({1e-6, 0.1, 10.0, 1e6})},
          {"latency_ms", d.pick({0.0, 5e-324, 1.0, 1e6})},  // 5e-324: the smallest denormal
          {"util", d.pick({1e-6, 0.5, 1.0})}};
}

// objectives.md at its limits: site figures, rents, four weights, references,
// a run length and, in some, the micro-batch size as a decision.
void add_extreme_prices(Draw& d, json& doc) {
  for (const auto& g : doc["gpus"]) {
    const std::string site = g["site"];
    doc["sites"][site] = {{"carbon_g_per_kwh", d.pick({0.0, 5e-324, 400.0, 1e4})},
                          {"pue", d.pick({1.0, 1.5, 10.0})},
                          {"price_per_kwh", d.pick({0.0, 5e-324, 0.2, 1e3})}};
  }
  for (auto& g : doc["gpus"]) g["price_per_hour"] = d.pick({0.0, 5e-324, 2.5, 1e6});
  json weights = {{"time", d.pick({0.0, 1e-6, 1.0, 1e6})}, {"energy", d.pick({0.0, 1.0})},
                  {"carbon", d.pick({0.0, 1e-6, 1.0, 1e6})}, {"cost", d.pick({0.0, 1.0, 1e6})}};
  if (weights["time"] == 0 && weights["energy"] == 0 && weights["carbon"] == 0 && weights["cost"] == 0)
    weights["carbon"] = 1;
  doc["objective"]["weights"] = weights;
  if (d.chance(30)) doc["objective"]["c_ref_g"] = d.pick({1e-9, 1.0, 1e15});
  if (d.chance(30)) doc["objective"]["m_ref"] = d.pick({1e-9, 1.0, 1e15});
  if (d.chance(50)) doc["training"] = {{"iterations", d.pick<std::int64_t>({1, 1'000'000'000'000})}};
  if (d.chance(20)) doc["search"]["micro_batch_size"] = "auto";
}

// Up to 5 GPUs and 8 layers, so that brute force stays instant.
json extreme_problem(Draw& d) {
  const int gpus = 1 + static_cast<int>(d.next() % 5);
  const std::int64_t u = d.pick<std::int64_t>({1, 2});
  json doc = {{"name", "extreme"},
              {"model",
               {{"hidden_size", d.pick<std::int64_t>({1, 16, 1000})},
                {"num_layers", 1 + static_cast<std::int64_t>(d.next() % 8)},
                {"seq_length", d.pick<std::int64_t>({1, 1000, 10'000'000})},
                {"vocab_size", d.pick<std::int64_t>({1, 1000, 100'000'000})},
                {"micro_batch_size", u},
                {"global_batch_size", u * d.pick<std::int64_t>({1, 4, 500'000'000})},
                {"precision", d.pick({"fp16", "fp32"})}}},
              {"search", {{"population", 10}, {"patience", 5}, {"max_generations", 30}, {"seed", d.next() % 1000}}}};
  const bool no_power = d.chance(25);
  for (int i = 0; i < gpus; ++i) {
    const double idle = no_power ? 0 : d.pick({0.0, 1e-6, 50.0, 1e6});
    const double active = no_power ? 0 : std::min(1e6, idle + d.pick({0.0, 1e-6, 300.0, 1e6}));
    doc["gpus"].push_back({{"id", "g" + std::to_string(i)},
                           {"site", d.pick({"A", "B"})},
                           {"peak_tflops", d.pick({1e-6, 1e-3, 312.0, 1e5})},
                           {"compute_util", d.pick({1e-6, 0.45, 1.0})},
                           {"memory_gib", d.pick({1e-6, 80.0, 1e6})},
                           {"memory_util", d.pick({1e-6, 1.0})},
                           {"idle_w", idle},
                           {"active_w", active}});
  }
  doc["network"] = {{"default", extreme_link(d)}};
  if (d.chance(50)) doc["network"]["inter_site"] = extreme_link(d);
  if (gpus > 1 && d.chance(50)) {
    json link = extreme_link(d);
    link["from"] = "g1", link["to"] = "g0";
    doc["network"]["links"] = json::array({link});
  }
  if (d.chance(25)) {  // stage groups: pairs of GPUs share a node (and so a site), over an intra-node link
    doc["search"]["parallelism"] = "hybrid";
    for (int i = 0; i < gpus; ++i) {
      doc["gpus"][i]["node"] = "n" + std::to_string(i / 2);
      doc["gpus"][i]["site"] = doc["gpus"][i / 2 * 2]["site"];
    }
    doc["network"]["intra_node"] = extreme_link(d);
  }
  doc["objective"] = {{"lambda", d.pick({0.0, 0.5, 1.0})}};
  if (d.chance(30)) doc["objective"]["t_ref_ms"] = d.pick({1e-9, 1.0, 1e15});
  if (d.chance(30)) doc["objective"]["e_ref_j"] = d.pick({1e-9, 1.0, 1e15});
  if (d.chance(40)) add_extreme_prices(d, doc);
  return doc;
}

struct Outcome {
  bool solved = false;
  json result;
};

bool finite_number(const json& value) { return value.is_number() && std::isfinite(value.get<double>()); }

// Runs one method and checks what any answer must satisfy.
Outcome run_checked(const std::string& text, Method method) {
  SolveOptions options;
  options.method = method;
  options.time_limit_s = kTimeLimitS;
  SCOPED_TRACE(method_name(method));
  Outcome out;
  const auto started = std::chrono::steady_clock::now();
  try {
    out.result = solve_request(text, options);
    out.solved = true;
  } catch (const PlanningError&) {  // a clean refusal: nothing fits, or beyond a method's limit
  } catch (const InputError& e) {
    ADD_FAILURE() << "an accepted problem was refused as input: " << e.what();
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_LT(seconds, kTimeLimitS + 1.0);  // its limit, and a margin for a loaded machine
  if (!out.solved) return out;
  const json& r = out.result;
  for (const char* key : {"iteration_ms", "energy_j", "objective", "t_ref_ms", "e_ref_j", "carbon_g", "cost"})
    EXPECT_TRUE(finite_number(r[key])) << key << " = " << r[key].dump();
  EXPECT_GT(r["iteration_ms"].get<double>(), 0);
  EXPECT_GE(r["energy_j"].get<double>(), 0);
  EXPECT_GT(r["e_ref_j"].get<double>(), 0);
  if (r.contains("gap")) EXPECT_TRUE(finite_number(r["gap"]));
  // The plan is one evaluate accepts, with the same figures.
  if (r["run"].is_object())
    for (const auto& [key, value] : r["run"].items()) EXPECT_TRUE(finite_number(value)) << "run." << key;
  const json evaluated =
      evaluate_request(text, json{{"stages", r["stages"]}, {"micro_batch_size", r["micro_batch_size"]}}.dump());
  EXPECT_EQ(evaluated["iteration_ms"], r["iteration_ms"]);
  EXPECT_EQ(evaluated["objective"], r["objective"]);
  EXPECT_EQ(evaluated["feasible"], r["feasible"]);
  return out;
}

// Returns whether some plan fits (brute force found one).
bool check_every_method(const json& doc) {
  const std::string text = doc.dump();
  SCOPED_TRACE(text);
  EXPECT_NO_THROW(validate_request(text));
  std::vector<Outcome> outcomes;
  for (Method m : kAllMethods) outcomes.push_back(run_checked(text, m));
  const Outcome& brute = outcomes[2];
  for (std::size_t k = 0; k < outcomes.size(); ++k) {
    SCOPED_TRACE(method_name(kAllMethods[k]));
    // Nothing fits, or something fits for every method (none refuses alone).
    EXPECT_EQ(outcomes[k].solved, brute.solved);
    if (!brute.solved || !outcomes[k].solved || !outcomes[k].result["feasible"].get<bool>()) continue;
    const double best = brute.result["objective"].get<double>(), found = outcomes[k].result["objective"].get<double>();
    const double tolerance = 1e-9 * std::fabs(best);
    EXPECT_GE(found, best - tolerance);  // brute force is the optimum
    if (kAllMethods[k] == Method::exact && outcomes[k].result.value("optimal", false))
      EXPECT_NEAR(found, best, tolerance);
  }
  return brute.solved;
}

TEST(ExtremeValues, EveryMethodOnProblemsAtTheLimits) {
  constexpr int kCases = 300;
  Draw d{20261201};
  int solved = 0;
  for (int i = 0; i < kCases; ++i) {
    SCOPED_TRACE(i);
    solved += check_every_method(extreme_problem(d));
  }
  std::printf("%d of %d problems have a plan that fits\n", solved, kCases);
  EXPECT_GE(solved, kCases / 3);  // the property is about plans: most problems must have one
}

TEST(ExtremeValues, EveryMethodOnAPoolThatDrawsNoPower) {
  Draw d{7};
  json doc = extreme_problem(d);
  doc["model"] = {{"hidden_size", 1000}, {"num_layers", 5}, {"seq_length", 1000},
                  {"vocab_size", 1000},  {"micro_batch_size", 1}, {"global_batch_size", 4}};
  for (auto& g : doc["gpus"]) g["idle_w"] = 0, g["active_w"] = 0, g["memory_gib"] = 80, g["memory_util"] = 1;
  doc["objective"] = {{"lambda", 1}};
  EXPECT_TRUE(check_every_method(doc));
}

// Each limit crossed once, on a problem that is otherwise fine.
struct Crossing {
  const char* field;  // JSON pointer
  double value;
  const char* path;   // as messages name it
};

const Crossing kCrossings[] = {
    {"/gpus/0/peak_tflops", 1e300, "gpus[0].peak_tflops"},
    {"/gpus/0/peak_tflops", 1e-320, "gpus[0].peak_tflops"},
    {"/gpus/0/peak_tflops", 1.0000001e5, "gpus[0].peak_tflops"},
    {"/gpus/0/compute_util", 1e-320, "gpus[0].compute_util"},
    {"/gpus/0/compute_util", 9.99e-7, "gpus[0].compute_util"},
    {"/gpus/0/memory_gib", 1e300, "gpus[0].memory_gib"},
    {"/gpus/0/memory_gib", 1e-320, "gpus[0].memory_gib"},
    {"/gpus/0/memory_util", 1e-320, "gpus[0].memory_util"},
    {"/gpus/0/idle_w", 1e-320, "gpus[0].idle_w"},
    {"/gpus/0/active_w", 1e308, "gpus[0].active_w"},
    {"/gpus/0/active_w", 1.0000001e6, "gpus[0].active_w"},
    {"/network/default/bandwidth_gbps", 1e-320, "network.default.bandwidth_gbps"},
    {"/network/default/bandwidth_gbps", 1e300, "network.default.bandwidth_gbps"},
    {"/network/default/latency_ms", 1e300, "network.default.latency_ms"},
    {"/network/default/util", 1e-320, "network.default.util"},
    {"/objective/t_ref_ms", 5e-324, "objective.t_ref_ms"},
    {"/objective/t_ref_ms", 1e300, "objective.t_ref_ms"},
    {"/objective/e_ref_j", 1e-10, "objective.e_ref_j"},
    {"/objective/e_ref_j", 1e16, "objective.e_ref_j"},
    {"/sites/A/carbon_g_per_kwh", 1.0001e4, "sites.A.carbon_g_per_kwh"},
    {"/sites/A/carbon_g_per_kwh", -5e-324, "sites.A.carbon_g_per_kwh"},
    {"/sites/A/pue", 0.999, "sites.A.pue"},
    {"/sites/A/pue", 1e300, "sites.A.pue"},
    {"/sites/A/price_per_kwh", 1e300, "sites.A.price_per_kwh"},
    {"/gpus/0/price_per_hour", 1.0000001e6, "gpus[0].price_per_hour"},
    {"/objective/weights/carbon", 1e300, "objective.weights.carbon"},
    {"/objective/weights/time", -1, "objective.weights.time"},
    {"/objective/c_ref_g", 1e-10, "objective.c_ref_g"},
    {"/objective/m_ref", 1e16, "objective.m_ref"},
};

TEST(ExtremeValues, EveryLimitCrossedIsRefusedByEveryMethod) {
  Draw d{3};
  json base = extreme_problem(d);
  base["gpus"][0]["idle_w"] = 10, base["gpus"][0]["active_w"] = 100;
  for (auto& g : base["gpus"]) g["site"] = "A";
  base["sites"] = {{"A", {{"carbon_g_per_kwh", 100}, {"pue", 1.2}, {"price_per_kwh", 0.1}}}};
  base["objective"]["weights"] = {{"time", 1}, {"carbon", 1}};
  for (const Crossing& c : kCrossings) {
    json doc = base;
    doc[json::json_pointer(c.field)] = c.value;
    const std::string text = doc.dump();
    SCOPED_TRACE(std::string(c.field) + " = " + json(c.value).dump());
    for (Method m : kAllMethods) {
      SolveOptions options;
      options.method = m;
      options.time_limit_s = kTimeLimitS;
      try {
        solve_request(text, options);
        ADD_FAILURE() << method_name(m) << " accepted it";
      } catch (const InputError& e) {
        EXPECT_EQ(e.messages().at(0).rfind(std::string(c.path) + ": must be ", 0), 0u) << e.messages()[0];
      }
    }
  }
}

}  // namespace
}  // namespace geotrain
