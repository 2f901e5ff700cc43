#pragma once
// The knee of a trade-off curve by Kneedle (Satopaa et al., ICDCSW 2011, the
// paper's [23]): normalise both axes to [0, 1], draw the chord joining the two
// extreme points, and take the point farthest from it on the side of the
// ideal corner. On an energy-time frontier (minimise both) that is the plan
// that buys the most time per joule before returns diminish.
#include <cstddef>
#include <optional>
#include <vector>

namespace geotrain {

struct CurvePoint {
  double x = 0;  // e.g. iteration time
  double y = 0;  // e.g. energy
};

// Index (into `points`) of the knee of a decreasing curve: y falls as x
// grows, both to be minimised. Points may come in any order; the chord runs
// from the point of least x to the point of largest x (ties by y, then by
// index). Distances are measured in the normalised plane, and only points
// strictly below the chord (toward the origin) by more than 1e-9 count; of
// equally distant points the one of least x wins. nullopt with fewer than 3
// points, when x or y does not vary, or when no point lies below the chord
// (a straight line, or a concave curve).
std::optional<std::size_t> knee_index(const std::vector<CurvePoint>& points);

// Signed distance of `p` below the chord from `a` to `b`, all in the
// normalised plane: positive toward the origin for a chord running left to
// right and downward.
double distance_below_chord(const CurvePoint& a, const CurvePoint& b, const CurvePoint& p);

}  // namespace geotrain
