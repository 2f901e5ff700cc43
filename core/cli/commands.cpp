#include "cli/commands.hpp"

namespace geotrain::cli {

const std::vector<CommandSpec>& commands() {
  static const std::vector<CommandSpec> table = {
      evaluate_command(), solve_command(),     launch_command(),    pareto_command(),
      simulate_command(), robustness_command(),
      sweep_command(),    validate_command(),  catalogue_command(), help_command(),
      import_command(),   calibrate_command(),  // measure_commands.cpp
  };
  return table;
}

}  // namespace geotrain::cli
