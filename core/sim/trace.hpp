#pragma once
// A trace of changing conditions (docs/simulation.md, "Traces"): link
// bandwidth and latency changes and GPU slowdowns at given times, replayed by
// the simulation over many iterations.
//
// {"iterations": 20,
//  "changes": [
//    {"at_ms": 1500, "link": {"from_site": "A", "to_site": "B"}, "bandwidth_factor": 0.5},
//    {"at_ms": 4000, "link": {"from": "g0", "to": "g1"}, "bandwidth_gbps": 2, "latency_ms": 40},
//    {"at_ms": 2500, "gpu": "g3", "slowdown": 2}]}
//
// A change sets the fields it names from at_ms on; the others keep their
// value until a later change sets them (bandwidth_factor 1 or slowdown 1
// restores the planned figure). Changes apply in time order, equal times in
// file order. A link selector names one directed GPU pair or one directed
// site pair (every GPU pair from the one site to the other).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/network.hpp"
#include "model/problem.hpp"
#include "sim/conditions.hpp"
#include "sim/timing.hpp"

namespace geotrain {

struct TraceChange {
  double at_s = 0;
  int gpu = -1;                      // a GPU's change: its index
  int from_gpu = -1, to_gpu = -1;    // a GPU pair's link
  std::string from_site, to_site;    // a site pair's links (when from_gpu < 0 and gpu < 0)
  std::optional<double> bandwidth_factor, bandwidth_gbps, latency_ms, slowdown;

  bool is_gpu() const { return gpu >= 0; }
};

struct Trace {
  std::optional<std::int64_t> iterations;
  std::vector<TraceChange> changes;  // in time order (stable: equal times in file order)
};

// Throws InputError naming each bad field under `path` ("trace.changes[2].slowdown: must be > 0, got 0").
Trace parse_trace(const nlohmann::json& document, const Problem& problem, const std::string& path = "trace");

// The trace as step functions over `timings`' links and devices: a device
// runs at 1 / (the largest slowdown among its GPUs); a link's bandwidth
// factor and latency follow the changes that select it (bandwidth_gbps
// against the link's planned bandwidth_gbps, its util still applying).
Conditions compile_conditions(const Trace& trace, const Problem& problem, const PipelineTimings& timings,
                              const std::vector<std::optional<ResolvedLink>>& links);

}  // namespace geotrain
