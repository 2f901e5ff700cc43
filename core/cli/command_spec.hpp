#pragma once
// What a `geotrain` command is: its arguments, its options with their units
// and defaults, and the function that runs it. The one source of the usage
// text, every `geotrain COMMAND --help` and the generated part of docs/cli.md
// (`geotrain help --markdown`), so that they cannot drift apart.
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace geotrain::cli {

// How an option's value is read from the command line.
enum class ValueKind {
  none,         // a switch: present or not
  number,       // one decimal number (integers are checked by the planner, naming the field)
  text,         // one word, checked by the planner or the command
  number_list,  // "0,0.1,1"
  name_list,    // "carbon,cost"
  weights,      // "time=0.5,carbon=0.5"
  repeated,     // one word, the option given any number of times: a list in order
};

struct OptionSpec {
  std::string flag;        // "--time-limit"
  std::string value_name;  // "S" (empty for a switch)
  ValueKind kind = ValueKind::text;
  std::string key;         // the options field it fills ("time_limit_s")
  std::string unit;        // "seconds", "" when none
  std::string default_text;  // "the problem's search.time_limit_s (120)"
  std::string help;        // one sentence
};

// The arguments of one run: positional ones in order, options by key.
struct ParsedArgs {
  std::vector<std::string> positional;
  nlohmann::json options = nlohmann::json::object();
  bool has(const std::string& key) const { return options.contains(key); }
};

struct CommandSpec {
  std::string name;                  // "solve"
  std::string arguments;             // "PROBLEM.json"
  std::size_t min_positional = 0, max_positional = 0;
  std::string summary;               // one line
  std::string details;               // a paragraph, may be empty
  std::vector<OptionSpec> options;
  std::function<int(const ParsedArgs&)> run;
};

// Every command, in the order the usage lists them.
const std::vector<CommandSpec>& commands();

}  // namespace geotrain::cli
