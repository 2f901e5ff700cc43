#include "measure/least_squares.hpp"

#include <algorithm>
#include <cmath>

namespace geotrain::measure {

namespace {

double sum_of_squares(const std::vector<double>& r) {
  double s = 0;
  for (double v : r) s += v * v;
  return s;
}

// Solves A d = b for a symmetric positive definite A (n x n, row-major) by
// Cholesky; false when A is not positive definite.
bool solve_spd(std::vector<double> a, std::vector<double>& b, std::size_t n) {
  for (std::size_t j = 0; j < n; ++j) {
    double d = a[j * n + j];
    for (std::size_t k = 0; k < j; ++k) d -= a[j * n + k] * a[j * n + k];
    if (!(d > 0)) return false;
    a[j * n + j] = std::sqrt(d);
    for (std::size_t i = j + 1; i < n; ++i) {
      double s = a[i * n + j];
      for (std::size_t k = 0; k < j; ++k) s -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = s / a[j * n + j];
    }
  }
  for (std::size_t i = 0; i < n; ++i) {  // L y = b
    for (std::size_t k = 0; k < i; ++k) b[i] -= a[i * n + k] * b[k];
    b[i] /= a[i * n + i];
  }
  for (std::size_t i = n; i-- > 0;) {  // L^T d = y
    for (std::size_t k = i + 1; k < n; ++k) b[i] -= a[k * n + i] * b[k];
    b[i] /= a[i * n + i];
  }
  return true;
}

}  // namespace

BoundedFit levenberg_marquardt(const Residuals& residuals, std::vector<double> x, const std::vector<double>& lower,
                               const std::vector<double>& upper, int max_iterations) {
  const std::size_t n = x.size();
  BoundedFit fit;
  for (std::size_t j = 0; j < n; ++j) x[j] = std::clamp(x[j], lower[j], upper[j]);
  std::vector<double> r = residuals(x);
  ++fit.evaluations;
  double cost = sum_of_squares(r);
  double lambda = 1e-3;
  constexpr double kStep = 1e-6, kDampingFloor = 1e-9;
  for (int iteration = 0; iteration < max_iterations && cost > 0; ++iteration) {
    const std::size_t m = r.size();
    std::vector<double> jac(m * n);
    for (std::size_t j = 0; j < n; ++j) {
      std::vector<double> moved = x;
      // Step inwards at an upper bound, so the difference never leaves the box.
      const double h = moved[j] + kStep <= upper[j] ? kStep : -kStep;
      moved[j] += h;
      const std::vector<double> rj = residuals(moved);
      ++fit.evaluations;
      for (std::size_t k = 0; k < m; ++k) jac[k * n + j] = (rj[k] - r[k]) / h;
    }
    std::vector<double> jtj(n * n, 0.0), gradient(n, 0.0);
    for (std::size_t k = 0; k < m; ++k)
      for (std::size_t i = 0; i < n; ++i) {
        gradient[i] += jac[k * n + i] * r[k];
        for (std::size_t j = 0; j < n; ++j) jtj[i * n + j] += jac[k * n + i] * jac[k * n + j];
      }
    // Held: on a bound with the descent direction (-gradient) pointing out of the box.
    std::vector<bool> held(n);
    for (std::size_t j = 0; j < n; ++j)
      held[j] = (x[j] <= lower[j] && gradient[j] > 0) || (x[j] >= upper[j] && gradient[j] < 0);
    bool improved = false;
    while (!improved && lambda < 1e12) {
      std::vector<double> a = jtj, step(n);
      for (std::size_t j = 0; j < n; ++j) {
        a[j * n + j] += lambda * (jtj[j * n + j] + kDampingFloor);
        step[j] = -gradient[j];
        if (held[j]) {
          for (std::size_t i = 0; i < n; ++i) a[j * n + i] = a[i * n + j] = 0;
          a[j * n + j] = 1, step[j] = 0;
        }
      }
      if (!solve_spd(a, step, n)) {
        lambda *= 10;
        continue;
      }
      std::vector<double> next(n);
      for (std::size_t j = 0; j < n; ++j) next[j] = std::clamp(x[j] + step[j], lower[j], upper[j]);
      const std::vector<double> rn = residuals(next);
      ++fit.evaluations;
      const double next_cost = sum_of_squares(rn);
      if (next_cost < cost) {
        const double gain = cost - next_cost;
        x = next, r = rn, cost = next_cost, improved = true;
        lambda = std::max(lambda / 3, 1e-12);
        if (gain <= 1e-15 * cost) iteration = max_iterations;  // no longer moving
      } else {
        lambda *= 4;
      }
    }
    if (!improved) break;
  }
  fit.x = x, fit.cost = cost;
  return fit;
}

double minimise_on_interval(const std::function<double(double)>& f, double lower, double upper, int grid) {
  int best = 0;
  double best_value = INFINITY;
  const auto at = [&](int i) { return lower + (upper - lower) * i / grid; };
  for (int i = 0; i <= grid; ++i)
    if (const double v = f(at(i)); v < best_value) best_value = v, best = i;
  double a = at(std::max(best - 1, 0)), b = at(std::min(best + 1, grid));
  const double ratio = (std::sqrt(5.0) - 1) / 2;
  double c = b - ratio * (b - a), d = a + ratio * (b - a);
  double fc = f(c), fd = f(d);
  for (int i = 0; i < 200 && b - a > 1e-15 * (1 + std::fabs(a)); ++i) {
    if (fc <= fd) b = d, d = c, fd = fc, c = b - ratio * (b - a), fc = f(c);
    else a = c, c = d, fc = fd, d = a + ratio * (b - a), fd = f(d);
  }
  const double mid = (a + b) / 2;
  return f(mid) <= best_value ? mid : at(best);
}

double increasing_root(const std::function<double(double)>& g, double lower, double upper) {
  if (g(lower) >= 0) return lower;
  if (g(upper) <= 0) return upper;
  for (int i = 0; i < 200; ++i) {
    const double mid = lower + (upper - lower) / 2;
    if (mid <= lower || mid >= upper) break;
    (g(mid) < 0 ? lower : upper) = mid;
  }
  return lower + (upper - lower) / 2;
}

}  // namespace geotrain::measure
