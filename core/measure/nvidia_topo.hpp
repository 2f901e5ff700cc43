#pragma once
// `nvidia-smi topo -m`: how each pair of a host's GPUs is connected.
//
//         GPU0    GPU1    NIC0    CPU Affinity    NUMA Affinity
//   GPU0   X      NV12    PXB     0-63            0
//   GPU1  NV12     X      PXB     0-63            0
//
// NV# is a bonded set of # NVLinks; X the GPU itself; SYS, NODE, PHB, PXB,
// PIX (and SOC, older drivers' SYS) are PCIe paths, whose speed the matrix
// does not say. Read with tabs or spaces, with or without the underline
// escape codes older drivers print around the header; NIC rows, affinity
// columns and the legend are skipped.
#include <string>
#include <vector>

#include "measure/tool_text.hpp"

namespace geotrain::measure {

struct TopoMatrix {
  int gpus = 0;
  std::vector<int> nvlinks;  // gpus x gpus, row-major: NVLinks between the pair, 0 for a PCIe path
  std::size_t header_line = 0;

  int links(int from, int to) const { return nvlinks[static_cast<std::size_t>(from * gpus + to)]; }
};

// Throws InputError naming the file and line.
TopoMatrix parse_nvidia_topo(const MeasuredFile& file);

}  // namespace geotrain::measure
