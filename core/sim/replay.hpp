#pragma once
// Iterations back to back under changing conditions (trace.hpp): each
// iteration starts when the previous one has ended (its drain and syncs
// included) and sees the conditions of the times it runs at.
#include <cstdint>
#include <functional>
#include <vector>

#include "sim/simulator.hpp"

namespace geotrain {

struct ReplayedIteration {
  double start_s = 0;
  double iteration_s = 0;
};

// Runs `iterations` iterations from t = 0; `each` (optional) sees every
// iteration's schedule while it is valid.
std::vector<ReplayedIteration> replay(const PipelineTimings& timings, const Conditions& conditions,
                                      std::int64_t iterations, const SimulationOptions& options,
                                      const std::function<void(std::int64_t, const Schedule&)>& each = {});

}  // namespace geotrain
