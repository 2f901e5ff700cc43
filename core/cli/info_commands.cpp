// `geotrain validate`, `geotrain catalogue` and `geotrain help`.
#include <iostream>

#include "api/api.hpp"
#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/help.hpp"
#include "cli/output.hpp"
#include "model/region_catalogue.hpp"

namespace geotrain::cli {

namespace {

int run_validate(const ParsedArgs& args) {
  const nlohmann::ordered_json document = validate_request(read_file(args.positional[0], "problem"));
  std::cout << document["problem"].dump(2) << "\n";
  print_warnings(document);
  return 0;
}

int run_catalogue(const ParsedArgs& args) {
  std::cout << (args.has("regions") ? region_catalogue_json() : catalogue_json()).dump(2) << "\n";
  return 0;
}

int run_help(const ParsedArgs& args) {
  if (args.has("markdown")) {
    std::cout << markdown_reference();
    return 0;
  }
  if (args.positional.empty()) {
    std::cout << usage_text();
    return 0;
  }
  for (const auto& c : commands())
    if (c.name == args.positional[0]) {
      std::cout << command_help(c);
      return 0;
    }
  throw UsageError("help: unknown command '" + args.positional[0] + "'");
}

}  // namespace

CommandSpec validate_command() {
  CommandSpec spec;
  spec.name = "validate";
  spec.arguments = "PROBLEM.json";
  spec.min_positional = spec.max_positional = 1;
  spec.summary = "Check a problem and print it with every default and catalogue value written out.";
  spec.run = run_validate;
  return spec;
}

CommandSpec catalogue_command() {
  CommandSpec spec;
  spec.name = "catalogue";
  spec.summary = "Print the built-in GPU catalogue (or, with --regions, grid carbon, PUE and prices per region).";
  spec.options = {
      {"--regions", "", ValueKind::none, "regions", "", "off", "the region catalogue instead of the GPUs"},
  };
  spec.run = run_catalogue;
  return spec;
}

CommandSpec help_command() {
  CommandSpec spec;
  spec.name = "help";
  spec.arguments = "[COMMAND]";
  spec.max_positional = 1;
  spec.summary = "Print the usage, or one command's options with their units and defaults.";
  spec.options = {
      {"--markdown", "", ValueKind::none, "markdown", "", "off",
       "the whole command reference as Markdown (the generated part of docs/cli.md)"},
  };
  spec.run = run_help;
  return spec;
}

}  // namespace geotrain::cli
