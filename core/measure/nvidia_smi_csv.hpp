#pragma once
// `nvidia-smi --query-gpu=index,name,memory.total,power.limit --format=csv`:
//
//   index, name, memory.total [MiB], power.limit [W]
//   0, NVIDIA A100-SXM4-80GB, 81920 MiB, 400.00 W
//
// Also read: `--format=csv,noheader` and `nounits` (without a header the four
// columns must be in that order), and any further query columns (pci.bus_id,
// uuid, ...), which are ignored. power.limit may be [N/A] (GeForce cards
// under some drivers): the catalogue's figure then stands.
#include <optional>
#include <string>
#include <vector>

#include "measure/tool_text.hpp"

namespace geotrain::measure {

struct SmiGpu {
  int index = 0;                       // the CUDA device index on its host
  std::string name;                    // as nvidia-smi prints it, "NVIDIA A100-SXM4-80GB"
  double memory_mib = 0;               // memory.total
  std::optional<double> power_limit_w;  // empty for [N/A]
  std::size_t line = 0;
};

// Throws InputError naming the file and line ("node1.csv line 3: ...").
std::vector<SmiGpu> parse_nvidia_smi_csv(const MeasuredFile& file);

}  // namespace geotrain::measure
