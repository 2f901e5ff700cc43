#include "measure/measured_file.hpp"

#include <optional>

#include "model/input_error.hpp"

namespace geotrain::measure {

namespace {

bool contains(std::string_view text, std::string_view what) { return text.find(what) != std::string_view::npos; }

std::string_view first_text(std::string_view text) {
  for (const Line& l : split_lines(text))
    if (!trim(l.text).empty()) return trim(l.text);
  return {};
}

// The format by what only that tool prints; empty when none matches.
std::optional<ToolFormat> sniff(std::string_view text) {
  const std::string_view first = first_text(text);
  if ((!first.empty() && first.front() == '{') || contains(text, "\"test_start\"")) return ToolFormat::iperf3_json;
  if (contains(text, " ping statistics ---") || contains(text, "rtt min/avg/max") || contains(text, "round-trip min/avg/max"))
    return ToolFormat::ping;
  if (contains(text, "# nThread ") || contains(text, "# Collective test starting") || contains(text, "busbw"))
    return ToolFormat::nccl_all_reduce;
  for (const Line& l : split_lines(text)) {
    const auto w = words(l.text);
    if (!w.empty() && (w.front() == "GPU0" || w.front() == "\x1b[4mGPU0")) return ToolFormat::nvidia_smi_topo;
  }
  if (contains(first, ",") || (!first.empty() && decimal(words(first).empty() ? "" : words(first).front())))
    return ToolFormat::nvidia_smi_csv;
  if (first.rfind("+---", 0) == 0 || contains(first, "NVIDIA-SMI")) return ToolFormat::nvidia_smi_csv;  // says why not
  return std::nullopt;
}

}  // namespace

const char* format_name(ToolFormat format) {
  switch (format) {
    case ToolFormat::nvidia_smi_csv: return "nvidia-smi --query-gpu CSV";
    case ToolFormat::nvidia_smi_topo: return "nvidia-smi topo -m";
    case ToolFormat::iperf3_json: return "iperf3 --json";
    case ToolFormat::ping: return "ping";
    case ToolFormat::nccl_all_reduce: return "nccl-tests all_reduce_perf";
  }
  return "";
}

ParsedFile parse_measured_file(const MeasuredFile& given) {
  MeasuredFile file{base_name(given.name), given.text};
  if (file.name.empty()) file.name = "(unnamed)";
  if (file.text.size() > kMaxMeasuredFileBytes)
    throw InputError(at_file(file.name, "larger than 16 MiB; no tool output here is that long"));
  if (const std::size_t bad = first_non_utf8_line(file.text))
    throw InputError(at_line(file.name, bad, "not UTF-8 text (a binary file?)"));
  if (contains(file.text, "elapsed time per iteration (ms)"))
    throw InputError(at_file(file.name, "a Megatron-LM training log: give it to geotrain calibrate --run PLAN:LOG"));
  const auto format = sniff(file.text);
  if (!format) {
    throw InputError(at_file(file.name, "not the output of a tool import reads (nvidia-smi --query-gpu CSV, nvidia-smi "
                                        "topo -m, iperf3 --json, ping, nccl-tests all_reduce_perf)"));
  }
  ParsedFile parsed{file, *format, {}};
  switch (*format) {
    case ToolFormat::nvidia_smi_csv: parsed.measurement = parse_nvidia_smi_csv(file); break;
    case ToolFormat::nvidia_smi_topo: parsed.measurement = parse_nvidia_topo(file); break;
    case ToolFormat::iperf3_json: parsed.measurement = parse_iperf3_json(file); break;
    case ToolFormat::ping: parsed.measurement = parse_ping_summary(file); break;
    case ToolFormat::nccl_all_reduce: parsed.measurement = parse_nccl_all_reduce(file); break;
  }
  return parsed;
}

}  // namespace geotrain::measure
