#include "measure/link_figures.hpp"

#include <algorithm>

#include "measure/problem_document.hpp"
#include "model/derived_checks.hpp"
#include "model/input_error.hpp"

namespace geotrain::measure {

NvlinkSpeed nvlink_speed(const std::string& type) {
  constexpr double kNvlink234 = 25.0 * 8;      // GB/s per direction, as Gbps
  constexpr double kBridge = 14.0625 * 8;      // RTX 3090, A40 bridges
  if (type == "RTX-3090" || type == "A40") return {kBridge, true};
  for (const char* family : {"V100", "A100", "H100"})
    if (type.rfind(family, 0) == 0) return {kNvlink234, true};
  return {kNvlink234, false};
}

AllReduceLink all_reduce_link(const std::string& file, const NcclAllReduce& run) {
  AllReduceLink link;
  link.ranks = static_cast<int>(run.ranks.size());
  if (link.ranks < 2) throw InputError(at_file(file, "one rank: an all-reduce over one GPU crosses no link"));
  const auto by_bytes = [](const NcclRow& a, const NcclRow& b) { return a.bytes < b.bytes; };
  const NcclRow& largest = *std::max_element(run.rows.begin(), run.rows.end(), by_bytes);
  const NcclRow& smallest = *std::min_element(run.rows.begin(), run.rows.end(), by_bytes);
  link.bandwidth_gbps = largest.busbw_gbytes_per_s * 8;
  if (!(link.bandwidth_gbps >= NumberLimits::kMinBandwidthGbps))
    throw InputError(at_line(file, largest.line, "busbw is 0 at the largest message: no bandwidth to read"));
  const double p = link.ranks;
  const double bytes_per_s = largest.busbw_gbytes_per_s * 1e9;
  const double latency_s = smallest.time_us * 1e-6 / (2 * (p - 1)) - smallest.bytes / (p * bytes_per_s);
  link.latency_ms = significant(std::max(0.0, latency_s * 1000));
  link.bandwidth_line = largest.line, link.latency_line = smallest.line;
  link.detail = "all_reduce_perf over " + std::to_string(link.ranks) + " GPUs: busbw " +
                number_text(largest.busbw_gbytes_per_s) + " GB/s at " + number_text(largest.bytes) + " B, " +
                number_text(smallest.time_us) + " us at " + number_text(smallest.bytes) + " B";
  return link;
}

}  // namespace geotrain::measure
