#pragma once
// nccl-tests' `all_reduce_perf` output: the ranks (which host, which device)
// and one row per message size with its time and bus bandwidth.
//
//   #  Rank  0 Group  0 Pid  12345 on   node-1 device  0 [0000:07:00] NVIDIA A100-SXM4-80GB
//   #       size         count      type   redop    root     time   algbw   busbw #wrong ...
//      134217728      33554432     float     sum      -1   1234.5  108.72  190.26      0 ...
//
// The columns are found by the header's names, so older versions (no root,
// "error" for #wrong, "Rank n Pid" without a group) and newer ones (per-
// iteration columns, timestamps) read alike; the out-of-place figures are
// used. How the figures map to the model's links: measure/nccl_link.hpp.
#include <string>
#include <vector>

#include "measure/tool_text.hpp"

namespace geotrain::measure {

struct NcclRank {
  int rank = 0;
  std::string host;
  int device = 0;
  std::string gpu_name;
};

struct NcclRow {
  double bytes = 0;
  double time_us = 0;
  double busbw_gbytes_per_s = 0;  // nccl-tests' GB/s are 10^9 bytes/s
  std::size_t line = 0;
};

struct NcclAllReduce {
  std::vector<NcclRank> ranks;  // by rank
  std::vector<NcclRow> rows;    // in file order
};

// Throws InputError naming the file and line; refuses other collectives
// (all_gather_perf, ...) and runs whose results were wrong.
NcclAllReduce parse_nccl_all_reduce(const MeasuredFile& file);

}  // namespace geotrain::measure
