// Conditions that change (issue 25, point 5): work across rate steps worked
// out by hand, a slowdown in the middle of an operation, traces parsed (and
// refused, naming the field) and compiled onto a plan's links and devices,
// replays run back to back, and robustness scenarios: deterministic, in
// range, shared between plans that share a link.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "model/input_error.hpp"
#include "sim/replay.hpp"
#include "sim/robustness.hpp"
#include "sim/simulator.hpp"
#include "sim/timing_builder.hpp"
#include "sim/trace.hpp"
#include "test_support.hpp"

namespace geotrain {
namespace {

TEST(Conditions, WorkAcrossRateSteps) {
  // Rate 1 until 2, then 0.5: 3 units from t = 1 are 1 unit by 2 and 2 units
  // at half speed, 4 more: done at 6.
  const RateSteps steps{RateStep{2, 0.5, 0}};
  EXPECT_DOUBLE_EQ(finish_time(steps, 1, 3), 6);
  // Starting after the step: all at 0.5.
  EXPECT_DOUBLE_EQ(finish_time(steps, 3, 1), 5);
  // Back to 2x at 4: from 1, 1 unit by 2, 1 unit by 4, then 1 unit at rate 2 takes 0.5.
  EXPECT_DOUBLE_EQ(finish_time(RateSteps{{2, 0.5, 0}, {4, 2, 0}}, 1, 3), 4.5);
  EXPECT_DOUBLE_EQ(finish_time(RateSteps{}, 1, 3), 4);
  EXPECT_DOUBLE_EQ(latency_at(RateSteps{{2, 1, 0.04}}, 1, 0.01), 0.01);
  EXPECT_DOUBLE_EQ(latency_at(RateSteps{{2, 1, 0.04}}, 2, 0.01), 0.04);
}

TEST(Conditions, ASlowdownInTheMiddleOfABackward) {
  // One stage, f = 1, b = 2, m = 2; its GPU twice as slow from t = 2.
  // F0 0-1; B0 1-2 does half its work, the other unit at half speed takes 2: ends 4.
  // F1 4-6 (1 unit at 0.5); B1 6-10. Iteration 10 (4 + 2 + 4 against 6 as planned).
  PipelineTimings t;
  PipelineTiming p;
  p.micro_batches = 2;
  StageTiming s;
  s.forward_compute_s = 1, s.backward_compute_s = 2, s.device = 0;
  p.stages.push_back(s);
  t.replicas.push_back(p);
  t.devices.push_back({0});
  Conditions c;
  c.devices.push_back(RateSteps{{2, 0.5, 0}});
  SimulationOptions o;
  o.record_events = true;
  const Schedule sched = simulate(t, o, &c);
  EXPECT_DOUBLE_EQ(sched.iteration_s, 10);
  ASSERT_EQ(sched.events.size(), 4u);  // F0 B0 F1 B1: one stage sends nothing
  EXPECT_DOUBLE_EQ(sched.events[1].start_s, 1);
  EXPECT_DOUBLE_EQ(sched.events[1].end_s, 4);
  EXPECT_DOUBLE_EQ(sched.events[2].start_s, 4);
  EXPECT_DOUBLE_EQ(simulate(t).iteration_s, 6);
}

// Two GPUs on sites A and B and one more on B: g0 (A) -> g1 (B) -> g2 (B).
Problem three_gpus() {
  Problem p = testing::hand_pool({100, 100, 100}, 3);
  p.gpus[0].site = "A", p.gpus[1].site = "B", p.gpus[2].site = "B";
  p.network.inter_site = LinkSpec{10, 5, 1};
  return p;
}

TEST(Traces, ParsedCompiledAndReplayed) {
  const Problem p = three_gpus();
  const GroupPlan plan{GroupStage{{0}, 1, 1}, GroupStage{{1}, 1, 1}, GroupStage{{2}, 1, 1}};
  const auto links = resolve_links(p.network, p.gpus);
  const PipelineTimings t = pipeline_timings(p, links, plan);
  const Trace trace = parse_trace(nlohmann::json::parse(R"({"iterations": 3, "changes": [
      {"at_ms": 30, "gpu": "g2", "slowdown": 4},
      {"at_ms": 10, "link": {"from_site": "A", "to_site": "B"}, "bandwidth_gbps": 5},
      {"at_ms": 20, "link": {"from_site": "A", "to_site": "B"}, "latency_ms": 50}]})"), p);
  ASSERT_EQ(trace.changes.size(), 3u);
  EXPECT_EQ(*trace.iterations, 3);
  EXPECT_DOUBLE_EQ(trace.changes[0].at_s, 0.010);  // sorted by time
  const Conditions c = compile_conditions(trace, p, t, links);
  // The A -> B link (g0 -> g1): at 10 ms half its 10 Gbps (factor 0.5, planned 5 ms latency);
  // at 20 ms the factor holds and the latency becomes 50 ms.
  const int ab = t.replicas[0].stages[0].forward.link;
  ASSERT_EQ(c.links[static_cast<std::size_t>(ab)].size(), 2u);
  EXPECT_DOUBLE_EQ(c.links[static_cast<std::size_t>(ab)][0].rate, 0.5);
  EXPECT_DOUBLE_EQ(c.links[static_cast<std::size_t>(ab)][0].latency_s, 0.005);
  EXPECT_DOUBLE_EQ(c.links[static_cast<std::size_t>(ab)][1].rate, 0.5);
  EXPECT_DOUBLE_EQ(c.links[static_cast<std::size_t>(ab)][1].latency_s, 0.050);
  // g1 -> g2 stays inside B: untouched; g2 runs at a quarter from 30 ms.
  EXPECT_TRUE(c.links[static_cast<std::size_t>(t.replicas[0].stages[1].forward.link)].empty());
  EXPECT_DOUBLE_EQ(c.devices[2].at(0).rate, 0.25);
  // Replayed: back to back, and never faster than as planned.
  const double planned = simulate(t).iteration_s;
  const auto runs = replay(t, c, 3, SimulationOptions{});
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_DOUBLE_EQ(runs[1].start_s, runs[0].iteration_s);
  EXPECT_DOUBLE_EQ(runs[2].start_s, runs[0].iteration_s + runs[1].iteration_s);
  for (const auto& r : runs) EXPECT_GE(r.iteration_s, planned * (1 - 1e-12));
  EXPECT_GT(runs[2].iteration_s, planned * 1.5);  // the slow GPU and the slow link both hold by then
  // An empty trace changes nothing.
  const Conditions none = compile_conditions(parse_trace(nlohmann::json::object(), p), p, t, links);
  EXPECT_DOUBLE_EQ(replay(t, none, 1, SimulationOptions{})[0].iteration_s, planned);
}

TEST(Traces, AGroupRunsAtItsSlowestGpu) {
  const Problem p = three_gpus();
  PipelineTimings t;
  t.devices = {{1, 2}};
  const Trace trace = parse_trace(nlohmann::json::parse(R"({"changes": [
      {"at_ms": 1, "gpu": "g1", "slowdown": 2}, {"at_ms": 2, "gpu": "g2", "slowdown": 3},
      {"at_ms": 3, "gpu": "g2", "slowdown": 0.5}]})"), p);
  const Conditions c = compile_conditions(trace, p, t, resolve_links(p.network, p.gpus));
  ASSERT_EQ(c.devices[0].size(), 3u);
  EXPECT_DOUBLE_EQ(c.devices[0][0].rate, 0.5);        // g1 2x slower, g2 as planned
  EXPECT_DOUBLE_EQ(c.devices[0][1].rate, 1.0 / 3);    // g2 3x slower
  EXPECT_DOUBLE_EQ(c.devices[0][2].rate, 0.5);        // g2 faster again: g1 sets the pace
}

TEST(Traces, RefusedNamingTheField) {
  const Problem p = three_gpus();
  try {
    parse_trace(nlohmann::json::parse(R"({"iterations": 0, "changes": [
        {"at_ms": 1, "gpu": "g9", "slowdown": 2},
        {"at_ms": 1, "link": {"from": "g0", "to": "g0"}, "bandwidth_factor": 0},
        {"at_ms": 1, "link": {"from": "g0", "to": "g1"}},
        {"at_ms": 1, "gpu": "g1", "link": {"from": "g0", "to": "g1"}, "slowdown": 1}]})"), p);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    const auto& m = e.messages();
    const auto has = [&](const std::string& text) {
      for (const auto& line : m)
        if (line.find(text) != std::string::npos) return true;
      return false;
    };
    EXPECT_TRUE(has("trace.iterations: must be")) << e.what();
    EXPECT_TRUE(has("trace.changes[0].gpu: no GPU has the id \"g9\"")) << e.what();
    EXPECT_TRUE(has("trace.changes[1].link: a link joins two different GPUs")) << e.what();
    EXPECT_TRUE(has("trace.changes[1].bandwidth_factor: must be > 0")) << e.what();
    EXPECT_TRUE(has("trace.changes[2]: a link change needs")) << e.what();
    EXPECT_TRUE(has("trace.changes[3]: must name either a \"gpu\" or a \"link\"")) << e.what();
  }
}

TEST(Robustness, ScenariosAreDeterministicInRangeAndShared) {
  const Problem p = three_gpus();
  const PipelineTimings a = pipeline_timings(p, GroupPlan{GroupStage{{0}, 1, 2}, GroupStage{{1}, 1, 1}});
  const PipelineTimings b = pipeline_timings(p, GroupPlan{GroupStage{{0}, 1, 1}, GroupStage{{1}, 1, 1}, GroupStage{{2}, 1, 1}});
  RobustnessSettings settings;
  settings.scenarios = 50;
  std::set<int> stragglers;
  for (int i = 0; i < settings.scenarios; ++i) {
    const Scenario sa = draw_scenario(a, settings, i), sb = draw_scenario(b, settings, i);
    // g0 -> g1 is link 0 of both plans: the same factor in the same scenario.
    ASSERT_EQ(a.links[0], b.links[0]);
    EXPECT_EQ(sa.conditions.links[0][0].rate, sb.conditions.links[0][0].rate);
    EXPECT_GE(sa.conditions.links[0][0].rate, 0.7);
    EXPECT_LE(sa.conditions.links[0][0].rate, 1.3);
    EXPECT_TRUE(sa.straggler_gpu == 0 || sa.straggler_gpu == 1);  // one of plan a's own GPUs
    stragglers.insert(sb.straggler_gpu);
    EXPECT_EQ(draw_scenario(a, settings, i).conditions.links[0][0].rate, sa.conditions.links[0][0].rate);
  }
  EXPECT_EQ(stragglers.size(), 3u);
  const RobustnessFigures f = assess_robustness(b, settings);
  EXPECT_EQ(f.scenario_s.size(), 50u);
  EXPECT_LE(f.median_s, f.p90_s);
  EXPECT_LE(f.p90_s, f.worst_s);
  EXPECT_GT(f.mean_s, f.nominal_s);  // a straggler at half speed always costs more than jitter saves here
  // No jitter and no slowdown: every scenario is the plan as planned.
  settings.jitter = 0, settings.straggler_slowdown = 1;
  const RobustnessFigures calm = assess_robustness(b, settings);
  for (double t : calm.scenario_s) EXPECT_DOUBLE_EQ(t, calm.nominal_s);
}

}  // namespace
}  // namespace geotrain
