#include "studies/knee.hpp"

#include <algorithm>
#include <cmath>

namespace geotrain {

namespace {

// Below this, a distance is rounding noise: a straight line has no knee.
constexpr double kMinKneeDistance = 1e-9;

}  // namespace

double distance_below_chord(const CurvePoint& a, const CurvePoint& b, const CurvePoint& p) {
  const double dx = b.x - a.x, dy = b.y - a.y;
  const double length = std::sqrt(dx * dx + dy * dy);
  if (!(length > 0)) return 0;
  // The cross product (b - a) x (p - a) is negative below a left-to-right chord.
  return -(dx * (p.y - a.y) - dy * (p.x - a.x)) / length;
}

std::optional<std::size_t> knee_index(const std::vector<CurvePoint>& points) {
  const std::size_t n = points.size();
  if (n < 3) return std::nullopt;
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  // A total order, so that equal points give the same knee everywhere.
  std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) {
    if (points[i].x != points[j].x) return points[i].x < points[j].x;
    return points[i].y > points[j].y;
  });
  double x_min = points[order.front()].x, x_max = points[order.back()].x;
  double y_min = points[0].y, y_max = points[0].y;
  for (const CurvePoint& p : points) y_min = std::min(y_min, p.y), y_max = std::max(y_max, p.y);
  if (!(x_max > x_min) || !(y_max > y_min)) return std::nullopt;

  auto normalised = [&](std::size_t i) {
    return CurvePoint{(points[i].x - x_min) / (x_max - x_min), (points[i].y - y_min) / (y_max - y_min)};
  };
  const CurvePoint first = normalised(order.front()), last = normalised(order.back());
  std::optional<std::size_t> knee;
  double best = kMinKneeDistance;
  for (std::size_t k = 1; k + 1 < n; ++k) {
    const double d = distance_below_chord(first, last, normalised(order[k]));
    if (d > best) best = d, knee = order[k];
  }
  return knee;
}

}  // namespace geotrain
