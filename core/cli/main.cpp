// geotrain: the command-line planner. JSON results on stdout, messages on
// stderr; exit codes in output.hpp. The commands, their options, units and
// defaults are one table (commands.cpp), from which the usage, each
// command's --help and docs/cli.md's reference are made.
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "cli/arguments.hpp"
#include "cli/command_spec.hpp"
#include "cli/help.hpp"
#include "cli/output.hpp"
#include "model/input_error.hpp"

namespace {

using namespace geotrain::cli;

const CommandSpec* find_command(const std::string& name) {
  for (const auto& c : commands())
    if (c.name == name) return &c;
  return nullptr;
}

bool asks_for_help(const std::vector<std::string>& args) {
  return std::any_of(args.begin(), args.end(), [](const std::string& a) { return a == "--help" || a == "-h"; });
}

int run(std::vector<std::string> args) {
  if (args.empty()) {
    std::cerr << usage_text();
    return kExitUsage;
  }
  if (args[0] == "--help" || args[0] == "-h") return std::cout << usage_text(), 0;
  if (args[0] == "--version") return std::cout << version_text() << "\n", 0;
  const CommandSpec* command = find_command(args[0]);
  if (!command) throw UsageError("unknown command '" + args[0] + "'");
  args.erase(args.begin());
  if (asks_for_help(args)) return std::cout << command_help(*command), 0;
  return command->run(parse_arguments(*command, args));
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const UsageError& e) {
    std::cerr << "geotrain: " << e.what() << "\n"
              << "(geotrain --help lists the commands; geotrain COMMAND --help a command's options)\n";
    return kExitUsage;
  } catch (const geotrain::InputError& e) {
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
