#include "sim/replay.hpp"

namespace geotrain {

std::vector<ReplayedIteration> replay(const PipelineTimings& timings, const Conditions& conditions,
                                      std::int64_t iterations, const SimulationOptions& options,
                                      const std::function<void(std::int64_t, const Schedule&)>& each) {
  Simulator simulator(timings);
  std::vector<ReplayedIteration> out;
  out.reserve(static_cast<std::size_t>(iterations));
  double t = 0;
  for (std::int64_t i = 0; i < iterations; ++i) {
    const Schedule& s = simulator.run(options, &conditions, t);
    out.push_back(ReplayedIteration{t, s.iteration_s});
    if (each) each(i, s);
    t += s.iteration_s;
  }
  return out;
}

}  // namespace geotrain
