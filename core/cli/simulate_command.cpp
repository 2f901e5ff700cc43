// `geotrain simulate`: a plan's 1F1B schedule, event by event (simulator.md).
#include "api/simulate_request.hpp"
#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/output.hpp"
#include "model/problem_json.hpp"

namespace geotrain::cli {

namespace {

int run_simulate(const ParsedArgs& args) {
  const auto& files = args.positional;
  if (files[0] == "-" && files[1] == "-") throw UsageError("only one of PROBLEM.json and PLAN.json can be - (stdin)");
  nlohmann::json options = args.options;
  if (options.contains("trace")) {
    const std::string path = options["trace"].get<std::string>();
    if (path == "-" && (files[0] == "-" || files[1] == "-")) throw UsageError("only one input can be - (stdin)");
    options["trace"] = parse_json_text(read_file(path, "trace"), "trace");
  }
  // Read in order: argument evaluation order is unspecified.
  const std::string problem = read_file(files[0], "problem");
  const std::string plan = read_file(files[1], "plan");
  return print(simulate_request(problem, plan, parse_simulate_options(options)));
}

}  // namespace

CommandSpec simulate_command() {
  CommandSpec spec;
  spec.name = "simulate";
  spec.arguments = "PROBLEM.json PLAN.json";
  spec.min_positional = spec.max_positional = 2;
  spec.summary = "Simulate a plan's 1F1B schedule event by event and compare it with the analytic iteration time.";
  spec.details = "Prints makespan_ms, iteration_ms (simulated), analytic_iteration_ms, difference, bubble_fraction "
                 "and per stage busy_ms and idle_ms (docs/simulation.md). With --trace, the plan also runs many "
                 "iterations under changing link and GPU conditions.";
  spec.options = {
      {"--sends", "blocking|overlapped", ValueKind::text, "sends", "", "blocking",
       "a stage waits for its sends to arrive (as the analytic model assumes), or computes on meanwhile"},
      {"--events", "", ValueKind::none, "events", "", "off",
       "add every forward, backward and transfer with its start_ms and end_ms"},
      {"--events-each-end", "N", ValueKind::number, "events_each_end", "micro-batches", "all",
       "with --events, only the first and last N micro-batches' events; the rest merged per stage"},
      {"--trace", "TRACE.json", ValueKind::text, "trace", "", "none",
       "replay changing link bandwidth, latency and GPU slowdowns (docs/simulation.md, \"Traces\")"},
      {"--iterations", "N", ValueKind::number, "iterations", "", "the trace's iterations (1)",
       "with --trace, how many iterations to run back to back"},
  };
  spec.run = run_simulate;
  return spec;
}

}  // namespace geotrain::cli
