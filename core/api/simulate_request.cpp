#include "api/simulate_request.hpp"

#include <algorithm>

#include "api/planner.hpp"
#include "api/replica_output.hpp"
#include "model/input_error.hpp"
#include "model/json_fields.hpp"
#include "model/message_list.hpp"
#include "model/plan_json.hpp"
#include "model/problem_json.hpp"
#include "model/replica_plan_json.hpp"
#include "sim/replay.hpp"
#include "sim/replica_timing_builder.hpp"
#include "sim/simulator.hpp"
#include "sim/timing_builder.hpp"
#include "sim/trace.hpp"

namespace geotrain {

using json = nlohmann::ordered_json;

const char* send_mode_name(SendMode sends) { return sends == SendMode::blocking ? "blocking" : "overlapped"; }

SimulateOptions parse_simulate_options(const nlohmann::json& options) {
  SimulateOptions out;
  if (options.is_null()) return out;
  FieldReader r;
  if (!r.open_object(options, "options", {"sends", "events", "events_each_end", "trace", "iterations"}))
    throw InputError(r.errors());
  if (auto sends = r.string(options, "options", "sends", false)) {
    if (*sends == "overlapped") out.sends = SendMode::overlapped;
    else if (*sends != "blocking")
      r.error("options.sends", "must be \"blocking\" or \"overlapped\", got " + FieldReader::describe(*sends));
  }
  if (options.contains("events")) {
    if (options["events"].is_boolean()) out.events = options["events"].get<bool>();
    else r.error("options.events", "must be true or false, got " + FieldReader::describe(options["events"]));
  }
  out.events_each_end = r.integer(options, "options", "events_each_end", false, 0, std::int64_t{1} << 40);
  out.iterations = r.integer(options, "options", "iterations", false, 1, 100000);
  if (options.contains("trace") && !options["trace"].is_null()) out.trace = options["trace"];
  if (!r.errors().empty()) throw InputError(r.errors());
  return out;
}

namespace {

double ms(double s) { return s * 1000.0; }

json stage_entry(const Problem& problem, const PipelineTimings& timings, const StageTiming& timing,
                 const StageSchedule& stage, int q, double span_s) {
  const std::vector<int>& gpus = timings.devices[static_cast<std::size_t>(timing.device)];
  json out = {{"stage", q}, {"gpu", problem.gpus[static_cast<std::size_t>(gpus.front())].id}};
  if (gpus.size() > 1) {
    json ids = json::array();
    for (int g : gpus) ids.push_back(problem.gpus[static_cast<std::size_t>(g)].id);
    out["gpus"] = ids;
  }
  out["forward_ms"] = ms(timing.forward_s());
  out["backward_ms"] = ms(timing.backward_s());
  out["send_forward_ms"] = ms(timing.forward.total_s());
  out["send_backward_ms"] = ms(timing.backward.total_s());
  out["busy_ms"] = ms(stage.busy_s);
  out["idle_ms"] = ms(std::max(0.0, span_s - stage.busy_s));
  out["compute_ms"] = ms(stage.compute_s);
  out["warmup_end_ms"] = ms(stage.warmup_end_s);
  out["cooldown_start_ms"] = ms(stage.cooldown_start_s);
  out["max_in_flight"] = stage.max_in_flight;
  return out;
}

json event_entry(const ScheduleEvent& e) {
  return {{"replica", e.replica},      {"stage", e.stage},           {"micro_batch", e.micro_batch},
          {"kind", event_kind_name(e.kind)}, {"start_ms", ms(e.start_s)}, {"end_ms", ms(e.end_s)}};
}

json merged_entries(const Schedule& schedule) {
  json out = json::array();
  for (std::size_t r = 0; r < schedule.replicas.size(); ++r) {
    const auto& stages = schedule.replicas[r].stages;
    for (std::size_t q = 0; q < stages.size(); ++q) {
      const StageSchedule& s = stages[q];
      if (!(s.merged_end_s > s.merged_start_s)) continue;
      out.push_back({{"replica", r}, {"stage", q}, {"start_ms", ms(s.merged_start_s)}, {"end_ms", ms(s.merged_end_s)},
                     {"busy_ms", ms(s.merged_busy_s)}});
    }
  }
  return out;
}

}  // namespace

json schedule_report(const Problem& problem, const PipelineTimings& timings, const Schedule& schedule, SendMode sends) {
  const double span_s = schedule.pipelines_s;
  json out;
  out["sends"] = send_mode_name(sends);
  std::int64_t micro_batches = 0;
  for (const PipelineTiming& p : timings.replicas) micro_batches += p.micro_batches;
  out["micro_batches"] = micro_batches;
  const bool several = timings.replicas.size() > 1;
  if (several) {
    json spans = json::array();
    for (const ReplicaSchedule& r : schedule.replicas) spans.push_back(ms(r.makespan_s));
    out["makespan_ms"] = spans;
  } else {
    out["makespan_ms"] = ms(schedule.replicas.front().makespan_s);
  }
  out["iteration_ms"] = ms(schedule.iteration_s);
  out["analytic_iteration_ms"] = ms(timings.analytic_iteration_s);
  out["difference"] = timings.analytic_iteration_s > 0
                          ? (schedule.iteration_s - timings.analytic_iteration_s) / timings.analytic_iteration_s
                          : 0.0;
  out["after_drain_ms"] = ms(timings.after_drain_s);
  if (several) {
    // The sync phase after the last replica drains (replicas.md): every
    // group's data-parallel sync, then the cross-replica all-reduce, paid
    // once every sync_every iterations (its share per iteration here).
    out["sync_start_ms"] = ms(span_s);
    out["data_parallel_sync_ms"] = ms(timings.data_parallel_sync_s);
    out["cross_replica_sync_ms"] = ms(timings.cross_replica_sync_s);
    out["sync_every"] = timings.sync_every;
  }
  // Idle share of the GPUs' time from the start to the last replica's drain.
  double busy = 0, slots = 0;
  for (const ReplicaSchedule& r : schedule.replicas)
    for (const StageSchedule& s : r.stages) busy += std::min(s.busy_s, span_s), slots += span_s;
  out["bubble_fraction"] = slots > 0 ? 1.0 - busy / slots : 0.0;
  json replicas = json::array();
  for (std::size_t r = 0; r < schedule.replicas.size(); ++r) {
    const ReplicaSchedule& rs = schedule.replicas[r];
    const PipelineTiming& pt = timings.replicas[r];
    json stages = json::array();
    for (std::size_t q = 0; q < rs.stages.size(); ++q)
      stages.push_back(stage_entry(problem, timings, pt.stages[q], rs.stages[q], static_cast<int>(q), span_s));
    json entry = {{"micro_batches", pt.micro_batches},
                  {"makespan_ms", ms(rs.makespan_s)},
                  {"warmup_end_ms", ms(rs.warmup_end_s)},
                  {"cooldown_start_ms", ms(rs.cooldown_start_s)},
                  {"stages", stages}};
    replicas.push_back(entry);
  }
  if (several) {
    out["replicas"] = replicas;
  } else {
    out["warmup_end_ms"] = replicas[0]["warmup_end_ms"];
    out["cooldown_start_ms"] = replicas[0]["cooldown_start_ms"];
    out["stages"] = replicas[0]["stages"];
  }
  if (!schedule.events.empty() || schedule.event_head >= 0) {
    json events = json::array();
    for (const ScheduleEvent& e : schedule.events) events.push_back(event_entry(e));
    out["events"] = events;
    if (schedule.event_head >= 0) {
      out["events_each_end"] = schedule.event_head;
      out["merged"] = merged_entries(schedule);
    }
  }
  return out;
}

namespace {

// The trace's replay: per iteration its time (and events when asked), and their summary.
json replay_report(const Problem& problem, const PipelineTimings& timings, const std::vector<std::optional<ResolvedLink>>& links,
                   const SimulateOptions& options, const SimulationOptions& sim_options) {
  const Trace trace = parse_trace(*options.trace, problem, "options.trace");
  const std::int64_t iterations = options.iterations.value_or(trace.iterations.value_or(1));
  const Conditions conditions = compile_conditions(trace, problem, timings, links);
  json events = json::array();
  const auto keep = [&](std::int64_t i, const Schedule& s) {
    for (const ScheduleEvent& e : s.events) {
      json entry = {{"iteration", i}};
      entry.update(event_entry(e));
      events.push_back(entry);
    }
  };
  const auto runs = sim_options.record_events ? replay(timings, conditions, iterations, sim_options, keep)
                                              : replay(timings, conditions, iterations, sim_options);
  json times = json::array();
  double total = 0, slowest = -1;
  std::int64_t slowest_at = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    times.push_back(ms(runs[i].iteration_s));
    total += runs[i].iteration_s;
    if (runs[i].iteration_s > slowest) slowest = runs[i].iteration_s, slowest_at = static_cast<std::int64_t>(i);
  }
  json out = {{"iterations", iterations}, {"changes", trace.changes.size()}, {"total_ms", ms(total)},
              {"mean_iteration_ms", ms(total / static_cast<double>(iterations))},
              {"slowest_iteration", slowest_at}, {"slowest_iteration_ms", ms(slowest)}, {"iteration_ms", times}};
  if (sim_options.record_events) out["events"] = events;
  return out;
}

}  // namespace

json simulate_request(const std::string& problem_text, const std::string& plan_text, const SimulateOptions& options) {
  const ParsedProblem parsed = parse_problem_text(problem_text);
  const nlohmann::json plan_document = parse_json_text(plan_text, "plan");
  const std::int64_t plan_u = parse_plan_micro_batch_size(plan_document, parsed.problem);
  const Problem problem = with_micro_batch_size(parsed.problem, plan_u);
  // A plan of replicas (or one pipeline across site pipes with capacities) is
  // priced by the replica model, as evaluate prices it; others as before.
  const ReplicaPlan plan = parse_replica_plan(plan_document, problem);
  const auto links = resolve_links(problem.network, problem.gpus);
  const PipelineTimings timings = needs_replica_model(plan, problem) ? replica_timings(problem, links, plan)
                                                                     : pipeline_timings(problem, links, plan.front().stages);
  SimulationOptions sim;
  sim.sends = options.sends;
  sim.record_events = options.events;
  if (options.events_each_end) sim.event_head = *options.events_each_end;
  json out = {{"problem", problem.name}};
  // With a trace the events are the replay's; the planned iteration is figured without them.
  SimulationOptions planned = sim;
  if (options.trace) planned.record_events = false;
  out.update(schedule_report(problem, timings, Simulator(timings).run(planned), options.sends));
  if (options.trace) out["trace"] = replay_report(problem, timings, links, options, sim);
  if (!parsed.warnings.empty()) out["warnings"] = cap_messages(parsed.warnings);
  return out;
}

}  // namespace geotrain
