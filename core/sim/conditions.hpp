#pragma once
// Conditions that change while a plan runs (issue 25, point 5): each link's
// bandwidth (as a factor of the planned one) and latency, and each device's
// speed, as step functions of time. The simulation asks them how long a piece
// of work takes that starts at a given time: the work proceeds at whatever
// rate holds in each interval it spans, so a slowdown that begins mid-way
// slows only the rest of it.
#include <vector>

namespace geotrain {

// From at_s on (until the next step), the resource runs at `rate` (> 0):
// for a device, its speed (1 / slowdown); for a link, its bandwidth factor.
struct RateStep {
  double at_s = 0;
  double rate = 1;
  double latency_s = 0;  // links only: the latency from at_s on
};

// A resource's steps in time order; rate 1 (and the planned latency) before
// the first.
using RateSteps = std::vector<RateStep>;

struct Conditions {
  std::vector<RateSteps> devices;  // indexed as PipelineTimings::devices; empty: constant
  std::vector<RateSteps> links;    // indexed as PipelineTimings::links

  bool empty() const {
    for (const auto& d : devices)
      if (!d.empty()) return false;
    for (const auto& l : links)
      if (!l.empty()) return false;
    return true;
  }
};

// The end of `work_s` seconds of work (at rate 1) started at start_s on a
// resource with the given steps: integrates the rate across the steps.
double finish_time(const RateSteps& steps, double start_s, double work_s);

// The latency of a link at time t: the last step's at or before t, else `planned_s`.
double latency_at(const RateSteps& steps, double t, double planned_s);

}  // namespace geotrain
