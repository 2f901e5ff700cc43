#include "sim/conditions.hpp"

#include <algorithm>

namespace geotrain {

namespace {

// The first step after t (steps are sorted by at_s).
RateSteps::const_iterator step_after(const RateSteps& steps, double t) {
  return std::upper_bound(steps.begin(), steps.end(), t, [](double x, const RateStep& s) { return x < s.at_s; });
}

}  // namespace

double finish_time(const RateSteps& steps, double start_s, double work_s) {
  auto next = step_after(steps, start_s);
  double rate = next == steps.begin() ? 1.0 : std::prev(next)->rate;
  double t = start_s, left = work_s;
  // Whole intervals at their rate, until the work fits in one.
  for (; next != steps.end(); ++next) {
    const double can = (next->at_s - t) * rate;
    if (left <= can) break;
    left -= can;
    t = next->at_s;
    rate = next->rate;
  }
  return t + left / rate;
}

double latency_at(const RateSteps& steps, double t, double planned_s) {
  const auto next = step_after(steps, t);
  return next == steps.begin() ? planned_s : std::prev(next)->latency_s;
}

}  // namespace geotrain
