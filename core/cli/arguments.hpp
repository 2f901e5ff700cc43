#pragma once
// Reading the command line and files for the CLI: strict numbers, capped
// reads (files, pipes, standard input), and the option parser every command
// shares.
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/command_spec.hpp"

namespace geotrain::cli {

// Bad usage (exit 2): the message names the command's mistake.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The whole file ("-" is standard input), at most 64 MiB; InputError naming
// `what` ("problem", "plan") when it cannot be read.
std::string read_file(const std::string& path, const char* what);

// One decimal number as JSON writes them, finite; InputError naming the flag.
double parse_number(const std::string& flag, const std::string& text);

// Positional arguments and options of `spec`, `--flag value` or `--flag=value`.
// Throws UsageError for unknown options, missing values and argument counts.
ParsedArgs parse_arguments(const CommandSpec& spec, const std::vector<std::string>& args);

}  // namespace geotrain::cli
