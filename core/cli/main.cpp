// geotrain: the command-line planner. JSON results on stdout, messages on
// stderr. Exit codes: 0 done; 1 bad input (problem, plan or option values);
// 2 bad usage; 3 no plan (nothing feasible, or the method refused); 4 exact
// ran out of budget before proving optimality (the best plan and the proven gap
// are still printed); 70 a bug.
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "api/api.hpp"
#include "api/launch_request.hpp"
#include "model/input_error.hpp"
#include "model/message_list.hpp"
#include "model/region_catalogue.hpp"
#include "studies/studies.hpp"

namespace {

using geotrain::InputError;
using json = nlohmann::ordered_json;

constexpr int kExitInput = 1, kExitUsage = 2, kExitNoPlan = 3, kExitUnproven = 4, kExitBug = 70;
constexpr std::size_t kMaxFileBytes = 64u << 20;

const char* kUsage =
    "usage:\n"
    "  geotrain evaluate PROBLEM.json PLAN.json\n"
    "  geotrain solve PROBLEM.json [--method M] [--seed N] [--lambda X] [--time-limit S] [--max-nodes N]\n"
    "                  [--stage-count K]   K: exactly K stages (memetic, exact, brute-force)\n"
    "                  [--parallelism pipeline|hybrid]   overrides search.parallelism\n"
    "                  [--weights time=X,energy=X,carbon=X,cost=X]   overrides objective.weights (and lambda)\n"
    "                  [--micro-batch-size fixed|auto]   overrides search.micro_batch_size\n"
    "                  [--launch]          add the plan's launch bundle (as geotrain launch --target all)\n"
    "  geotrain launch PROBLEM.json PLAN.json [--target megatron|torch|deepspeed|all]\n"
    "                  rank map, engine arguments, torchrun lines and scripts that run the plan\n"
    "  geotrain pareto PROBLEM.json [--lambdas 0,0.1,...,1] [--axes time,energy] [--seeds N] [--method memetic|exact]\n"
    "                  [--time-limit S] [--seed N] [--format json|csv]   (axes: two of time, energy, carbon, cost)\n"
    "  geotrain sweep PROBLEM.json subset|latency|bandwidth|split|parallelism|where [--values v1,v2,...] [--seeds N]\n"
    "                  [--method memetic|exact] [--time-limit S] [--seed N] [--format json|csv]\n"
    "  geotrain validate PROBLEM.json     print the problem with defaults and catalogue values filled in\n"
    "  geotrain catalogue                 print the built-in GPU catalogue\n"
    "  geotrain catalogue --regions       print the built-in grid carbon, PUE and electricity prices per region\n"
    "A file name of - reads standard input. Methods: ";

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Reads at most kMaxFileBytes, from a file, a pipe or FIFO (`<(cat f.json)`),
// or standard input: the size is never asked for, since pipes have none.
std::string read_capped(std::istream& in, const std::string& name, const char* what) {
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxFileBytes) throw InputError(std::string(what) + ": " + name + " is larger than 64 MiB");
  }
  if (in.bad()) throw InputError(std::string(what) + ": cannot read " + name);
  return text;
}

std::string read_file(const std::string& path, const char* what) {
  if (path == "-") return read_capped(std::cin, "standard input", what);
  if (std::error_code ec; std::filesystem::is_directory(path, ec))
    throw InputError(std::string(what) + ": cannot read " + path + ": is a folder");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(std::string(what) + ": cannot read " + path + ": " + std::strerror(errno));
  return read_capped(in, path, what);
}

// Strict number parsing for flags: the whole text must be one decimal number
// as JSON writes them (an optional sign, digits, a fraction, an exponent), and
// finite. strtod alone would also take "0x10", "nan", "inf" and " 5".
bool is_decimal_number(const std::string& text) {
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t start = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    return i - start;
  };
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
  std::size_t mantissa = digits();
  if (i < text.size() && text[i] == '.') ++i, mantissa += digits();
  if (mantissa == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
    if (digits() == 0) return false;
  }
  return i == text.size();
}

double parse_number(const std::string& flag, const std::string& text) {
  if (!is_decimal_number(text)) throw InputError(flag + ": must be a decimal number, got '" + text + "'");
  errno = 0;
  const double value = std::strtod(text.c_str(), nullptr);
  if (errno == ERANGE || !std::isfinite(value))
    throw InputError(flag + ": " + text + " is out of range for a double (about 1e-308 to 1.8e308)");
  return value;
}

// One line per message, capped (message_list.hpp): the first 100, then "... and N more".
void print_messages(const char* prefix, const std::vector<std::string>& messages) {
  for (const auto& m : geotrain::cap_messages(messages)) std::cerr << prefix << m << "\n";
}

void print_warnings(const json& document) {
  if (!document.contains("warnings")) return;
  std::vector<std::string> warnings;
  for (const auto& w : document["warnings"]) warnings.push_back(w.get<std::string>());
  print_messages("warning: ", warnings);
}

int print(const json& document) {
  std::cout << document.dump(2) << "\n";
  print_warnings(document);
  return 0;
}

int run_evaluate(const std::vector<std::string>& args) {
  if (args.size() != 2) throw UsageError("evaluate takes PROBLEM.json and PLAN.json");
  if (args[0] == "-" && args[1] == "-") throw UsageError("only one of PROBLEM.json and PLAN.json can be - (stdin)");
  // Read in order: argument evaluation order is unspecified.
  const std::string problem = read_file(args[0], "problem");
  const std::string plan = read_file(args[1], "plan");
  return print(geotrain::evaluate_request(problem, plan));
}

// "time=0.5,carbon=0.5" -> {"time": 0.5, "carbon": 0.5}; the planner checks the rest.
nlohmann::json parse_weights(const std::string& flag, const std::string& text) {
  nlohmann::json weights = nlohmann::json::object();
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const std::size_t eq = item.find('=');
    const std::string key = item.substr(0, eq);
    if (eq == std::string::npos || (key != "time" && key != "energy" && key != "carbon" && key != "cost"))
      throw UsageError(flag + ": each item is time=X, energy=X, carbon=X or cost=X, got '" + item + "'");
    weights[key] = parse_number(flag + " " + key, item.substr(eq + 1));
    if (comma == std::string::npos) return weights;
    start = comma + 1;
  }
}

int run_solve(const std::vector<std::string>& args) {
  std::string problem_path;
  bool with_launch = false;
  nlohmann::json options = nlohmann::json::object();
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0) {
      if (!problem_path.empty()) throw UsageError("solve takes one PROBLEM.json, got '" + a + "' too");
      problem_path = a;
      continue;
    }
    if (a == "--launch") {
      with_launch = true;
      continue;
    }
    std::string flag = a, value;
    if (auto eq = a.find('='); eq != std::string::npos) flag = a.substr(0, eq), value = a.substr(eq + 1);
    else if (i + 1 < args.size()) value = args[++i];
    else throw UsageError(flag + " needs a value");
    if (flag == "--method") options["method"] = value;
    else if (flag == "--seed" || flag == "--max-nodes" || flag == "--stage-count") {
      const double x = parse_number(flag, value);
      options[flag == "--seed" ? "seed" : flag == "--max-nodes" ? "max_nodes" : "stage_count"] = x;
    } else if (flag == "--lambda") options["lambda"] = parse_number(flag, value);
    else if (flag == "--time-limit") options["time_limit_s"] = parse_number(flag, value);
    else if (flag == "--parallelism") options["parallelism"] = value;
    else if (flag == "--weights") options["weights"] = parse_weights(flag, value);
    else if (flag == "--micro-batch-size") options["micro_batch_size"] = value;
    else throw UsageError("unknown option " + flag);
  }
  if (problem_path.empty()) throw UsageError("solve needs PROBLEM.json");
  const std::string text = read_file(problem_path, "problem");
  json result = geotrain::solve_request(text, geotrain::parse_solve_options(options));
  // The solve output is itself a plan file, so the bundle is built from it.
  if (with_launch) result["launch"] = geotrain::launch_request(text, result.dump(), "all");
  print(result);
  if (result.value("method", "") == "exact" && !result.value("optimal", false)) {
    std::cerr << "error: exact stopped (" << result.value("stop_reason", "") << ") before proving optimality; "
              << "the best plan so far is printed, within a proven gap of " << 100.0 * result.value("gap", 1.0)
              << "% of the optimum. Raise --time-limit or --max-nodes.\n";
    return kExitUnproven;
  }
  return 0;
}

// "0,0.1,1" -> [0, 0.1, 1]; each item must be a number.
nlohmann::json parse_number_list(const std::string& flag, const std::string& text) {
  nlohmann::json list = nlohmann::json::array();
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::size_t length = comma == std::string::npos ? std::string::npos : comma - start;
    list.push_back(parse_number(flag, text.substr(start, length)));
    if (comma == std::string::npos) return list;
    start = comma + 1;
  }
}

// "carbon,cost" -> ["carbon", "cost"]; the study names any fault (study.axes).
nlohmann::json parse_name_list(const std::string& text) {
  nlohmann::json names = nlohmann::json::array();
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    names.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return names;
}

// `pareto` (kind given) or `sweep` (kind the second positional argument).
int run_study_command(const char* command, std::optional<std::string> kind, const std::vector<std::string>& args) {
  std::vector<std::string> positional;
  nlohmann::json options = nlohmann::json::object();
  std::string format = "json";
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0) {
      positional.push_back(a);
      continue;
    }
    std::string flag = a, value;
    if (auto eq = a.find('='); eq != std::string::npos) flag = a.substr(0, eq), value = a.substr(eq + 1);
    else if (i + 1 < args.size()) value = args[++i];
    else throw UsageError(flag + " needs a value");
    if (flag == "--lambdas" && kind) options["lambdas"] = parse_number_list(flag, value);
    else if (flag == "--axes" && kind) options["axes"] = parse_name_list(value);
    else if (flag == "--values" && !kind) options["values"] = parse_number_list(flag, value);
    else if (flag == "--seeds") options["seeds"] = parse_number(flag, value);
    else if (flag == "--seed") options["seed"] = parse_number(flag, value);
    else if (flag == "--method") options["method"] = value;
    else if (flag == "--time-limit") options["time_limit_s"] = parse_number(flag, value);
    else if (flag == "--format") format = value;
    else throw UsageError("unknown option " + flag + " for " + command);
  }
  const std::size_t wanted = kind ? 1 : 2;
  if (positional.size() != wanted)
    throw UsageError(std::string(command) + (kind ? " takes PROBLEM.json" : " takes PROBLEM.json and a sweep") +
                     ", got " + std::to_string(positional.size()) + " arguments");
  if (!kind) {
    kind = positional[1];
    if (*kind != "subset" && *kind != "latency" && *kind != "bandwidth" && *kind != "split" && *kind != "parallelism" &&
        *kind != "where")
      throw UsageError("sweep: unknown sweep '" + *kind + "'; use subset, latency, bandwidth, split, parallelism or where");
  }
  if (format != "json" && format != "csv") throw UsageError("--format must be json or csv, got '" + format + "'");
  options["study"] = *kind;
  const json summary = geotrain::run_study(read_file(positional[0], "problem"), options);
  if (format == "csv") std::cout << geotrain::study_summary_csv(summary);
  else std::cout << summary.dump(2) << "\n";
  print_warnings(summary);
  if (const int failed = summary.value("failed", 0); failed > 0)
    std::cerr << "warning: " << failed << " of " << geotrain::count_of(summary.value("jobs", 0), "job")
              << " failed; see their \"error\"\n";
  if (const int missing = summary.value("missing", 0); missing > 0)
    std::cerr << "warning: " << geotrain::count_of(missing, "job") << " did not finish\n";
  return 0;
}

int run_launch(const std::vector<std::string>& args) {
  std::vector<std::string> files;
  std::string target = "all";
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--target" && i + 1 < args.size()) target = args[++i];
    else if (args[i].rfind("--target=", 0) == 0) target = args[i].substr(9);
    else if (args[i].rfind("--", 0) == 0) throw UsageError("unknown option " + args[i] + " for launch");
    else files.push_back(args[i]);
  }
  if (files.size() != 2) throw UsageError("launch takes PROBLEM.json and PLAN.json");
  if (files[0] == "-" && files[1] == "-") throw UsageError("only one of PROBLEM.json and PLAN.json can be - (stdin)");
  if (target != "megatron" && target != "torch" && target != "deepspeed" && target != "all")
    throw UsageError("--target must be megatron, torch, deepspeed or all, got '" + target + "'");
  const std::string problem = read_file(files[0], "problem");
  const std::string plan = read_file(files[1], "plan");
  return print(geotrain::launch_request(problem, plan, target));
}

int run_validate(const std::vector<std::string>& args) {
  if (args.size() != 1) throw UsageError("validate takes PROBLEM.json");
  const json document = geotrain::validate_request(read_file(args[0], "problem"));
  std::cout << document["problem"].dump(2) << "\n";
  print_warnings(document);
  return 0;
}

int run_catalogue() {
  std::cout << geotrain::catalogue_json().dump(2) << "\n";
  return 0;
}

int run_region_catalogue() {
  std::cout << geotrain::region_catalogue_json().dump(2) << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
      std::cout << kUsage << geotrain::method_names() << "\n";
      return args.empty() ? kExitUsage : 0;
    }
    const std::string command = args[0];
    args.erase(args.begin());
    if (command == "evaluate") return run_evaluate(args);
    if (command == "solve") return run_solve(args);
    if (command == "validate") return run_validate(args);
    if (command == "launch") return run_launch(args);
    if (command == "pareto") return run_study_command("pareto", std::string("pareto"), args);
    if (command == "sweep") return run_study_command("sweep", std::nullopt, args);
    if (command == "catalogue" && args.empty()) return run_catalogue();
    if (command == "catalogue" && args.size() == 1 && args[0] == "--regions") return run_region_catalogue();
    throw UsageError("unknown command '" + command + "'");
  } catch (const UsageError& e) {
    std::cerr << "geotrain: " << e.what() << "\n" << kUsage << geotrain::method_names() << "\n";
    return kExitUsage;
  } catch (const InputError& e) {
    print_messages("error: ", e.messages());
    return kExitInput;
  } catch (const geotrain::PlanningError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitNoPlan;
  } catch (const std::exception& e) {
    std::cerr << "geotrain: internal error: " << e.what() << "\n";
    return kExitBug;
  }
}
