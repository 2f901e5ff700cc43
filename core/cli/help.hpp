#pragma once
// Usage and help text from the command table (command_spec.hpp): the short
// usage, one command's help, and docs/cli.md's generated reference.
#include <string>

#include "cli/command_spec.hpp"

namespace geotrain::cli {

// "geotrain 0.1.0"
std::string version_text();
// Every command's synopsis line, then where to read more.
std::string usage_text();
// `geotrain COMMAND --help`: synopsis, what it does, each option with its
// value, unit and default.
std::string command_help(const CommandSpec& spec);
// The command reference as Markdown (docs/cli.md holds it between markers).
std::string markdown_reference();

}  // namespace geotrain::cli
