#include "sim/robustness.hpp"

#include <algorithm>
#include <cmath>

#include "search/random.hpp"

namespace geotrain {

namespace {

// A generator of its own for each (seed, scenario, key): splitmix64's mixing
// of the three, so the draw does not depend on what else was drawn before.
Rng keyed_rng(std::uint64_t seed, int scenario, std::uint64_t key) {
  std::uint64_t x = seed * 0x9E3779B97F4A7C15ull ^ (static_cast<std::uint64_t>(scenario) + 1) * 0xBF58476D1CE4E5B9ull ^
                    (key + 1) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  return Rng(x);
}

constexpr std::uint64_t kStragglerKey = ~std::uint64_t{0};

// The value at fraction p of sorted values (nearest rank).
double quantile(const std::vector<double>& sorted, double p) {
  const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(sorted.size())));
  return sorted[std::min(sorted.size() - 1, rank == 0 ? 0 : rank - 1)];
}

}  // namespace

Scenario draw_scenario(const PipelineTimings& timings, const RobustnessSettings& settings, int index) {
  Scenario out;
  // The plan's GPUs, each once, in device order: one of them straggles.
  std::vector<int> gpus;
  for (const auto& device : timings.devices)
    for (int g : device)
      if (std::find(gpus.begin(), gpus.end(), g) == gpus.end()) gpus.push_back(g);
  Rng pick = keyed_rng(settings.seed, index, kStragglerKey);
  if (!gpus.empty()) out.straggler_gpu = gpus[static_cast<std::size_t>(pick.below(gpus.size()))];
  out.conditions.devices.resize(timings.devices.size());
  for (std::size_t d = 0; d < timings.devices.size(); ++d) {
    const auto& device = timings.devices[d];
    if (std::find(device.begin(), device.end(), out.straggler_gpu) != device.end())
      out.conditions.devices[d].push_back(RateStep{-INFINITY, 1.0 / settings.straggler_slowdown, 0});
  }
  // Planned latencies stay; the latency of a step is only read when it has one.
  out.conditions.links.resize(timings.links.size());
  std::vector<double> latency(timings.links.size(), 0.0);
  for (const PipelineTiming& p : timings.replicas)
    for (const StageTiming& s : p.stages)
      for (const SendTiming* send : {&s.forward, &s.backward})
        if (send->exists()) latency[static_cast<std::size_t>(send->link)] = send->latency_s;
  for (std::size_t l = 0; l < timings.links.size(); ++l) {
    const LinkEnds& ends = timings.links[l];
    const std::uint64_t key = static_cast<std::uint64_t>(ends.from_gpu) << 32 | static_cast<std::uint32_t>(ends.to_gpu);
    Rng draw = keyed_rng(settings.seed, index, key);
    const double factor = 1.0 + settings.jitter * (2.0 * draw.uniform01() - 1.0);
    out.conditions.links[l].push_back(RateStep{-INFINITY, factor, latency[l]});
  }
  return out;
}

RobustnessFigures assess_robustness(const PipelineTimings& timings, const RobustnessSettings& settings) {
  Simulator simulator(timings);
  SimulationOptions options;
  options.sends = settings.sends;
  RobustnessFigures out;
  out.nominal_s = simulator.run(options).iteration_s;
  out.scenario_s.reserve(static_cast<std::size_t>(settings.scenarios));
  for (int i = 0; i < settings.scenarios; ++i) {
    const Scenario scenario = draw_scenario(timings, settings, i);
    const double t = simulator.run(options, &scenario.conditions).iteration_s;
    out.scenario_s.push_back(t);
    if (i == 0 || t > out.worst_s) out.worst_s = t, out.worst_scenario = i, out.worst_straggler_gpu = scenario.straggler_gpu;
  }
  if (out.scenario_s.empty()) return out;
  std::vector<double> sorted = out.scenario_s;
  std::sort(sorted.begin(), sorted.end());
  double sum = 0;
  for (double t : sorted) sum += t;
  out.mean_s = sum / static_cast<double>(sorted.size());
  out.median_s = quantile(sorted, 0.5);
  out.p90_s = quantile(sorted, 0.9);
  return out;
}

}  // namespace geotrain
