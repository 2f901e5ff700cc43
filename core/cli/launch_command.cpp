// `geotrain launch`.
#include "api/launch_request.hpp"
#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/output.hpp"

namespace geotrain::cli {

namespace {

int run_launch(const ParsedArgs& args) {
  const std::string target = args.options.value("target", std::string("all"));
  const auto& files = args.positional;
  if (files[0] == "-" && files[1] == "-") throw UsageError("only one of PROBLEM.json and PLAN.json can be - (stdin)");
  if (target != "megatron" && target != "torch" && target != "deepspeed" && target != "flashflex" && target != "all")
    throw UsageError("--target must be megatron, torch, deepspeed, flashflex or all, got '" + target + "'");
  const std::string problem = read_file(files[0], "problem");
  const std::string plan = read_file(files[1], "plan");
  return print(launch_request(problem, plan, target));
}

}  // namespace

CommandSpec launch_command() {
  CommandSpec spec;
  spec.name = "launch";
  spec.arguments = "PROBLEM.json PLAN.json";
  spec.min_positional = spec.max_positional = 2;
  spec.summary = "Print what runs the plan: the rank map, engine arguments, launch lines and scripts.";
  spec.options = {
      {"--target", "T", ValueKind::text, "target", "", "all",
       "megatron, torch, deepspeed, flashflex or all (what each can run: docs/launch.md)"},
  };
  spec.run = run_launch;
  return spec;
}

}  // namespace geotrain::cli
