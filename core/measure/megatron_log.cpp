#include "measure/megatron_log.hpp"

#include <algorithm>

#include "model/input_error.hpp"

namespace geotrain::measure {

namespace {

constexpr std::string_view kKey = "elapsed time per iteration (ms):";
constexpr double kMaxIterationMs = 1e9;  // 11 days

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

IterationTimes parse_megatron_log(const MeasuredFile& file) {
  IterationTimes out;
  for (const Line& line : split_lines(file.text)) {
    const std::size_t at = line.text.find(kKey);
    if (at == std::string_view::npos) continue;
    std::string_view rest = line.text.substr(at + kKey.size());
    rest = trim(rest.substr(0, rest.find('|')));
    const auto ms = decimal(rest);
    if (!ms || !(*ms > 0) || *ms > kMaxIterationMs)
      throw InputError(at_line(file.name, line.number, "elapsed time per iteration must be a positive number of ms "
                                                       "(at most 1e9), got " + quote_text(rest)));
    out.ms.push_back(*ms);
    out.lines.push_back(line.number);
  }
  if (out.ms.empty())
    throw InputError(at_file(file.name, "no \"elapsed time per iteration (ms): ...\" line: not a Megatron-LM training log"));
  const bool skip_first = out.ms.size() > 1;
  out.used = out.ms.size() - (skip_first ? 1 : 0);
  out.median_ms = median(std::vector<double>(out.ms.begin() + (skip_first ? 1 : 0), out.ms.end()));
  return out;
}

}  // namespace geotrain::measure
