#pragma once
// The energy-time trade-off (the paper's Sect. 6.7): which plans are on the
// Pareto frontier, which are dominated, where the knee is, and the deltas of
// the paper's Table 7. Plain numbers in, indices out; the pareto study
// (studies.hpp) puts JSON around them.
#include <cstddef>
#include <optional>
#include <vector>

namespace geotrain {

struct TradeoffPoint {
  double time = 0;    // iteration time; lower is better
  double energy = 0;  // energy per iteration; lower is better
};

// a is no worse than b on both and strictly better on one. Equal points do
// not dominate each other.
bool dominates(const TradeoffPoint& a, const TradeoffPoint& b);

// Indices of the points no other point dominates, by time ascending (then
// energy, then index). Equal points are all kept. O(n^2): studies are small.
std::vector<std::size_t> pareto_frontier(const std::vector<TradeoffPoint>& points);

// For each point, whether some point of `by` dominates it.
std::vector<bool> dominated_by(const std::vector<TradeoffPoint>& points, const std::vector<TradeoffPoint>& by);

// The knee of a frontier (indices into `points`, as pareto_frontier gives
// them): Kneedle (knee.hpp) on its distinct points, time on x and energy on
// y. Of equal points the first listed stands for them all. nullopt with
// fewer than three distinct points or no point below the chord.
std::optional<std::size_t> frontier_knee(const std::vector<TradeoffPoint>& points,
                                         const std::vector<std::size_t>& frontier);

// (value - reference) / reference in percent: Table 7's Delta T and Delta E.
double percent_change(double value, double reference);

// Table 7's reference row: the index of the largest lambda (the paper's
// lambda = 1; the first of equals). Empty input: nullopt.
std::optional<std::size_t> largest_lambda_row(const std::vector<double>& lambdas);

}  // namespace geotrain
