#pragma once
#include <chrono>

namespace geotrain {

// Wall time since construction; steady_clock maps to performance.now() in wasm.
class Stopwatch {
 public:
  double elapsed_ms() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace geotrain
