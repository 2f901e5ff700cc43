#include "studies/pareto.hpp"

#include <algorithm>

#include "studies/knee.hpp"

namespace geotrain {

bool dominates(const TradeoffPoint& a, const TradeoffPoint& b) {
  return a.time <= b.time && a.energy <= b.energy && (a.time < b.time || a.energy < b.energy);
}

std::vector<bool> dominated_by(const std::vector<TradeoffPoint>& points, const std::vector<TradeoffPoint>& by) {
  std::vector<bool> out(points.size(), false);
  for (std::size_t i = 0; i < points.size(); ++i)
    for (const TradeoffPoint& other : by)
      if (dominates(other, points[i])) {
        out[i] = true;
        break;
      }
  return out;
}

std::vector<std::size_t> pareto_frontier(const std::vector<TradeoffPoint>& points) {
  const std::vector<bool> dominated = dominated_by(points, points);
  std::vector<std::size_t> frontier;
  for (std::size_t i = 0; i < points.size(); ++i)
    if (!dominated[i]) frontier.push_back(i);
  std::stable_sort(frontier.begin(), frontier.end(), [&](std::size_t i, std::size_t j) {
    if (points[i].time != points[j].time) return points[i].time < points[j].time;
    return points[i].energy < points[j].energy;
  });
  return frontier;
}

std::optional<std::size_t> frontier_knee(const std::vector<TradeoffPoint>& points,
                                         const std::vector<std::size_t>& frontier) {
  std::vector<CurvePoint> curve;
  std::vector<std::size_t> index_of;
  for (std::size_t i : frontier) {
    const TradeoffPoint& p = points[i];
    const bool seen = std::any_of(index_of.begin(), index_of.end(), [&](std::size_t j) {
      return points[j].time == p.time && points[j].energy == p.energy;
    });
    if (seen) continue;
    curve.push_back({p.time, p.energy});
    index_of.push_back(i);
  }
  const std::optional<std::size_t> knee = knee_index(curve);
  if (!knee) return std::nullopt;
  return index_of[*knee];
}

double percent_change(double value, double reference) { return (value - reference) / reference * 100.0; }

std::optional<std::size_t> largest_lambda_row(const std::vector<double>& lambdas) {
  if (lambdas.empty()) return std::nullopt;
  std::size_t best = 0;
  for (std::size_t i = 1; i < lambdas.size(); ++i)
    if (lambdas[i] > lambdas[best]) best = i;
  return best;
}

}  // namespace geotrain
