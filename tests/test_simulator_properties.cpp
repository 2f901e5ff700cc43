// The 1F1B simulation's invariants on many random plans: every operation and
// transfer after its input, each stage's operations in 1F1B order and never
// overlapping, at most Q - q micro-batches in flight on stage q, one transfer
// per link at a time, blocking sends holding their sender, equal stages
// giving the analytic figure, overlapped never slower than blocking; and the
// same on plans built from random pools (pipelines and stage groups).
//
// GEOTRAIN_SIM_PROPERTY_RUNS sets how many random cases each test draws (a
// modest count by default; the long target raises it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "model/cost_model.hpp"
#include "model/group_layout.hpp"
#include "random_node_pool.hpp"
#include "random_pool.hpp"
#include "search/random.hpp"
#include "sim/simulator.hpp"
#include "sim/timing_builder.hpp"

namespace geotrain {
namespace {

int property_runs(int default_runs) {
  const char* text = std::getenv("GEOTRAIN_SIM_PROPERTY_RUNS");
  return text ? std::max(1, std::atoi(text)) : default_runs;
}

// Random timings: 1..6 stages (or 1..3 replicas of them), 1..9 micro-batches,
// durations in (0, 10] with some ties, every boundary on its own links. With
// equal_tau, every stage's tau_q (forward, backward and its sends) is the same
// T, split at random: the backward takes what the rest leaves.
PipelineTimings random_timings(Rng& rng, bool equal_tau) {
  PipelineTimings t;
  const int replicas = rng.bernoulli(0.2) ? rng.uniform_int(2, 3) : 1;
  const int q_count = rng.uniform_int(1, 6);
  const auto draw = [&] { return 0.5 * rng.uniform_int(1, 20); };
  const double tau = 31 + draw();  // above any forward (10) and two sends (20)
  int gpu = 0;
  for (int r = 0; r < replicas; ++r) {
    PipelineTiming p;
    p.micro_batches = rng.uniform_int(1, 9);
    for (int q = 0; q < q_count; ++q, ++gpu) {
      StageTiming st;
      st.forward_compute_s = draw();
      st.backward_compute_s = draw();
      st.tensor_s = equal_tau || rng.bernoulli(0.7) ? 0.0 : 0.25 * rng.uniform_int(0, 4);
      if (q + 1 < q_count) st.forward = SendTiming{0, draw(), t.link_index(gpu, gpu + 1)};
      if (q > 0) st.backward = SendTiming{0, draw(), t.link_index(gpu, gpu - 1)};
      if (equal_tau) st.backward_compute_s = tau - st.forward_compute_s - st.forward.total_s() - st.backward.total_s();
      st.device = static_cast<int>(t.devices.size());
      t.devices.push_back({gpu});
      p.stages.push_back(st);
    }
    t.replicas.push_back(p);
  }
  t.after_drain_s = rng.bernoulli(0.3) ? draw() : 0.0;
  return t;
}

// T = sum tau + (m - 1) max tau, per replica, then the largest plus what follows the drain.
double analytic_s(const PipelineTimings& t) {
  double worst = 0;
  for (const PipelineTiming& p : t.replicas) {
    double sum = 0, max = 0;
    for (const StageTiming& s : p.stages) sum += s.analytic_stage_s(), max = std::max(max, s.analytic_stage_s());
    worst = std::max(worst, sum + static_cast<double>(p.micro_batches - 1) * max);
  }
  return worst + t.after_drain_s;
}

constexpr double kEps = 1e-9;

using Key = std::tuple<int, int, std::int64_t, EventKind>;

// Every invariant of one simulated iteration; returns the number of failures seen.
void check_invariants(const PipelineTimings& t, const Schedule& s, SendMode mode, const std::string& name) {
  std::map<Key, ScheduleEvent> by_key;
  for (const ScheduleEvent& e : s.events) by_key[{e.replica, e.stage, e.micro_batch, e.kind}] = e;
  const auto at = [&](int r, int q, std::int64_t k, EventKind kind) -> const ScheduleEvent& {
    return by_key.at({r, q, k, kind});
  };
  std::map<int, std::vector<std::pair<double, double>>> per_link;
  double last_end = 0;
  for (int r = 0; r < t.replica_count(); ++r) {
    const PipelineTiming& p = t.replicas[static_cast<std::size_t>(r)];
    const int Q = p.stage_count();
    const std::int64_t m = p.micro_batches;
    double replica_end = 0;
    for (int q = 0; q < Q; ++q) {
      const StageTiming& st = p.stages[static_cast<std::size_t>(q)];
      double stage_free = 0;
      int in_flight = 0, most = 0;
      const std::int64_t w = warmup_forwards(Q, q, m);
      for (std::int64_t i = 0; i < 2 * m; ++i) {
        const Operation op = operation_at(i, w, m);
        const std::int64_t k = op.micro_batch;
        const bool forward = op.pass == Pass::forward;
        const ScheduleEvent& e = at(r, q, k, forward ? EventKind::forward : EventKind::backward);
        // In 1F1B order, one at a time, each for its own duration.
        ASSERT_GE(e.start_s, stage_free - kEps) << name << " stage " << q << " op " << i;
        ASSERT_NEAR(e.end_s - e.start_s, forward ? st.forward_s() : st.backward_s(), kEps) << name;
        // After its input.
        if (forward && q > 0) ASSERT_GE(e.start_s, at(r, q - 1, k, EventKind::send_forward).end_s - kEps) << name;
        if (!forward) ASSERT_GE(e.start_s, at(r, q, k, EventKind::forward).end_s - kEps) << name;
        if (!forward && q + 1 < Q) ASSERT_GE(e.start_s, at(r, q + 1, k, EventKind::send_backward).end_s - kEps) << name;
        stage_free = e.end_s;
        const SendTiming& send = forward ? st.forward : st.backward;
        if (send.exists()) {
          const ScheduleEvent& x = at(r, q, k, forward ? EventKind::send_forward : EventKind::send_backward);
          ASSERT_GE(x.start_s, e.end_s - kEps) << name;
          ASSERT_NEAR(x.end_s - x.start_s, send.total_s(), kEps) << name;
          per_link[send.link].push_back({x.start_s, x.end_s});
          if (mode == SendMode::blocking) stage_free = x.end_s;
          replica_end = std::max(replica_end, x.end_s);
        }
        replica_end = std::max(replica_end, e.end_s);
        in_flight += forward ? 1 : -1;
        most = std::max(most, in_flight);
      }
      ASSERT_LE(most, Q - q) << name;
      ASSERT_EQ(s.replicas[static_cast<std::size_t>(r)].stages[static_cast<std::size_t>(q)].max_in_flight, most) << name;
    }
    ASSERT_NEAR(s.replicas[static_cast<std::size_t>(r)].makespan_s, replica_end, kEps) << name;
    last_end = std::max(last_end, replica_end);
  }
  // One transfer per link at a time.
  for (auto& [link, spans] : per_link) {
    std::sort(spans.begin(), spans.end());
    for (std::size_t i = 1; i < spans.size(); ++i) ASSERT_GE(spans[i].first, spans[i - 1].second - kEps) << name << " link " << link;
  }
  ASSERT_NEAR(s.iteration_s, last_end + t.after_drain_s, kEps) << name;
}

SimulationOptions options(SendMode mode) {
  SimulationOptions o;
  o.sends = mode;
  o.record_events = true;
  return o;
}

TEST(SimulatorProperties, InvariantsOnRandomTimings) {
  Rng rng(2025);
  const int runs = property_runs(300);
  for (int i = 0; i < runs; ++i) {
    const PipelineTimings t = random_timings(rng, false);
    Simulator sim(t);
    const Schedule blocking = sim.run(options(SendMode::blocking));
    check_invariants(t, blocking, SendMode::blocking, "blocking case " + std::to_string(i));
    const double blocking_s = blocking.iteration_s;
    const Schedule overlapped = sim.run(options(SendMode::overlapped));
    check_invariants(t, overlapped, SendMode::overlapped, "overlapped case " + std::to_string(i));
    // Links serve one boundary each, so earlier sends can only make everything earlier.
    ASSERT_LE(overlapped.iteration_s, blocking_s + kEps) << i;
    // Without events the figures are the same.
    ASSERT_EQ(sim.run(SimulationOptions{}).iteration_s, blocking_s) << i;
  }
}

TEST(SimulatorProperties, EqualStagesGiveTheAnalyticFigure) {
  // Every stage the same tau_q, however split between forward, backward and
  // sends: with blocking sends (the analytic model's assumption) the
  // simulation is sum tau + (m - 1) max tau = (Q + m - 1) tau exactly.
  Rng rng(77);
  const int runs = property_runs(300);
  for (int i = 0; i < runs; ++i) {
    const PipelineTimings t = random_timings(rng, true);
    const double sim_s = simulate(t, SimulationOptions{}).iteration_s;
    ASSERT_NEAR(sim_s, analytic_s(t), 1e-12 * analytic_s(t)) << "case " << i;
  }
}

// A random plan over a random pool: a random subset of GPUs in random order, layers split at random.
Plan random_plan(Rng& rng, int gpus, int layers) {
  std::vector<int> order(static_cast<std::size_t>(gpus));
  for (int g = 0; g < gpus; ++g) order[static_cast<std::size_t>(g)] = g;
  rng.shuffle(order.begin(), order.end());
  const int q_count = rng.uniform_int(1, std::min(gpus, layers));
  std::vector<int> cuts;  // q_count - 1 distinct cut points in 1..layers-1
  std::vector<int> points;
  for (int l = 1; l < layers; ++l) points.push_back(l);
  rng.shuffle(points.begin(), points.end());
  cuts.assign(points.begin(), points.begin() + (q_count - 1));
  std::sort(cuts.begin(), cuts.end());
  Plan plan;
  int start = 0;
  for (int q = 0; q < q_count; ++q) {
    const int end = q + 1 < q_count ? cuts[static_cast<std::size_t>(q)] : layers;
    plan.push_back(Stage{order[static_cast<std::size_t>(q)], end - start});
    start = end;
  }
  return plan;
}

TEST(SimulatorProperties, PlansOfRandomPools) {
  const int runs = property_runs(300) / 3;
  for (int i = 0; i < runs; ++i) {
    const Problem problem = testing::random_pool(static_cast<std::uint64_t>(9000 + i), testing::PoolShape{2, 7, 2, 12});
    Rng rng(static_cast<std::uint64_t>(i));
    const CostModel model(problem);
    const Plan plan = random_plan(rng, static_cast<int>(problem.gpus.size()), static_cast<int>(problem.model.num_layers));
    const PipelineTimings t = pipeline_timings(problem, model, plan);
    EXPECT_EQ(t.analytic_iteration_s, model.evaluate(plan).iteration_s);
    // Each stage's tau as the simulation prices it is the cost model's, to rounding.
    const Schedule s = Simulator(t).run(options(SendMode::blocking));
    check_invariants(t, s, SendMode::blocking, problem.name);
    check_invariants(t, Simulator(t).run(options(SendMode::overlapped)), SendMode::overlapped, problem.name);
    // The simulation can only wait where the formula assumes none: it is
    // never below the busiest stage's m tau_q nor, with one micro-batch, off the formula.
    double busiest = 0;
    for (const StageTiming& st : t.replicas[0].stages) busiest = std::max(busiest, st.analytic_stage_s());
    EXPECT_GE(s.iteration_s, model.micro_batches() * busiest * (1 - 1e-12)) << problem.name;
    if (model.micro_batches() == 1) EXPECT_NEAR(s.iteration_s, t.analytic_iteration_s, 1e-9 * s.iteration_s);
  }
}

TEST(SimulatorProperties, StageGroupPlansOfRandomNodePools) {
  const int runs = property_runs(300) / 3;
  for (int i = 0; i < runs; ++i) {
    const Problem problem = testing::random_node_pool(static_cast<std::uint64_t>(500 + i));
    // Each node one stage (a group of all its GPUs, tensor-parallel when its size divides u... or not).
    std::map<std::string, std::vector<int>> nodes;
    for (std::size_t g = 0; g < problem.gpus.size(); ++g) nodes[problem.gpus[g].node.empty() ? problem.gpus[g].id : problem.gpus[g].node].push_back(static_cast<int>(g));
    GroupPlan plan;
    Rng rng(static_cast<std::uint64_t>(i));
    int left = static_cast<int>(problem.model.num_layers);
    for (auto& [name, gpus] : nodes) {
      if (left == 0) break;
      const int size = static_cast<int>(gpus.size());
      // t = size (pure tensor) or t = 1 with d = size shards when d divides u.
      const bool shards = problem.model.micro_batch_size % size == 0 && rng.bernoulli(0.5);
      plan.push_back(GroupStage{gpus, shards ? 1 : size, 1});
      --left;
    }
    plan.back().layers += left;
    const PipelineTimings t = pipeline_timings(problem, plan);
    const CostModel model(problem, layout_of(plan));
    EXPECT_EQ(t.analytic_iteration_s, model.evaluate(device_plan(plan)).iteration_s) << problem.name;
    const Schedule s = Simulator(t).run(options(SendMode::blocking));
    check_invariants(t, s, SendMode::blocking, problem.name);
    if (model.micro_batches() == 1) EXPECT_NEAR(s.iteration_s, t.analytic_iteration_s, 1e-9 * s.iteration_s);
  }
}

}  // namespace
}  // namespace geotrain
