#pragma once
// The commands' specs, one factory per command file; commands() (command_spec.hpp)
// lists them in this order.
#include "cli/command_spec.hpp"

namespace geotrain::cli {

CommandSpec evaluate_command();   // plan_commands.cpp
CommandSpec solve_command();      // plan_commands.cpp
CommandSpec simulate_command();   // simulate_command.cpp
CommandSpec robustness_command(); // robustness_command.cpp
CommandSpec launch_command();     // launch_command.cpp
CommandSpec pareto_command();     // study_commands.cpp
CommandSpec sweep_command();      // study_commands.cpp
CommandSpec import_command();     // measure_commands.cpp
CommandSpec calibrate_command();  // measure_commands.cpp
CommandSpec validate_command();   // info_commands.cpp
CommandSpec catalogue_command();  // info_commands.cpp
CommandSpec help_command();       // info_commands.cpp

}  // namespace geotrain::cli
