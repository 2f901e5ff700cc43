#pragma once
// Limits on the numbers of a problem, so that every quantity the cost model
// derives from them (effective speeds, per-layer times, send times, memory,
// energy, the objective) is a finite, positive double where the model divides
// by it. Each field alone may be a valid JSON number and still, combined with
// another, overflow to infinity (10^300 TFLOPS) or underflow to zero (a
// compute_util of 10^-320): the limits below are set far beyond any real GPU
// or link, and well inside what a double holds.
//
// Worst cases within the limits (model fields at their own maxima, see
// problem_json.cpp): a layer of 72 H^2 u T = 7.2e26 FLOPs at the slowest
// effective speed (1e-6 TFLOPS x 1e-6 = 1 FLOP/s) takes 7.2e26 s; the LM head
// 6 u T H V = 6e27 s; an activation of 4e19 bytes over the slowest link
// (1e-6 Gbps x 1e-6) 3.2e23 s. A plan's T_iter is below (N + M) times its
// slowest stage, about 1e39 s, and E_iter below 1e48 J; divided by the
// smallest reference (1e-9) the objective stays below 1e60. The fastest layer
// (72 FLOPs at 1e17 FLOP/s, 7.2e-16 s) and any non-zero power (>= 1e-6 W)
// keep every figure a normal double, never a denormal that would lose the
// precision the searches compare by.
#include <string>
#include <vector>

#include "model/problem.hpp"

namespace geotrain {

class FieldReader;

struct NumberLimits {
  // GPUs
  static constexpr double kMinPeakTflops = 1e-6;  // 1 MFLOP/s
  static constexpr double kMaxPeakTflops = 1e5;   // 100 times an H100
  static constexpr double kMinUtil = 1e-6;        // compute_util, memory_util, link util: (this, 1]
  static constexpr double kMinMemoryGib = 1e-6;   // about 1 KiB
  static constexpr double kMaxMemoryGib = 1e6;    // 1 PiB
  static constexpr double kMinPowerW = 1e-6;      // idle_w, active_w: 0 or in [this, max]
  static constexpr double kMaxPowerW = 1e6;       // 1 MW
  // Links
  static constexpr double kMinBandwidthGbps = 1e-6;  // 1 kbit/s
  static constexpr double kMaxBandwidthGbps = 1e6;   // 1 Pbit/s
  static constexpr double kMaxLatencyMs = 1e6;       // about 17 minutes; 0 is allowed
  // Objective references, when given
  static constexpr double kMinReference = 1e-9;  // t_ref_ms, e_ref_j
  static constexpr double kMaxReference = 1e15;
};

// Records an error, naming the field and the limit, for every number of the
// problem outside NumberLimits. Called on a problem read without errors (the
// paths index the file's lists).
void check_number_limits(FieldReader& r, const Problem& problem);

// Every derived quantity the model divides by or sums: effective speeds,
// per-layer and head times, effective memory, link bandwidths and send times,
// powers, and the largest T_iter, E_iter and objective any plan can have.
// Returns one message per quantity that is not finite (and positive where
// the model divides by it), naming the fields it comes from. Empty for every
// problem within NumberLimits; problems built in code (the network sweeps
// rescale links) are checked again before planning.
std::vector<std::string> derived_quantity_errors(const Problem& problem);

}  // namespace geotrain
