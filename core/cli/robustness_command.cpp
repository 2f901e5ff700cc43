// `geotrain robustness`: the planner's best few plans under jittered links and a straggling GPU.
#include "api/robustness_request.hpp"
#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/output.hpp"

namespace geotrain::cli {

namespace {

int run_robustness(const ParsedArgs& args) {
  const std::string problem = read_file(args.positional[0], "problem");
  return print(robustness_request(problem, parse_robustness_options(args.options)));
}

}  // namespace

CommandSpec robustness_command() {
  CommandSpec spec;
  spec.name = "robustness";
  spec.arguments = "PROBLEM.json";
  spec.min_positional = spec.max_positional = 1;
  spec.summary = "Simulate the planner's best few plans under random link jitter and a straggling GPU.";
  spec.details = "Each plan's simulated iteration as planned and its mean, median, 90th percentile and worst over "
                 "the scenarios; most_robust is the plan with the lowest 90th percentile (docs/simulation.md, "
                 "\"Robustness\"). The same seed gives the same plans and scenarios. Exit 3 when no plan fits.";
  spec.options = {
      {"--plans", "K", ValueKind::number, "plans", "plans", "5", "how many of the planner's best plans to compare (1 to 16)"},
      {"--scenarios", "N", ValueKind::number, "scenarios", "scenarios", "100",
       "random scenarios per plan (0 to 10000); 0 simulates the plans as planned only"},
      {"--jitter", "X", ValueKind::number, "jitter", "", "0.3",
       "every link's bandwidth times a factor drawn in [1 - X, 1 + X], per scenario"},
      {"--straggler-slowdown", "X", ValueKind::number, "straggler_slowdown", "", "2",
       "one of the plan's GPUs, drawn per scenario, computes X times slower (1 to 100)"},
      {"--sends", "blocking|overlapped", ValueKind::text, "sends", "", "blocking",
       "as geotrain simulate --sends"},
      {"--method", "M", ValueKind::text, "method", "", "memetic", "the planner that finds the plans (as solve --method)"},
      {"--seed", "N", ValueKind::number, "seed", "", "the problem's search.seed (1)",
       "seeds the search and the scenarios"},
      {"--time-limit", "S", ValueKind::number, "time_limit_s", "seconds", "the problem's search.time_limit_s (120)",
       "stop the search after this long"},
      {"--parallelism", "pipeline|hybrid", ValueKind::text, "parallelism", "", "the problem's search.parallelism",
       "as solve --parallelism"},
  };
  spec.run = run_robustness;
  return spec;
}

}  // namespace geotrain::cli
