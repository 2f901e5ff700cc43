#pragma once
// Which two places a pair measurement (iperf3, ping) connects.
//
// A name is looked up in the problem as a GPU id, else a host (a GPU's
// `host`, or its `node`), else a site. The file says which two it measured:
//  1. --host FROM names the end the tool ran on; the other end is the one
//     the tool itself names (ping's "--- TARGET ping statistics ---" or its
//     "PING name (ADDRESS)"; iperf3's start.connecting_to.host or the
//     address it reached);
//  2. else a file stem FROM-TO names both, when exactly one way of cutting
//     it at a '-' gives two known names ("tokyo-lab.iperf.json",
//     "gpu-node-1-gpu-node-2.ping.txt");
//  3. else the stem (or, for iperf3, the host name in start.system_info or
//     the local address) names FROM, and the tool's output names TO.
#include <optional>
#include <string>
#include <vector>

#include "measure/problem_document.hpp"

namespace geotrain::measure {

struct PairEnd {
  std::string name;
  std::string site;
  std::vector<std::size_t> gpus;  // indices into gpus[]
  enum class Kind { gpu, host, site } kind = Kind::host;
};

std::optional<PairEnd> find_end(const PoolIndex& pool, const std::string& name);

struct PairEnds {
  PairEnd from, to;
};

// Throws InputError naming the file when an end cannot be found or the stem
// can be cut in more than one way.
PairEnds pair_ends(const PoolIndex& pool, const std::string& file, const std::string& host_option,
                   const std::vector<std::string>& tool_from, const std::vector<std::string>& tool_to);

}  // namespace geotrain::measure
