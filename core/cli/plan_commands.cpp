// `geotrain evaluate` and `geotrain solve`.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>

#include "api/api.hpp"
#include "api/launch_request.hpp"
#include "api/simulate_request.hpp"
#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/output.hpp"

namespace geotrain::cli {

namespace {

using json = nlohmann::ordered_json;

// Rounded to `digits` significant digits up (an "at most" stays true) or down (an "at least").
double round_significant(double x, int digits, bool up) {
  if (!(x > 0)) return x;
  const double step = std::pow(10.0, std::floor(std::log10(x)) - digits + 1);
  return (up ? std::ceil(x / step - 1e-9) : std::floor(x / step + 1e-9)) * step;
}

// What a gap g = (objective - bound) / objective proves, in words that cannot be read as
// closeness: the optimum is at least objective x (1 - g), so the plan is at most 1 / (1 - g) times
// it. A gap of 0.687 is "at most 3.2 times the optimum", never "within 68.7 %".
std::string proven_gap_text(double objective, double gap) {
  char text[200];
  if (!(gap < 1.0)) return "Nothing above 0 is proven for the optimum.";
  const double factor = 1.0 / (1.0 - gap), bound = round_significant(objective * (1.0 - gap), 4, false);
  const double percent = 100.0 * (factor - 1.0);
  if (factor >= 1.1)
    std::snprintf(text, sizeof text, "Proven: its objective is at most %.3g times the optimum (the optimum is at least %.4g).",
                  round_significant(factor, 3, true), bound);
  else if (percent >= 0.01)
    std::snprintf(text, sizeof text, "Proven: its objective is at most %.3g%% above the optimum (the optimum is at least %.4g).",
                  round_significant(percent, 3, true), bound);
  else
    std::snprintf(text, sizeof text, "Proven: its objective is less than 0.01%% above the optimum (the optimum is at least %.4g).",
                  bound);
  return text;
}

int run_evaluate(const ParsedArgs& args) {
  const auto& files = args.positional;
  if (files[0] == "-" && files[1] == "-") throw UsageError("only one of PROBLEM.json and PLAN.json can be - (stdin)");
  // Read in order: argument evaluation order is unspecified.
  const std::string problem = read_file(files[0], "problem");
  const std::string plan = read_file(files[1], "plan");
  return print(evaluate_request(problem, plan));
}

// The plan's simulation, as `geotrain simulate` prints it, less what the solve output says already.
json simulation_of(const std::string& problem_text, const json& result) {
  json simulation = simulate_request(problem_text, result.dump(), SimulateOptions{});
  simulation.erase("problem");
  simulation.erase("warnings");
  return simulation;
}

int run_solve(const ParsedArgs& args) {
  nlohmann::json options = args.options;
  const bool with_launch = options.contains("launch");
  const bool with_simulation = options.contains("simulate");
  options.erase("launch");
  options.erase("simulate");
  // --replicas takes a count or "auto": a count goes to the planner as a number.
  if (options.contains("replicas") && options["replicas"] != "auto")
    options["replicas"] = parse_number("--replicas", options["replicas"].get<std::string>());
  const std::string text = read_file(args.positional[0], "problem");
  json result = solve_request(text, parse_solve_options(options));
  // The solve output is itself a plan file, so the bundle is built from it.
  if (with_launch) result["launch"] = launch_request(text, result.dump(), "all");
  if (with_simulation) result["simulation"] = simulation_of(text, result);
  print(result);
  if (result.value("method", "") == "exact" && !result.value("optimal", false)) {
    std::cerr << "error: exact stopped (" << result.value("stop_reason", "") << ") before proving optimality; "
              << "the best plan so far is printed. "
              << proven_gap_text(result.value("objective", 0.0), result.value("gap", 1.0))
              << " Raise --time-limit or --max-nodes.\n";
    return kExitUnproven;
  }
  return 0;
}

}  // namespace

CommandSpec evaluate_command() {
  CommandSpec spec;
  spec.name = "evaluate";
  spec.arguments = "PROBLEM.json PLAN.json";
  spec.min_positional = spec.max_positional = 2;
  spec.summary = "Print a plan's figures: time, energy, memory and the objective, per stage and in all.";
  spec.details = "Exit 0 for a well-formed plan, feasible or not (see \"feasible\"); 1 with messages naming the "
                 "field for a malformed problem or plan.";
  spec.run = run_evaluate;
  return spec;
}

CommandSpec solve_command() {
  CommandSpec spec;
  spec.name = "solve";
  spec.arguments = "PROBLEM.json";
  spec.min_positional = spec.max_positional = 1;
  spec.summary = "Search for the best plan and print it with its figures and a proven lower bound.";
  spec.details = "Exit 3 when no plan fits; exit 4 when exact stops at its budget before proving optimality "
                 "(the best plan so far is still printed).";
  spec.options = {
      {"--method", "M", ValueKind::text, "method", "", "memetic",
       "planning method: memetic, exact, brute-force, metis, metis-improved or uniform"},
      {"--seed", "N", ValueKind::number, "seed", "", "the problem's search.seed (1)",
       "random seed; the same seed gives the same plan"},
      {"--lambda", "X", ValueKind::number, "lambda", "", "the problem's objective.lambda (1)",
       "weight of time against energy, in [0, 1]; replaces the file's weights"},
      {"--weights", "time=X,energy=X,carbon=X,cost=X", ValueKind::weights, "weights", "",
       "the problem's objective.weights", "weights of the four objective terms"},
      {"--time-limit", "S", ValueKind::number, "time_limit_s", "seconds", "the problem's search.time_limit_s (120)",
       "stop the search after this long"},
      {"--max-nodes", "N", ValueKind::number, "max_nodes", "nodes", "2000000000", "exact: node budget"},
      {"--stage-count", "K", ValueKind::number, "stage_count", "stages", "any",
       "plans of exactly K stages (memetic, exact, brute-force)"},
      {"--parallelism", "pipeline|hybrid", ValueKind::text, "parallelism", "", "the problem's search.parallelism",
       "one GPU per stage, or stage groups with tensor and data parallelism"},
      {"--engine", "E", ValueKind::text, "engine", "", "the problem's search.engine (any)",
       "plan only what this engine can launch: any, megatron-core, deepspeed, torch or flashflex "
       "(docs/launch.md); the result prices it against the unconstrained plan"},
      {"--micro-batch-size", "fixed|auto", ValueKind::text, "micro_batch_size", "",
       "the problem's search.micro_batch_size", "keep the model's micro-batch size, or choose it too"},
      {"--rank-by", "analytic|simulated|simulated_overlapped", ValueKind::text, "rank_by", "",
       "the problem's search.rank_by (analytic)",
       "pick among the best few plans by the formula's time, or by the simulated schedule's"},
      {"--replicas", "1|R|auto", ValueKind::text, "replicas", "replicas", "the problem's search.replicas (1)",
       "one pipeline, exactly R data-parallel replicas of it, or the planner's choice"},
      {"--launch", "", ValueKind::none, "launch", "", "off",
       "add the plan's launch bundle (as geotrain launch --target all)"},
      {"--simulate", "", ValueKind::none, "simulate", "", "off",
       "add the plan's simulated 1F1B schedule (as geotrain simulate, blocking sends)"},
  };
  spec.run = run_solve;
  return spec;
}

}  // namespace geotrain::cli
