#include "cli/arguments.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "model/input_error.hpp"

namespace geotrain::cli {

namespace {

constexpr std::size_t kMaxFileBytes = 64u << 20;

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

// strtod alone would also take "0x10", "nan", "inf" and " 5": the whole text
// must be an optional sign, digits, a fraction and an exponent.
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

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    items.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

// "time=0.5,carbon=0.5" -> {"time": 0.5, "carbon": 0.5}; the planner checks the rest.
nlohmann::json parse_weights(const std::string& flag, const std::string& text) {
  nlohmann::json weights = nlohmann::json::object();
  for (const std::string& item : split_commas(text)) {
    const std::size_t eq = item.find('=');
    const std::string key = item.substr(0, eq);
    if (eq == std::string::npos || (key != "time" && key != "energy" && key != "carbon" && key != "cost"))
      throw UsageError(flag + ": each item is time=X, energy=X, carbon=X or cost=X, got '" + item + "'");
    weights[key] = parse_number(flag + " " + key, item.substr(eq + 1));
  }
  return weights;
}

nlohmann::json read_value(const OptionSpec& option, const std::string& text) {
  switch (option.kind) {
    case ValueKind::number: return parse_number(option.flag, text);
    case ValueKind::number_list: {
      nlohmann::json list = nlohmann::json::array();
      for (const std::string& item : split_commas(text)) list.push_back(parse_number(option.flag, item));
      return list;
    }
    case ValueKind::name_list: return split_commas(text);
    case ValueKind::weights: return parse_weights(option.flag, text);
    case ValueKind::none: return true;
    case ValueKind::text:
    case ValueKind::repeated: break;
  }
  return text;
}

const OptionSpec* find_option(const CommandSpec& spec, const std::string& flag) {
  for (const OptionSpec& o : spec.options)
    if (o.flag == flag) return &o;
  return nullptr;
}

std::string quoted_list(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "'" : ", '") + item + "'";
  return text;
}

}  // namespace

std::string read_file(const std::string& path, const char* what) {
  if (path == "-") return read_capped(std::cin, "standard input", what);
  if (std::error_code ec; std::filesystem::is_directory(path, ec))
    throw InputError(std::string(what) + ": cannot read " + path + ": is a folder");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(std::string(what) + ": cannot read " + path + ": " + std::strerror(errno));
  return read_capped(in, path, what);
}

double parse_number(const std::string& flag, const std::string& text) {
  if (!is_decimal_number(text)) throw InputError(flag + ": must be a decimal number, got '" + text + "'");
  errno = 0;
  const double value = std::strtod(text.c_str(), nullptr);
  if (errno == ERANGE || !std::isfinite(value))
    throw InputError(flag + ": " + text + " is out of range for a double (about 1e-308 to 1.8e308)");
  return value;
}

ParsedArgs parse_arguments(const CommandSpec& spec, const std::vector<std::string>& args) {
  ParsedArgs parsed;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0 || a == "-") {
      parsed.positional.push_back(a);
      continue;
    }
    std::string flag = a, value;
    const std::size_t eq = a.find('=');
    if (eq != std::string::npos) flag = a.substr(0, eq), value = a.substr(eq + 1);
    const OptionSpec* option = find_option(spec, flag);
    if (!option) throw UsageError("unknown option " + flag + " for " + spec.name);
    if (option->kind == ValueKind::none) {
      if (eq != std::string::npos) throw UsageError(flag + " takes no value");
      parsed.options[option->key] = true;
      continue;
    }
    if (eq == std::string::npos) {
      if (i + 1 >= args.size()) throw UsageError(flag + " needs a value");
      value = args[++i];
    }
    if (option->kind == ValueKind::repeated) parsed.options[option->key].push_back(value);
    else parsed.options[option->key] = read_value(*option, value);
  }
  const std::size_t count = parsed.positional.size();
  if (count == 0 && spec.min_positional > 0) throw UsageError(spec.name + " needs " + spec.arguments);
  if (count < spec.min_positional || count > spec.max_positional)
    throw UsageError(spec.name + " takes " + spec.arguments + ", got " + std::to_string(count) +
                     (count == 1 ? " argument: " : " arguments: ") + quoted_list(parsed.positional));
  return parsed;
}

}  // namespace geotrain::cli
