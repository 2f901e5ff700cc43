#pragma once
// `geotrain simulate` (simulator.md, "Command and report"): a plan's 1F1B
// schedule simulated event by event, against the cost model's analytic
// iteration time; with a trace, many iterations under changing conditions.
// JSON in, JSON out, like every api/ request.
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "model/group_plan.hpp"
#include "model/problem.hpp"
#include "sim/schedule.hpp"
#include "sim/timing.hpp"

namespace geotrain {

struct SimulateOptions {
  SendMode sends = SendMode::blocking;
  bool events = false;
  // With events: only the first and last this many micro-batches' events
  // (the others merged per stage, "merged"); unset: every micro-batch's.
  std::optional<std::int64_t> events_each_end;
  std::optional<nlohmann::json> trace;       // a trace document (sim/trace.hpp)
  std::optional<std::int64_t> iterations;    // overrides the trace's
};

// {"sends": "blocking"|"overlapped", "events": bool, "events_each_end": n,
//  "trace": {...}, "iterations": n}, every field optional. Throws InputError
// naming the field ("options.sends: ...").
SimulateOptions parse_simulate_options(const nlohmann::json& options);

// Throws InputError on a malformed problem, plan, options or trace.
nlohmann::ordered_json simulate_request(const std::string& problem_text, const std::string& plan_text,
                                        const SimulateOptions& options);

// The report of one simulated iteration: makespan_ms, iteration_ms,
// analytic_iteration_ms, difference, bubble_fraction, the phases, per stage
// busy_ms and idle_ms, and the events when the schedule kept them.
nlohmann::ordered_json schedule_report(const Problem& problem, const PipelineTimings& timings,
                                       const Schedule& schedule, SendMode sends);

const char* send_mode_name(SendMode sends);

}  // namespace geotrain
