#include "measure/nvidia_smi_csv.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include "model/derived_checks.hpp"
#include "model/input_error.hpp"

namespace geotrain::measure {

namespace {

const char* const kCommand = "nvidia-smi --query-gpu=index,name,memory.total,power.limit --format=csv";
const char* const kColumns[] = {"index", "name", "memory.total", "power.limit"};

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

// "memory.total [MiB]" -> ("memory.total", "MiB").
std::pair<std::string, std::string> column_and_unit(std::string_view field) {
  const std::size_t open = field.find('[');
  if (open == std::string_view::npos || field.back() != ']') return {lower(trim(field)), ""};
  return {lower(trim(field.substr(0, open))), std::string(field.substr(open + 1, field.size() - open - 2))};
}

bool is_not_available(std::string_view value) {
  return value == "[N/A]" || value == "N/A" || value == "[Not Supported]" || value == "[Unknown Error]";
}

// "81920 MiB" with unit "MiB", or "81920" (nounits): the number; InputError otherwise.
double number_with_unit(const std::string& file, const Line& line, std::string_view value, const char* column,
                        const char* unit) {
  std::string_view digits = value;
  const std::string suffix = std::string(" ") + unit;
  if (digits.size() > suffix.size() && digits.substr(digits.size() - suffix.size()) == suffix)
    digits.remove_suffix(suffix.size());
  const auto number = decimal(digits);
  if (!number)
    throw InputError(at_line(file, line.number, std::string(column) + " must be a number of " + unit + ", got " +
                                                     quote_text(value)));
  return *number;
}

struct Layout {
  std::map<std::string, std::size_t> column;  // column name -> field index
  std::size_t fields = 0;
  std::size_t first_row = 0;                  // index into the lines
};

Layout read_layout(const std::string& file, const std::vector<Line>& lines) {
  const Line& first = lines.front();
  const auto fields = split_trimmed(first.text, ',');
  Layout layout;
  layout.fields = fields.size();
  if (decimal(fields.front())) {  // noheader: the documented four columns
    if (fields.size() != 4)
      throw InputError(at_line(file, first.number, "a headerless line must have the 4 columns of " + std::string(kCommand) +
                                                       ",noheader; got " + std::to_string(fields.size())));
    for (std::size_t i = 0; i < 4; ++i) layout.column[kColumns[i]] = i;
    return layout;
  }
  for (std::size_t i = 0; i < fields.size(); ++i) layout.column.emplace(column_and_unit(fields[i]).first, i);
  for (const char* needed : kColumns)
    if (!layout.column.count(needed))
      throw InputError(at_line(file, first.number, "no " + std::string(needed) + " column: this is not the output of " +
                                                       kCommand));
  layout.first_row = 1;
  return layout;
}

void check_not_other_output(const std::string& file, const Line& first) {
  const std::string_view t = trim(first.text);
  if (t.rfind("+---", 0) == 0 || t.find("NVIDIA-SMI") != std::string_view::npos || t.rfind("==============", 0) == 0)
    throw InputError(at_line(file, first.number, "this is nvidia-smi's table, not its CSV; run " + std::string(kCommand)));
}

SmiGpu read_row(const std::string& file, const Line& line, const Layout& layout) {
  const auto fields = split_trimmed(line.text, ',');
  if (fields.size() != layout.fields)
    throw InputError(at_line(file, line.number, std::to_string(fields.size()) + " fields where the " +
                                                    (layout.first_row ? "header has " : "first line has ") +
                                                    std::to_string(layout.fields) + " (a line cut short?)"));
  SmiGpu gpu;
  gpu.line = line.number;
  const std::string_view index = fields[layout.column.at("index")];
  const auto number = decimal(index);
  if (!number || *number < 0 || *number > 1023 || *number != static_cast<int>(*number))
    throw InputError(at_line(file, line.number, "index must be a device number from 0 to 1023, got " + quote_text(index)));
  gpu.index = static_cast<int>(*number);
  gpu.name = printable(fields[layout.column.at("name")]);
  if (gpu.name.empty() || is_not_available(gpu.name))
    throw InputError(at_line(file, line.number, "name is missing, got " + quote_text(fields[layout.column.at("name")])));
  const std::string_view memory = fields[layout.column.at("memory.total")];
  gpu.memory_mib = number_with_unit(file, line, memory, "memory.total", "MiB");
  const double gib = gpu.memory_mib / 1024.0;
  if (!(gib >= NumberLimits::kMinMemoryGib && gib <= NumberLimits::kMaxMemoryGib))
    throw InputError(at_line(file, line.number, "memory.total " + quote_text(memory) + " is outside what a GPU holds (" +
                                                    "1 KiB to 1 PiB)"));
  const std::string_view power = fields[layout.column.at("power.limit")];
  if (!is_not_available(power)) {
    const double watts = number_with_unit(file, line, power, "power.limit", "W");
    if (!(watts >= NumberLimits::kMinPowerW && watts <= NumberLimits::kMaxPowerW))
      throw InputError(at_line(file, line.number, "power.limit " + quote_text(power) + " is outside 1 uW to 1 MW"));
    gpu.power_limit_w = watts;
  }
  return gpu;
}

}  // namespace

std::vector<SmiGpu> parse_nvidia_smi_csv(const MeasuredFile& file) {
  std::vector<Line> lines = split_lines(file.text);
  lines.erase(std::remove_if(lines.begin(), lines.end(), [](const Line& l) { return trim(l.text).empty(); }),
              lines.end());
  if (lines.empty()) throw InputError(at_file(file.name, "empty; expected the output of " + std::string(kCommand)));
  check_not_other_output(file.name, lines.front());
  const Layout layout = read_layout(file.name, lines);
  std::vector<SmiGpu> gpus;
  std::map<int, std::size_t> line_of_index;
  for (std::size_t i = layout.first_row; i < lines.size(); ++i) {
    SmiGpu gpu = read_row(file.name, lines[i], layout);
    auto [it, fresh] = line_of_index.emplace(gpu.index, gpu.line);
    if (!fresh)
      throw InputError(at_line(file.name, gpu.line, "GPU index " + std::to_string(gpu.index) + " again (first on line " +
                                                        std::to_string(it->second) + ")"));
    gpus.push_back(std::move(gpu));
  }
  if (gpus.empty()) throw InputError(at_file(file.name, "a header and no GPU lines (nvidia-smi found no GPU?)"));
  return gpus;
}

}  // namespace geotrain::measure
