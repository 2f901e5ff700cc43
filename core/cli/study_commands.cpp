// `geotrain pareto` and `geotrain sweep`: studies run to the end in one go.
#include <iostream>

#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/output.hpp"
#include "model/message_list.hpp"
#include "studies/studies.hpp"

namespace geotrain::cli {

namespace {

const char* const kSweeps[] = {"subset", "latency", "bandwidth", "split", "parallelism", "where", "replicas"};

int run_study(const std::string& kind, const ParsedArgs& args) {
  nlohmann::json options = args.options;
  const std::string format = options.value("format", std::string("json"));
  options.erase("format");
  if (format != "json" && format != "csv") throw UsageError("--format must be json or csv, got '" + format + "'");
  options["study"] = kind;
  const nlohmann::ordered_json summary = geotrain::run_study(read_file(args.positional[0], "problem"), options);
  if (format == "csv") std::cout << study_summary_csv(summary);
  else std::cout << summary.dump(2) << "\n";
  print_warnings(summary);
  if (const int failed = summary.value("failed", 0); failed > 0)
    std::cerr << "warning: " << failed << " of " << count_of(summary.value("jobs", 0), "job")
              << " failed; see their \"error\"\n";
  if (const int missing = summary.value("missing", 0); missing > 0)
    std::cerr << "warning: " << count_of(missing, "job") << " did not finish\n";
  return 0;
}

int run_sweep(const ParsedArgs& args) {
  const std::string& kind = args.positional[1];
  for (const char* sweep : kSweeps)
    if (kind == sweep) return run_study(kind, args);
  throw UsageError("sweep: unknown sweep '" + kind +
                   "'; use subset, latency, bandwidth, split, parallelism, where or replicas");
}

// The options every study takes (core/STUDIES.md, "Options").
std::vector<OptionSpec> common_options() {
  return {
      {"--seeds", "N", ValueKind::number, "seeds", "", "3 for pareto, latency, bandwidth, parallelism and where "
       "with memetic, else 1", "seeds per point (1 to 16); the best plan wins"},
      {"--seed", "N", ValueKind::number, "seed", "", "the problem's search.seed", "the first seed"},
      {"--method", "memetic|exact", ValueKind::text, "method", "", "memetic", "the planner of every point"},
      {"--time-limit", "S", ValueKind::number, "time_limit_s", "seconds", "the problem's search.time_limit_s",
       "per point"},
      {"--format", "json|csv", ValueKind::text, "format", "", "json", "the summary as JSON or CSV"},
  };
}

}  // namespace

CommandSpec pareto_command() {
  CommandSpec spec;
  spec.name = "pareto";
  spec.arguments = "PROBLEM.json";
  spec.min_positional = spec.max_positional = 1;
  spec.summary = "Trade two objectives against each other: a plan per lambda, the frontier and its knee.";
  spec.options = {
      {"--lambdas", "0,0.1,...,1", ValueKind::number_list, "lambdas", "", "0, 0.1, ..., 1",
       "the weights of the first axis to plan for"},
      {"--axes", "time,energy", ValueKind::name_list, "axes", "", "time,energy",
       "two of time, energy, carbon and cost"},
  };
  for (auto& o : common_options()) spec.options.push_back(o);
  spec.run = [](const ParsedArgs& args) { return run_study("pareto", args); };
  return spec;
}

CommandSpec sweep_command() {
  CommandSpec spec;
  spec.name = "sweep";
  spec.arguments = "PROBLEM.json SWEEP";
  spec.min_positional = spec.max_positional = 2;
  spec.summary = "Plan a series of variants: SWEEP is subset, latency, bandwidth, split, parallelism, where or replicas.";
  spec.options = {
      {"--values", "v1,v2,...", ValueKind::number_list, "values", "ms (latency) or Gbps (bandwidth, replicas)",
       "latency 0.1,1,5,10,50,100; bandwidth 0.5,2,5,10,50,100; replicas 1,10,25,50,100,200,400",
       "the network figures to sweep"},
      {"--sync-every", "h1,h2,...", ValueKind::number_list, "sync_every", "iterations", "1",
       "replicas: the sync periods H to plan for at each bandwidth"},
  };
  for (auto& o : common_options()) spec.options.push_back(o);
  spec.run = run_sweep;
  return spec;
}

}  // namespace geotrain::cli
