#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>

namespace geotrain {

// Wall time since construction; steady_clock maps to performance.now() in wasm.
class Stopwatch {
 public:
  double elapsed_ms() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  }
  std::chrono::steady_clock::time_point start() const { return start_; }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// A moment a phase of a search must not run past (the caller's time limit,
// or a share of it); by default never. Reading the clock costs tens of
// nanoseconds natively and more in wasm, so loops ask every few hundred
// evaluations, which keeps them well within a millisecond of it.
class Deadline {
 public:
  using Clock = std::chrono::steady_clock;
  Deadline() = default;
  // limit_ms after the stopwatch started.
  Deadline(const Stopwatch& clock, double limit_ms) : Deadline(clock.start(), limit_ms) {}
  static Deadline after_ms(double ms) { return Deadline(Clock::now(), ms); }

  bool is_set() const { return set_; }
  bool passed() const { return set_ && Clock::now() >= at_; }
  double remaining_ms() const {
    if (!set_) return INFINITY;
    return std::max(0.0, std::chrono::duration<double, std::milli>(at_ - Clock::now()).count());
  }
  // `share` (in [0, 1]) of the time left, counted from now; never later than this one.
  Deadline share_of_remaining(double share) const { return set_ ? after_ms(share * remaining_ms()) : *this; }

 private:
  Deadline(Clock::time_point start, double limit_ms)
      : set_(std::isfinite(limit_ms)),
        at_(start + std::chrono::duration_cast<Clock::duration>(
                        std::chrono::duration<double, std::milli>(set_ ? limit_ms : 0.0))) {}
  bool set_ = false;
  Clock::time_point at_{};
};

}  // namespace geotrain
