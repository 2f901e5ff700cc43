#pragma once
// What the tools' figures mean in the model's terms (stage-groups.md):
//
// NVLink (nvidia-smi topo -m): a pair joined by NV# has # links; each moves
// 25 GB/s per direction on V100, A100 and H100 (NVLink 2, 3 and 4: 50 GB/s
// both ways per link), 14.0625 GB/s on the bridges of the RTX 3090 and the
// A40 (112.5 GB/s both ways over 4 links). A link's bandwidth_gbps is then
// # x that x 8, so NV12 on an A100 is 2400 Gbps, the figure the examples use.
//
// nccl-tests' bus bandwidth: all_reduce_perf reports busbw = algbw x 2(p-1)/p
// with algbw = X / t, so t = 2(p-1)/p x X / busbw. The model prices a ring
// all-reduce of X bytes over p GPUs as AR(X) = 2(p-1) (Lat + X / (p Bw)),
// whose bandwidth part 2(p-1)/p x X / Bw is nccl-tests' time exactly when
// Bw = busbw. So a ring's link gets bandwidth_gbps = busbw (GB/s) x 8, from
// the largest message (where latency no longer counts, as nccl-tests'
// PERFORMANCE.md advises), and latency_ms from the smallest:
// Lat = t / (2(p-1)) - X / (p Bw). busbw is the ring's figure: pipeline sends
// between two GPUs priced by it may be faster than one NIC allows.
#include <string>

#include "measure/nccl_all_reduce.hpp"

namespace geotrain::measure {

constexpr double kNvlinkLatencyMs = 0.005;  // assumed for NVLink hops (the examples' intra_node), 5 us

struct NvlinkSpeed {
  double gbps_per_link;  // one direction
  bool known;            // false: the NVLink 3/4 figure was assumed for an unknown card
};
NvlinkSpeed nvlink_speed(const std::string& catalogue_type);

struct AllReduceLink {
  double bandwidth_gbps = 0;
  double latency_ms = 0;
  int ranks = 0;
  std::size_t bandwidth_line = 0, latency_line = 0;
  std::string detail;  // for the figures' sources
};

// Throws InputError (naming the file) for a run of one rank or a bus
// bandwidth of 0 at the largest message.
AllReduceLink all_reduce_link(const std::string& file, const NcclAllReduce& run);

}  // namespace geotrain::measure
