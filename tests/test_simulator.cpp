// The 1F1B simulation (simulator.md) on schedules worked out by hand: two and
// three stages, a few micro-batches, blocking and overlapped sends, a link
// that makes a transfer wait, two replicas sharing a link, and a stage-group
// plan built from the cost model's own figures.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "model/cost_model.hpp"
#include "model/group_layout.hpp"
#include "sim/simulator.hpp"
#include "sim/timing_builder.hpp"

namespace geotrain {
namespace {

// A pipeline of stages with forward f, backward b (no tensor part), every
// forward send `fwd` and backward send `bwd` seconds, each boundary its own
// pair of links. Times are in seconds; read the numbers as "units".
PipelineTimings pipeline(const std::vector<double>& f, const std::vector<double>& b, double fwd, double bwd,
                         std::int64_t m) {
  PipelineTimings t;
  PipelineTiming p;
  p.micro_batches = m;
  const int q_count = static_cast<int>(f.size());
  for (int q = 0; q < q_count; ++q) {
    StageTiming s;
    s.forward_compute_s = f[q];
    s.backward_compute_s = b[q];
    if (q + 1 < q_count) s.forward = SendTiming{0, fwd, t.link_index(q, q + 1)};
    if (q > 0) s.backward = SendTiming{0, bwd, t.link_index(q, q - 1)};
    s.device = q;
    t.devices.push_back({q});
    p.stages.push_back(s);
  }
  t.replicas.push_back(p);
  return t;
}

// The recorded event of one operation or transfer.
const ScheduleEvent& event(const Schedule& s, int stage, std::int64_t k, EventKind kind, int replica = 0) {
  for (const ScheduleEvent& e : s.events)
    if (e.replica == replica && e.stage == stage && e.micro_batch == k && e.kind == kind) return e;
  throw std::logic_error("no such event");
}

void expect_span(const Schedule& s, int stage, std::int64_t k, EventKind kind, double start, double end,
                 int replica = 0) {
  const ScheduleEvent& e = event(s, stage, k, kind, replica);
  EXPECT_DOUBLE_EQ(e.start_s, start) << event_kind_name(kind) << "(" << stage << "," << k << ")";
  EXPECT_DOUBLE_EQ(e.end_s, end) << event_kind_name(kind) << "(" << stage << "," << k << ")";
}

SimulationOptions with_events(SendMode sends) {
  SimulationOptions o;
  o.sends = sends;
  o.record_events = true;
  return o;
}

TEST(OneFOneB, OrderOfEachStage) {
  // Q = 3, m = 3: w_0 = 2, w_1 = 1, w_2 = 0.
  // Stage 0: F0 F1 | F2 B0 | B1 B2; stage 1: F0 | F1 B0 F2 B1 | B2; stage 2: F0 B0 F1 B1 F2 B2.
  const auto order = [](int q) {
    std::vector<std::pair<Pass, std::int64_t>> out;
    const std::int64_t w = warmup_forwards(3, q, 3);
    for (std::int64_t i = 0; i < 6; ++i) {
      const Operation op = operation_at(i, w, 3);
      out.emplace_back(op.pass, op.micro_batch);
    }
    return out;
  };
  const Pass F = Pass::forward, B = Pass::backward;
  using List = std::vector<std::pair<Pass, std::int64_t>>;
  EXPECT_EQ(order(0), (List{{F, 0}, {F, 1}, {F, 2}, {B, 0}, {B, 1}, {B, 2}}));
  EXPECT_EQ(order(1), (List{{F, 0}, {F, 1}, {B, 0}, {F, 2}, {B, 1}, {B, 2}}));
  EXPECT_EQ(order(2), (List{{F, 0}, {B, 0}, {F, 1}, {B, 1}, {F, 2}, {B, 2}}));
  // Fewer micro-batches than stages: w = min(Q - q - 1, m) = 1 of m = 1 on stage 0 of 3.
  EXPECT_EQ(warmup_forwards(3, 0, 1), 1);
}

TEST(Simulator, TwoStagesBlocking) {
  // f = 1, b = 2, every send 1, m = 2, blocking. Stage 0 runs F0 F1 B0 B1, stage 1 F0 B0 F1 B1.
  // S0: F(0,0) 0-1, send 1-2; F(0,1) 2-3, send 3-4.
  // S1: F(1,0) 2-3 (activation at 2); B(1,0) 3-5, send 5-6 (blocks stage 1 to 6);
  //     F(1,1) 6-7 (activation at 4, stage free at 6); B(1,1) 7-9, send 9-10.
  // S0: B(0,0) 6-8 (gradient at 6); B(0,1) 10-12 (gradient at 10). Makespan 12.
  // Analytic: tau_0 = 1 + 2 + 1 = 4 = tau_1, T = 8 + (2 - 1) 4 = 12: equal stages agree.
  const PipelineTimings t = pipeline({1, 1}, {2, 2}, 1, 1, 2);
  const Schedule s = simulate(t, with_events(SendMode::blocking));
  expect_span(s, 0, 0, EventKind::forward, 0, 1);
  expect_span(s, 0, 0, EventKind::send_forward, 1, 2);
  expect_span(s, 0, 1, EventKind::forward, 2, 3);
  expect_span(s, 1, 0, EventKind::forward, 2, 3);
  expect_span(s, 1, 0, EventKind::backward, 3, 5);
  expect_span(s, 1, 0, EventKind::send_backward, 5, 6);
  expect_span(s, 1, 1, EventKind::forward, 6, 7);
  expect_span(s, 1, 1, EventKind::send_backward, 9, 10);
  expect_span(s, 0, 0, EventKind::backward, 6, 8);
  expect_span(s, 0, 1, EventKind::backward, 10, 12);
  EXPECT_DOUBLE_EQ(s.iteration_s, 12);
  // 2 operations x 2 stages x 2 micro-batches, and a send after stage 0's
  // forwards and stage 1's backwards: 8 + 4.
  EXPECT_EQ(s.events.size(), 12u);
  // Stage 0 is busy for F, its send and B twice: 2 (1 + 1 + 2) = 8 of 12; stage 1 the same.
  EXPECT_DOUBLE_EQ(s.replicas[0].stages[0].busy_s, 8);
  EXPECT_DOUBLE_EQ(s.replicas[0].stages[1].busy_s, 8);
  EXPECT_DOUBLE_EQ(s.replicas[0].stages[0].compute_s, 6);
  // Warm-up ends when the last stage starts its first backward (3); cool-down
  // starts when stage 0 has no forward left (end of F(0,1), 3).
  EXPECT_DOUBLE_EQ(s.replicas[0].warmup_end_s, 3);
  EXPECT_DOUBLE_EQ(s.replicas[0].cooldown_start_s, 3);
  EXPECT_EQ(s.replicas[0].stages[0].max_in_flight, 2);
  EXPECT_EQ(s.replicas[0].stages[1].max_in_flight, 1);
}

TEST(Simulator, TwoStagesOverlapped) {
  // The same, sends overlapping compute. Stage 0's order is F0 F1 B0 B1:
  // S0: F(0,0) 0-1, its send 1-2; F(0,1) 1-2, its send ready at 2 and the link free: 2-3.
  // S1: F(1,0) 2-3; B(1,0) 3-5, send 5-6; F(1,1) 5-6 (activation at 3); B(1,1) 6-8, send 8-9.
  // S0: B(0,0) 6-8; B(0,1) 9-11. Makespan 11, one below the analytic 12.
  const PipelineTimings t = pipeline({1, 1}, {2, 2}, 1, 1, 2);
  const Schedule s = simulate(t, with_events(SendMode::overlapped));
  expect_span(s, 0, 1, EventKind::forward, 1, 2);
  expect_span(s, 0, 1, EventKind::send_forward, 2, 3);
  expect_span(s, 1, 1, EventKind::forward, 5, 6);
  expect_span(s, 1, 1, EventKind::send_backward, 8, 9);
  expect_span(s, 0, 1, EventKind::backward, 9, 11);
  EXPECT_DOUBLE_EQ(s.iteration_s, 11);
  // Only compute counts as busy: 2 (1 + 2) = 6 on each stage.
  EXPECT_DOUBLE_EQ(s.replicas[0].stages[0].busy_s, 6);
}

TEST(Simulator, ThreeUnequalStagesBlocking) {
  // f = (1, 2, 1), b = (2, 4, 2), every send 1, m = 3, blocking.
  // Orders: S0 F0 F1 F2 B0 B1 B2; S1 F0 F1 B0 F2 B1 B2; S2 F0 B0 F1 B1 F2 B2.
  // S0: F(0,0) 0-1 +send 1-2; F(0,1) 2-3 +3-4; F(0,2) 4-5 +5-6.
  // S1: F(1,0) 2-4 +4-5; F(1,1) 5-7 +7-8 (activation at 4, free at 5).
  // S2: F(2,0) 5-6; B(2,0) 6-8 +8-9; F(2,1) 9-10 (activation at 8, free at 9); B(2,1) 10-12 +12-13.
  // S1: B(1,0) 9-13 +13-14; F(1,2) 14-16 +16-17 (activation waited since 6); B(1,1) 17-21 +21-22.
  // S2: F(2,2) 17-18; B(2,2) 18-20 +20-21.
  // S1: B(1,2) 22-26 +26-27.
  // S0: B(0,0) 14-16; B(0,1) 22-24; B(0,2) 27-29. Makespan 29.
  // Analytic: tau = (1+2+1, 2+4+1+1, 1+2+1) = (4, 8, 4): 16 + (3 - 1) 8 = 32.
  const PipelineTimings t = pipeline({1, 2, 1}, {2, 4, 2}, 1, 1, 3);
  const Schedule s = simulate(t, with_events(SendMode::blocking));
  expect_span(s, 1, 1, EventKind::forward, 5, 7);
  expect_span(s, 2, 1, EventKind::forward, 9, 10);
  expect_span(s, 1, 0, EventKind::backward, 9, 13);
  expect_span(s, 1, 2, EventKind::forward, 14, 16);
  expect_span(s, 1, 1, EventKind::send_backward, 21, 22);
  expect_span(s, 2, 2, EventKind::backward, 18, 20);
  expect_span(s, 1, 2, EventKind::backward, 22, 26);
  expect_span(s, 0, 0, EventKind::backward, 14, 16);
  expect_span(s, 0, 1, EventKind::backward, 22, 24);
  expect_span(s, 0, 2, EventKind::backward, 27, 29);
  EXPECT_DOUBLE_EQ(s.iteration_s, 29);
  // Stage 0 keeps all three micro-batches in flight (Q - 0), stage 1 two, stage 2 one.
  EXPECT_EQ(s.replicas[0].stages[0].max_in_flight, 3);
  EXPECT_EQ(s.replicas[0].stages[1].max_in_flight, 2);
  EXPECT_EQ(s.replicas[0].stages[2].max_in_flight, 1);
  // Stage 1: its first backward starts at 9, its last forward ends at 16.
  EXPECT_DOUBLE_EQ(s.replicas[0].stages[1].warmup_end_s, 9);
  EXPECT_DOUBLE_EQ(s.replicas[0].stages[1].cooldown_start_s, 16);
  // The pipeline: full at 6 (B(2,0) starts), stage 0's last forward ends at 5.
  EXPECT_DOUBLE_EQ(s.replicas[0].warmup_end_s, 6);
  EXPECT_DOUBLE_EQ(s.replicas[0].cooldown_start_s, 5);
}

TEST(Simulator, ThreeUnequalStagesOverlapped) {
  // As above with sends overlapping compute:
  // S0: F(0,0) 0-1 (send 1-2); F(0,1) 1-2 (send 2-3); F(0,2) 2-3 (send 3-4).
  // S1: F(1,0) 2-4 (send 4-5); F(1,1) 4-6 (send 6-7).
  // S2: F(2,0) 5-6; B(2,0) 6-8 (send 8-9); F(2,1) 8-9 (activation at 7); B(2,1) 9-11 (send 11-12).
  // S1: B(1,0) 9-13 (send 13-14); F(1,2) 13-15 (send 15-16); B(1,1) 15-19 (send 19-20).
  // S2: F(2,2) 16-17; B(2,2) 17-19 (send 19-20).
  // S1: B(1,2) 20-24 (send 24-25).
  // S0: B(0,0) 14-16; B(0,1) 20-22; B(0,2) 25-27. Makespan 27.
  const PipelineTimings t = pipeline({1, 2, 1}, {2, 4, 2}, 1, 1, 3);
  const Schedule s = simulate(t, with_events(SendMode::overlapped));
  expect_span(s, 2, 1, EventKind::forward, 8, 9);
  expect_span(s, 1, 2, EventKind::forward, 13, 15);
  expect_span(s, 2, 2, EventKind::forward, 16, 17);
  expect_span(s, 1, 2, EventKind::backward, 20, 24);
  expect_span(s, 0, 2, EventKind::backward, 25, 27);
  EXPECT_DOUBLE_EQ(s.iteration_s, 27);
}

TEST(Simulator, TransferWaitsForItsLink) {
  // Two stages, f = b = 1, forward sends 3 (a slow link), backward sends 1, m = 3, overlapped.
  // S0 (F0 F1 B0 F2 B1 B2): F(0,0) 0-1, send 1-4; F(0,1) 1-2, its send ready at 2 but the link
  // is busy until 4: 4-7.
  // S1 (F0 B0 F1 B1 F2 B2): F(1,0) 4-5, B(1,0) 5-6 (send 6-7); F(1,1) 7-8, B(1,1) 8-9 (send 9-10).
  // S0: B(0,0) 7-8; F(0,2) 8-9, send 9-12; B(0,1) 10-11.
  // S1: F(1,2) 12-13, B(1,2) 13-14 (send 14-15). S0: B(0,2) 15-16. Makespan 16.
  // Analytic: tau_0 = 2 + 3 = 5, tau_1 = 2 + 1 = 3: 8 + 2 * 5 = 18.
  const PipelineTimings t = pipeline({0.5, 0.5}, {0.5, 0.5}, 3, 1, 3);
  PipelineTimings u = t;
  for (auto& st : u.replicas[0].stages) st.forward_compute_s = st.backward_compute_s = 1;
  const Schedule s = simulate(u, with_events(SendMode::overlapped));
  expect_span(s, 0, 1, EventKind::send_forward, 4, 7);
  expect_span(s, 0, 2, EventKind::send_forward, 9, 12);
  expect_span(s, 0, 1, EventKind::backward, 10, 11);
  expect_span(s, 0, 2, EventKind::backward, 15, 16);
  EXPECT_DOUBLE_EQ(s.iteration_s, 16);
  // Blocking: S0: F(0,0) 0-1 +1-4; F(0,1) 4-5 +5-8. S1: F(1,0) 4-5, B(1,0) 5-6 +6-7;
  // F(1,1) 8-9, B(1,1) 9-10 +10-11. S0: B(0,0) 8-9; F(0,2) 9-10 +10-13; B(0,1) 13-14.
  // S1: F(1,2) 13-14, B(1,2) 14-15 +15-16. S0: B(0,2) 16-17. Makespan 17.
  const Schedule blocking = simulate(u, with_events(SendMode::blocking));
  expect_span(blocking, 0, 1, EventKind::backward, 13, 14);
  EXPECT_DOUBLE_EQ(blocking.iteration_s, 17);
}

TEST(Simulator, ReplicasSharingALinkTakeTurnsByReplica) {
  // Two identical two-stage replicas whose forward sends share link 0 (as a
  // builder may say), f = 1, b = 2, sends 1, m = 1, blocking. Both F(0,0) end
  // at 1 and their sends become ready together: same stage, same
  // micro-batch, so replica 0 first (1-2), replica 1 when the link frees (2-3).
  PipelineTimings t = pipeline({1, 1}, {2, 2}, 1, 1, 1);
  t.replicas.push_back(t.replicas[0]);
  t.replicas[1].stages[1].backward.link = t.link_index(9, 8);  // its own backward link
  const Schedule s = simulate(t, with_events(SendMode::blocking));
  expect_span(s, 0, 0, EventKind::send_forward, 1, 2, 0);
  expect_span(s, 0, 0, EventKind::send_forward, 2, 3, 1);
  // Replica 1 then runs one unit later: F(1,0) 3-4, B(1,0) 4-6 +6-7, B(0,0) 7-9.
  EXPECT_DOUBLE_EQ(s.replicas[0].makespan_s, 8);
  EXPECT_DOUBLE_EQ(s.replicas[1].makespan_s, 9);
  EXPECT_DOUBLE_EQ(s.pipelines_s, 9);
}

TEST(Simulator, SyncAfterTheDrainAndEventsOfTheFirstAndLast) {
  // Equal stages with a data-parallel sync of 5 after the drain:
  // T_sim = (2 + 4 - 1) (f + b) + 5 with sends... here f = 1, b = 2, no send
  // time worth counting (1e-9), Q = 2, m = 4: (4 + 2 - 1) 3 + 5 = 20 (to 1e-8).
  PipelineTimings t = pipeline({1, 1}, {2, 2}, 1e-9, 1e-9, 4);
  t.after_drain_s = 5;
  SimulationOptions o = with_events(SendMode::blocking);
  o.event_head = 1;  // micro-batches 0 and 3 only
  const Schedule s = simulate(t, o);
  EXPECT_NEAR(s.iteration_s, 20, 1e-8);
  EXPECT_NEAR(s.pipelines_s, 15, 1e-8);
  for (const ScheduleEvent& e : s.events) EXPECT_TRUE(e.micro_batch == 0 || e.micro_batch == 3);
  EXPECT_EQ(s.events.size(), 2u * 2u * 3u);  // 2 stages x 2 micro-batches x (F, B, one send)
  // Micro-batches 1 and 2 merged on each stage: 2 (1 + 2) busy (sends negligible).
  EXPECT_NEAR(s.replicas[0].stages[0].merged_busy_s, 6, 1e-8);
  EXPECT_LT(s.replicas[0].stages[0].merged_start_s, s.replicas[0].stages[0].merged_end_s);
}

TEST(Simulator, StageGroupPlanFromTheCostModel) {
  // Stage 0: {g0, g1} with t = 2 on 100 TFLOPS, 1 layer; stage 1: g2 alone,
  // 1 layer and the head, 100 TFLOPS. H = T = V = 1000, u = 1, fp16, M = 2.
  // comp_0 = 3 * 24e6 * 1000 / (2 * 1e14) = 0.36 ms; its ring {g0, g1} over
  // 100 Gbps (1.25e10 B/s), 0.01 ms: AR(2e6 B) = 2 (1e-5 + 2e6 / 2.5e10) =
  // 1.8e-4 s, tp_0 = 4 * 1.8e-4 = 0.72 ms. So f_0 = 0.12 + 0.36 = 0.48 ms,
  // b_0 = 0.24 + 0.36 = 0.6 ms; a send 1e-5 + 2e6 / 1.25e10 = 0.17 ms.
  Problem p;
  p.model.hidden_size = 1000, p.model.num_layers = 2, p.model.seq_length = 1000, p.model.vocab_size = 1000;
  p.model.micro_batch_size = 1, p.model.global_batch_size = 2;
  for (int i = 0; i < 3; ++i) {
    Gpu g;
    g.id = "g" + std::to_string(i);
    g.peak_tflops = 100, g.memory_gib = 80, g.idle_w = 10, g.active_w = 100;
    p.gpus.push_back(g);
  }
  p.network.default_link = LinkSpec{100, 0.01, 1};
  const GroupPlan plan{GroupStage{{0, 1}, 2, 1}, GroupStage{{2}, 1, 1}};
  const PipelineTimings t = pipeline_timings(p, plan);
  ASSERT_EQ(t.replicas.size(), 1u);
  const StageTiming& s0 = t.replicas[0].stages[0];
  EXPECT_NEAR(s0.forward_s(), 0.48e-3, 1e-15);
  EXPECT_NEAR(s0.backward_s(), 0.6e-3, 1e-15);
  EXPECT_NEAR(s0.forward.total_s(), 0.17e-3, 1e-15);
  EXPECT_NEAR(s0.forward.latency_s, 1e-5, 1e-18);
  EXPECT_EQ(t.links[static_cast<std::size_t>(s0.forward.link)], (LinkEnds{0, 2}));  // the group's first GPU sends
  EXPECT_EQ(t.devices[0], (std::vector<int>{0, 1}));
  // The analytic T_iter is the cost model's own.
  const CostModel model(p, layout_of(plan));
  EXPECT_DOUBLE_EQ(t.analytic_iteration_s, model.evaluate(device_plan(plan)).iteration_s);
  // d = 1 everywhere: nothing after the drain.
  EXPECT_EQ(t.after_drain_s, 0.0);
  EXPECT_GT(simulate(t).iteration_s, 0.0);
  EXPECT_EQ(simulate(p, plan).iteration_s, simulate(t).iteration_s);  // simulate(problem, plan, options)
}

TEST(Simulator, RefusesTimingsItCannotRun) {
  PipelineTimings t = pipeline({1, 1}, {2, 2}, 1, 1, 2);
  t.replicas[0].stages[0].forward_compute_s = -1;
  EXPECT_THROW(Simulator{t}, std::invalid_argument);
  t = pipeline({1, 1}, {2, 2}, 1, 1, 2);
  t.replicas[0].stages[1].forward = SendTiming{0, 1, 0};  // the last stage sends on
  EXPECT_THROW(Simulator{t}, std::invalid_argument);
  t = pipeline({1, 1}, {2, 2}, 1, 1, 0);
  EXPECT_THROW(Simulator{t}, std::invalid_argument);
}

}  // namespace
}  // namespace geotrain
