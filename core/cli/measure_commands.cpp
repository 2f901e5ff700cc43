// `geotrain import` and `geotrain calibrate`: measured clusters in, measured runs back (core/measure/).
#include <cmath>
#include <iostream>

#include "api/measure_request.hpp"
#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/output.hpp"

namespace geotrain::cli {

namespace {

using json = nlohmann::ordered_json;

template <typename Line>
void print_notes(const json& document, const char* list, const Line& line) {
  if (!document.contains(list)) return;
  for (const auto& item : document[list]) std::cerr << "note: " << line(item) << "\n";
}

// The problem alone (ready for > problem.json), or with --report everything; notes and warnings on stderr.
int print_result(const json& result, bool report) {
  std::cout << (report ? result : result["problem"]).dump(2) << "\n";
  print_warnings(result);
  return 0;
}

int run_import(const ParsedArgs& args) {
  std::vector<measure::MeasuredFile> files;
  for (const std::string& path : args.positional) files.push_back({path, read_file(path, "measurement")});
  const std::string into = args.has("into") ? read_file(args.options["into"].get<std::string>(), "problem") : "";
  measure::ImportOptions options;
  options.host = args.options.value("host", "");
  options.site = args.options.value("site", "");
  const json result = import_request(into, files, options);
  print_notes(result, "files", [](const json& f) {
    return f["name"].get<std::string>() + " (" + f["format"].get<std::string>() + "): " + f["summary"].get<std::string>();
  });
  std::cerr << "note: " << result["changes"].size() << " change(s)" << (args.has("report") ? "" : "; --report lists them")
            << "\n";
  return print_result(result, args.has("report"));
}

// "plan.json:1234.5" or "plan.json:train.log".
measure::MeasuredRun read_run(const std::string& spec) {
  const std::size_t colon = spec.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == spec.size())
    throw UsageError("--run takes PLAN:MS or PLAN:LOGFILE, got '" + spec + "'");
  const std::string plan_path = spec.substr(0, colon), value = spec.substr(colon + 1);
  const std::string plan = read_file(plan_path, "plan");
  // A number is the time; anything else names a log ("2024.log" too, as no number reads so).
  if (const auto ms = measure::decimal(value)) return {plan_path, plan, *ms, "given"};
  return measure::run_from_megatron_log(plan_path, plan, {value, read_file(value, "log")});
}

int run_calibrate(const ParsedArgs& args) {
  if (!args.has("runs")) throw UsageError("calibrate needs at least one --run PLAN:MS or PLAN:LOGFILE");
  const std::string problem = read_file(args.positional[0], "problem");
  std::vector<measure::MeasuredRun> runs;
  for (const auto& spec : args.options["runs"]) runs.push_back(read_run(spec.get<std::string>()));
  const json result = calibrate_request(problem, runs);
  const json& fit = result["fit"];
  print_notes(fit, "types", [](const json& t) {
    char text[96];
    std::snprintf(text, sizeof text, "compute_util %.4g -> %.4g (%d GPUs)", t["compute_util_before"][0].get<double>(),
                  t["compute_util"].get<double>(), t["gpus"].get<int>());
    return t["type"].get<std::string>() + ": " + text;
  });
  print_notes(fit, "runs", [](const json& r) {
    char text[128];
    std::snprintf(text, sizeof text, "measured %.6g ms, model %.6g ms before and %.6g ms after the fit (%+.2f%%)",
                  r["measured_ms"].get<double>(), r["model_ms_before"].get<double>(), r["model_ms"].get<double>(),
                  100 * r["error"].get<double>());
    return r["name"].get<std::string>() + ": " + text + "; measured: " + r["how"].get<std::string>();
  });
  char rms[32];
  std::snprintf(rms, sizeof rms, "%.3g%%", std::round(1e4 * fit["rms_error"].get<double>()) / 100 + 0.0);  // to 0.01%
  std::cerr << "note: rms error " << rms << " by " << fit["method"].get<std::string>() << "\n";
  return print_result(result, args.has("report"));
}

}  // namespace

CommandSpec import_command() {
  CommandSpec spec;
  spec.name = "import";
  spec.arguments = "FILE...";
  spec.min_positional = 1, spec.max_positional = 10000;
  spec.summary = "Merge what nvidia-smi, iperf3, ping and nccl-tests printed into a problem, and print it.";
  spec.details =
      "Reads nvidia-smi --query-gpu=index,name,memory.total,power.limit --format=csv (GPUs of one host), "
      "nvidia-smi topo -m (NVLink between them), iperf3 --json client results (bandwidth of a pair), ping "
      "summaries (latency of a pair) and nccl-tests all_reduce_perf (a node's or a group's ring bandwidth); the "
      "format is told from the text. A file's host is --host or its name up to the first dot; a pair file named "
      "FROM-TO.ext names both ends. All or nothing: a file that is not what it claims is refused with its line, "
      "and nothing is printed. Each figure records its source. docs/measured-clusters.md has the rules.";
  spec.options = {
      {"--into", "PROBLEM.json", ValueKind::text, "into", "", "a new problem with a placeholder model",
       "the problem to merge into"},
      {"--host", "NAME", ValueKind::text, "host", "", "each file's name up to its first dot",
       "the host every file was measured on"},
      {"--site", "NAME", ValueKind::text, "site", "", "as they are (new GPUs: none)",
       "the site of the GPUs the nvidia-smi files bring"},
      {"--report", "", ValueKind::none, "report", "", "off",
       "print {problem, changes, files, warnings} instead of the problem alone"},
  };
  spec.run = run_import;
  return spec;
}

CommandSpec calibrate_command() {
  CommandSpec spec;
  spec.name = "calibrate";
  spec.arguments = "PROBLEM.json";
  spec.min_positional = spec.max_positional = 1;
  spec.summary = "Fit each GPU type's compute_util to measured iteration times of plans, and print the problem.";
  spec.details =
      "Each --run names a plan that was run (a plan file or a geotrain solve output) and its measured iteration time: "
      "a number of milliseconds, or a Megatron-LM log whose 'elapsed time per iteration (ms)' lines give it (their "
      "median, the first left out). Several runs fit together by least squares on relative errors; how well the "
      "model then reproduces each run is printed. docs/measured-clusters.md has the method.";
  spec.options = {
      {"--run", "PLAN.json:MS|PLAN.json:LOGFILE", ValueKind::repeated, "runs", "ms", "none (at least one)",
       "a measured run; give it once per run"},
      {"--report", "", ValueKind::none, "report", "", "off",
       "print {problem, fit, changes, warnings} instead of the problem alone"},
  };
  spec.run = run_calibrate;
  return spec;
}

}  // namespace geotrain::cli
