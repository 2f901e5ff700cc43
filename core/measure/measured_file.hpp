#pragma once
// Which tool printed a file, told from its text alone (file names are free),
// and the file parsed by that tool's reader.
#include <string>
#include <variant>

#include "measure/iperf3_json.hpp"
#include "measure/nccl_all_reduce.hpp"
#include "measure/nvidia_smi_csv.hpp"
#include "measure/nvidia_topo.hpp"
#include "measure/ping_summary.hpp"
#include "measure/tool_text.hpp"

namespace geotrain::measure {

enum class ToolFormat { nvidia_smi_csv, nvidia_smi_topo, iperf3_json, ping, nccl_all_reduce };

// "nvidia-smi --query-gpu CSV", ...
const char* format_name(ToolFormat format);

using Measurement = std::variant<std::vector<SmiGpu>, TopoMatrix, IperfResult, PingSummary, NcclAllReduce>;

struct ParsedFile {
  MeasuredFile file;  // its name shortened to the base name (sources never carry folders)
  ToolFormat format;
  Measurement measurement;
};

// Throws InputError naming the file (and line): not UTF-8, too large, no
// known tool's output (with advice for near misses such as nvidia-smi's
// table or a training log), or the tool's own reader's fault.
ParsedFile parse_measured_file(const MeasuredFile& file);

}  // namespace geotrain::measure
