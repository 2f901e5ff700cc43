#pragma once
// Small bounded least-squares solvers for calibration: a handful of unknowns,
// residuals that cost a model evaluation each, no derivatives given.
#include <functional>
#include <vector>

namespace geotrain::measure {

using Residuals = std::function<std::vector<double>(const std::vector<double>&)>;

struct BoundedFit {
  std::vector<double> x;
  double cost = 0;  // sum of squared residuals at x
  int evaluations = 0;
};

// Minimises sum_k r_k(x)^2 over lower <= x <= upper by Levenberg-Marquardt:
// forward-difference Jacobians, damping on the diagonal (Marquardt's scaling
// plus a small constant, so that directions the residuals do not see stay
// where they are), and a variable on a bound while the gradient pushes it
// out is held there for the step. Deterministic; at most `max_iterations`
// steps.
BoundedFit levenberg_marquardt(const Residuals& residuals, std::vector<double> x, const std::vector<double>& lower,
                               const std::vector<double>& upper, int max_iterations = 100);

// The x in [lower, upper] where f is smallest: the best of a grid of
// `grid` points, then golden-section search between its neighbours. f need
// only be unimodal near its minimum.
double minimise_on_interval(const std::function<double(double)>& f, double lower, double upper, int grid = 64);

// The root of an increasing g on [lower, upper] by bisection to the last bit;
// lower when g(lower) >= 0, upper when g(upper) <= 0.
double increasing_root(const std::function<double(double)>& g, double lower, double upper);

}  // namespace geotrain::measure
