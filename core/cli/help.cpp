#include "cli/help.hpp"

#include <algorithm>
#include <sstream>

#ifndef GEOTRAIN_VERSION
#define GEOTRAIN_VERSION "unknown"
#endif

namespace geotrain::cli {

namespace {

std::string option_synopsis(const OptionSpec& o) { return o.value_name.empty() ? o.flag : o.flag + " " + o.value_name; }

std::string synopsis(const CommandSpec& spec) {
  std::string line = "geotrain " + spec.name;
  if (!spec.arguments.empty()) line += " " + spec.arguments;
  if (!spec.options.empty()) line += " [options]";
  return line;
}

std::string escape_cell(std::string text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

}  // namespace

std::string version_text() { return std::string("geotrain ") + GEOTRAIN_VERSION; }

std::string usage_text() {
  std::ostringstream out;
  out << "usage:\n";
  std::size_t width = 0;
  for (const auto& c : commands()) width = std::max(width, synopsis(c).size());
  for (const auto& c : commands())
    out << "  " << synopsis(c) << std::string(width - synopsis(c).size() + 3, ' ') << c.summary << "\n";
  out << "  geotrain --version\n"
      << "geotrain COMMAND --help lists a command's options with their units and defaults.\n"
      << "A file name of - reads standard input.\n";
  return out.str();
}

std::string command_help(const CommandSpec& spec) {
  std::ostringstream out;
  out << "usage: " << synopsis(spec) << "\n\n" << spec.summary << "\n";
  if (!spec.details.empty()) out << "\n" << spec.details << "\n";
  if (spec.options.empty()) return out.str();
  out << "\noptions:\n";
  for (const auto& o : spec.options) {
    out << "  " << option_synopsis(o) << "\n      " << o.help;
    if (!o.unit.empty()) out << "; in " << o.unit;
    out << ".";
    if (!o.default_text.empty()) out << " Default: " << o.default_text << ".";
    out << "\n";
  }
  return out.str();
}

std::string markdown_reference() {
  std::ostringstream out;
  for (const auto& c : commands()) {
    out << "### `geotrain " << c.name << "`\n\n";
    out << "```\n" << synopsis(c) << "\n```\n\n" << c.summary << "\n";
    if (!c.details.empty()) out << "\n" << c.details << "\n";
    if (!c.options.empty()) {
      out << "\n| option | unit | default | what it does |\n| --- | --- | --- | --- |\n";
      for (const auto& o : c.options)
        out << "| `" << escape_cell(option_synopsis(o)) << "` | " << escape_cell(o.unit) << " | " << escape_cell(o.default_text)
            << " | " << escape_cell(o.help) << " |\n";
    }
    out << "\n";
  }
  return out.str();
}

}  // namespace geotrain::cli
