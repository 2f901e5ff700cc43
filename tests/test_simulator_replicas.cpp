// The simulation of replica plans (simulator.md, replicas.md): each replica's
// pipeline on its own micro-batches, sends priced by the replica model (a
// site pipe's capacity shared), and after the last replica drains the
// data-parallel sync and the cross-replica sync over sync_every. Schedules
// worked out by hand in the comments.
#include <gtest/gtest.h>

#include <cctype>
#include <stdexcept>

#include "model/cost_model.hpp"
#include "model/replica_cost_model.hpp"
#include "sim/replica_timing_builder.hpp"
#include "sim/simulator.hpp"
#include "sim/timing_builder.hpp"
#include "test_support.hpp"

namespace geotrain {
namespace {

// As test_replica_cost_model.cpp: H = T = V = 1000, u = 1, B = 4, fp16; a0, a1
// at site A and b0, b1 at site B, 100 TFLOPS; intra_site 100 Gbps, 0.1 ms;
// inter_site 10 Gbps, 10 ms. Two layers per stage: comp_0 = 2 * 0.72 =
// 1.44 ms, so f_0 = 1.44 / 3 = 0.48 ms and b_0 = 0.96 ms; the last stage adds
// the head's 0.06 ms: f_1 = 0.50 ms, b_1 = 1.00 ms. A send inside a site:
// 0.1 + 2e6 / 1.25e10 s = 0.26 ms.
Problem two_sites() { return testing::four_gpus_on_two_sites(); }

GroupStage one(int gpu, int layers) { return testing::one_gpu_stage(gpu, layers); }

PipelineTimings timings_of(const Problem& p, const ReplicaPlan& plan) {
  return replica_timings(p, resolve_links(p.network, p.gpus), plan);
}

double analytic_s(const Problem& p, const ReplicaPlan& plan) {
  const CostModel objective(p);
  const ReplicaPlanModel m(p, plan, objective);
  return m.model.evaluate(m.view()).iteration_s;
}

const ScheduleEvent& event(const Schedule& s, int replica, int stage, std::int64_t k, EventKind kind) {
  for (const ScheduleEvent& e : s.events)
    if (e.replica == replica && e.stage == stage && e.micro_batch == k && e.kind == kind) return e;
  throw std::logic_error("no such event");
}

SimulationOptions with_events(SendMode sends) {
  SimulationOptions o;
  o.sends = sends;
  o.record_events = true;
  return o;
}

TEST(SimulatedReplicas, UnequalSharesThenTheSyncPhase) {
  // Replica 0 on a0 -> a1 with m = 3, replica 1 on b0 -> b1 with m = 1.
  const Problem p = two_sites();
  const ReplicaPlan plan{Replica{3, {one(0, 2), one(1, 2)}}, Replica{1, {one(2, 2), one(3, 2)}}};
  const PipelineTimings t = timings_of(p, plan);
  ASSERT_EQ(t.replica_count(), 2);
  EXPECT_EQ(t.replicas[0].micro_batches, 3);
  EXPECT_EQ(t.replicas[1].micro_batches, 1);
  EXPECT_NEAR(t.replicas[1].stages[0].forward_s(), 0.48e-3, 1e-15);
  EXPECT_NEAR(t.replicas[1].stages[1].backward_s(), 1.00e-3, 1e-15);
  EXPECT_NEAR(t.replicas[1].stages[1].backward.total_s(), 0.26e-3, 1e-15);
  // Across replicas, stage 0's ring a0 -> b0 -> a0 and stage 1's a1 -> b1 -> a1 load
  // the pipes A -> B and B -> A with 2 (R - 1) / R (X_0 + X_1) = 9.8e7 B each:
  // 9.8e7 / 1.25e9 + 2 * 0.01 = 98.4 ms (test_replica_cost_model.cpp works it).
  EXPECT_NEAR(t.cross_replica_sync_s, 98.4e-3, 1e-15);
  EXPECT_EQ(t.data_parallel_sync_s, 0.0);  // one GPU per stage
  EXPECT_NEAR(t.after_drain_s, 98.4e-3, 1e-15);
  // Replica 0, blocking (stage 0: F0 F1 B0 F2 B1 B2; stage 1: F0 B0 F1 B1 F2 B2), in ms:
  //   F(0,0) 0-0.48, send -0.74; F(0,1) 0.74-1.22, send -1.48; F(1,0) 0.74-1.24;
  //   B(1,0) 1.24-2.24, send -2.50; F(1,1) 2.50-3.00; B(0,0) 2.50-3.46;
  //   F(0,2) 3.46-3.94, send -4.20; B(1,1) 3.00-4.00, send -4.26; F(1,2) 4.26-4.76;
  //   B(0,1) 4.26-5.22; B(1,2) 4.76-5.76, send -6.02; B(0,2) 6.02-6.98.
  // Replica 1 (m = 1): F 0-0.48, send -0.74, F 0.74-1.24, B 1.24-2.24, send -2.50, B 2.50-3.46.
  // T_sim = max(6.98, 3.46) + 98.4 = 105.38 ms, as the formula's 1.70 + 1.76 + 2 * 1.76 + 98.4.
  const Schedule s = simulate(t, with_events(SendMode::blocking));
  EXPECT_NEAR(s.replicas[0].makespan_s, 6.98e-3, 1e-12);
  EXPECT_NEAR(s.replicas[1].makespan_s, 3.46e-3, 1e-12);
  EXPECT_NEAR(event(s, 0, 0, 2, EventKind::forward).start_s, 3.46e-3, 1e-12);
  EXPECT_NEAR(event(s, 0, 1, 2, EventKind::forward).start_s, 4.26e-3, 1e-12);
  EXPECT_NEAR(event(s, 0, 0, 2, EventKind::backward).start_s, 6.02e-3, 1e-12);
  EXPECT_NEAR(event(s, 1, 0, 0, EventKind::backward).start_s, 2.50e-3, 1e-12);
  EXPECT_NEAR(s.pipelines_s, 6.98e-3, 1e-12);
  EXPECT_NEAR(s.iteration_s, 105.38e-3, 1e-12);
  EXPECT_NEAR(t.analytic_iteration_s, 105.38e-3, 1e-12);
  EXPECT_DOUBLE_EQ(t.analytic_iteration_s, analytic_s(p, plan));
}

TEST(SimulatedReplicas, SyncEveryDividesTheCrossReplicaSync) {
  Problem p = two_sites();
  p.training.sync_every = 4;
  const ReplicaPlan plan{Replica{3, {one(0, 2), one(1, 2)}}, Replica{1, {one(2, 2), one(3, 2)}}};
  const PipelineTimings t = timings_of(p, plan);
  EXPECT_EQ(t.sync_every, 4);
  // 6.98 + 98.4 / 4 = 31.58 ms.
  EXPECT_NEAR(simulate(t).iteration_s, 31.58e-3, 1e-12);
  EXPECT_DOUBLE_EQ(t.analytic_iteration_s, analytic_s(p, plan));
}

TEST(SimulatedReplicas, SendsShareASitePipe) {
  // Each replica crosses A -> B (replica 0 a0 -> b0, replica 1 a1 -> b1) under a
  // 4 Gbps (5e8 B/s) inter-site capacity: two sends share each direction,
  // min(1.25e9, 5e8 / 2) = 2.5e8 B/s, so every send is 10 + 2e6 / 2.5e8 = 18 ms.
  // The stage rings a0 <-> a1 and b0 <-> b1 stay inside their sites (no pipe):
  // AR_0 = 2 (0.1 + 4.8e7 / 2.5e10 s) = 4.04 ms, AR_1 = 2 (0.1 + 5e7 / 2.5e10 s) = 4.2 ms.
  Problem p = two_sites();
  p.network.inter_site->capacity_gbps = 4;
  const ReplicaPlan plan{Replica{2, {one(0, 2), one(2, 2)}}, Replica{2, {one(1, 2), one(3, 2)}}};
  const PipelineTimings t = timings_of(p, plan);
  EXPECT_NEAR(t.replicas[0].stages[0].forward.total_s(), 18e-3, 1e-15);
  EXPECT_NEAR(t.replicas[1].stages[1].backward.total_s(), 18e-3, 1e-15);
  EXPECT_NEAR(t.replicas[0].stages[0].forward.latency_s, 10e-3, 1e-15);
  EXPECT_NEAR(t.cross_replica_sync_s, 4.2e-3, 1e-15);
  // Each replica is on its own GPU links: no transfer waits for another replica's.
  EXPECT_NE(t.replicas[0].stages[0].forward.link, t.replicas[1].stages[0].forward.link);
  // Blocking, either replica (ms): F(0,0) 0-0.48, send -18.48; F(0,1) 18.48-18.96,
  // send -36.96; F(1,0) 18.48-18.98; B(1,0) 18.98-19.98, send -37.98; F(1,1) 37.98-38.48;
  // B(0,0) 37.98-38.94; B(1,1) 38.48-39.48, send -57.48; B(0,1) 57.48-58.44.
  // Makespan 58.44 = the formula's 19.44 + 19.50 + 19.50; T = 58.44 + 4.2 = 62.64 ms.
  const Schedule blocking = simulate(t, with_events(SendMode::blocking));
  EXPECT_NEAR(blocking.replicas[0].makespan_s, 58.44e-3, 1e-12);
  EXPECT_NEAR(blocking.replicas[1].makespan_s, 58.44e-3, 1e-12);
  EXPECT_NEAR(blocking.iteration_s, 62.64e-3, 1e-12);
  EXPECT_NEAR(t.analytic_iteration_s, 62.64e-3, 1e-12);
  // Overlapped: F(0,1) runs 0.48-0.96 but its send waits for the link until
  // 18.48 and arrives 36.48; F(1,0) 18.48-18.98, B(1,0) 18.98-19.98, send -37.98;
  // F(1,1) 36.48-36.98, B(1,1) 36.98-37.98, its send waits for the link until
  // 37.98 and arrives 55.98; B(0,0) 37.98-38.94; B(0,1) 55.98-56.94.
  // T = 56.94 + 4.2 = 61.14 ms, 1.5 ms under the formula.
  const Schedule overlapped = simulate(t, with_events(SendMode::overlapped));
  EXPECT_NEAR(event(overlapped, 1, 1, 1, EventKind::send_backward).start_s, 37.98e-3, 1e-12);
  EXPECT_NEAR(overlapped.replicas[1].makespan_s, 56.94e-3, 1e-12);
  EXPECT_NEAR(overlapped.iteration_s, 61.14e-3, 1e-12);
}

TEST(SimulatedReplicas, OneReplicaIsTheOnePipelineSimulation) {
  // Without capacities, a plan of one replica priced by the replica model is
  // the one-pipeline model bit for bit, so its simulation is too.
  const Problem p = two_sites();
  const GroupPlan stages{one(0, 1), one(2, 2), one(3, 1)};
  const Schedule a = simulate(timings_of(p, single_replica(stages, 4)));
  const Schedule b = simulate(p, stages);
  EXPECT_EQ(a.iteration_s, b.iteration_s);
  EXPECT_EQ(timings_of(p, single_replica(stages, 4)).analytic_iteration_s, pipeline_timings(p, stages).analytic_iteration_s);
}

}  // namespace
}  // namespace geotrain
