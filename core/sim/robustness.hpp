#pragma once
// How a plan holds up when the network and the GPUs do not behave as planned
// (issue 25, point 5): its simulated iteration under many random scenarios,
// each with every link's bandwidth jittered (a factor drawn uniformly in
// [1 - jitter, 1 + jitter] per directed GPU pair) and one of the plan's GPUs
// straggling (its compute slowed by a factor). Deterministic by seed: the
// draws of scenario i for a GPU pair depend on (seed, i, the pair) alone, so
// plans that share a link see the same jitter on it in the same scenario.
#include <cstdint>
#include <vector>

#include "sim/conditions.hpp"
#include "sim/simulator.hpp"
#include "sim/timing.hpp"

namespace geotrain {

struct RobustnessSettings {
  int scenarios = 100;
  double jitter = 0.3;               // bandwidth factors in [1 - jitter, 1 + jitter], 0 <= jitter < 1
  double straggler_slowdown = 2.0;   // the straggler's compute takes this many times as long, >= 1
  std::uint64_t seed = 1;
  SendMode sends = SendMode::blocking;
};

// One scenario's conditions over `timings`' links and devices (constant over the iteration).
struct Scenario {
  Conditions conditions;
  int straggler_gpu = -1;  // index into the problem's GPUs
};
Scenario draw_scenario(const PipelineTimings& timings, const RobustnessSettings& settings, int index);

struct RobustnessFigures {
  double nominal_s = 0;            // simulated, as planned
  std::vector<double> scenario_s;  // simulated iteration of each scenario, in scenario order
  double mean_s = 0, median_s = 0, p90_s = 0, worst_s = 0;
  int worst_scenario = 0;
  int worst_straggler_gpu = -1;    // the straggler of the worst scenario
};

RobustnessFigures assess_robustness(const PipelineTimings& timings, const RobustnessSettings& settings);

}  // namespace geotrain
