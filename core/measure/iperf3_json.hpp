#pragma once
// A client's `iperf3 -c SERVER --json` result: the rate the receiver measured
// (end.sum_received.bits_per_second; end.sum for UDP in older versions), in
// the direction the data flowed: client to server, or server to client with
// -R (test_start.reverse), or both with --bidir. TCP results on Linux also
// carry each stream's smallest round trip (end.streams[].sender.min_rtt, in
// microseconds), a latency for a link that has none yet.
#include <optional>
#include <string>
#include <vector>

#include "measure/tool_text.hpp"

namespace geotrain::measure {

struct IperfResult {
  std::string protocol;                      // "TCP", "UDP", "SCTP"
  bool reverse = false;                      // -R: data flowed server -> client
  double forward_gbps = 0;                   // in the direction of test_start.reverse
  std::optional<double> bidir_reverse_gbps;  // --bidir: the other direction as well
  std::optional<double> min_rtt_ms;          // TCP on Linux
  // Names iperf3 gives the two ends, most telling first: for the client
  // (this file's host) the host name of start.system_info and the local
  // address; for the server the name it was asked to connect to and the
  // address it reached.
  std::vector<std::string> client_names, server_names;
};

// Throws InputError naming the file (and, for bad JSON, the line).
IperfResult parse_iperf3_json(const MeasuredFile& file);

}  // namespace geotrain::measure
