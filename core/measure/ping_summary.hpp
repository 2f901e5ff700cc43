#pragma once
// The summary `ping` prints when it stops (Linux iputils; BSD and macOS; BusyBox):
//
//   --- 10.0.0.2 ping statistics ---
//   10 packets transmitted, 10 received, 0% packet loss, time 9013ms
//   rtt min/avg/max/mdev = 0.036/0.042/0.047/0.004 ms
//
// ("round-trip min/avg/max/stddev = ..." and "round-trip min/avg/max = ..."
// elsewhere). The reply lines above it are not needed. One ping per file.
#include <string>

#include "measure/tool_text.hpp"

namespace geotrain::measure {

struct PingSummary {
  std::string target;  // as typed after `ping` ("--- TARGET ping statistics ---"); may be empty
  std::string address;  // from "PING name (ADDRESS)", when the file has that line
  double min_ms = 0, avg_ms = 0, max_ms = 0;
  std::size_t line = 0;  // of the rtt line

  // A send's latency in the model is one way: half the round trip.
  double one_way_ms() const { return avg_ms / 2; }
};

// Throws InputError naming the file and line.
PingSummary parse_ping_summary(const MeasuredFile& file);

}  // namespace geotrain::measure
