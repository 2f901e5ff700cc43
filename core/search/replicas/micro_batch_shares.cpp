#include "search/replicas/micro_batch_shares.hpp"

#include <algorithm>
#include <cmath>

namespace geotrain {

namespace {

// How many micro-batches replica r takes within time T (at least 1, at most `cap`).
std::int64_t fits_within(const PipelinePace& p, double T, std::int64_t cap) {
  if (T < p.sum_tau) return 1;
  if (!(p.max_tau > 0)) return cap;
  const double extra = std::floor((T - p.sum_tau) / p.max_tau);
  return extra >= static_cast<double>(cap - 1) ? cap : 1 + static_cast<std::int64_t>(extra);
}

double drain_s(const PipelinePace& p, std::int64_t m) { return p.sum_tau + static_cast<double>(m - 1) * p.max_tau; }

}  // namespace

std::vector<std::int64_t> balance_micro_batches(const std::vector<PipelinePace>& paces, std::int64_t micro_batches) {
  const std::size_t R = paces.size();
  std::vector<std::int64_t> shares(R, 1);
  if (R == 0 || micro_batches <= static_cast<std::int64_t>(R)) return shares;
  const std::int64_t cap = micro_batches - static_cast<std::int64_t>(R) + 1;
  // Bisection on T over [the slowest single micro-batch, every extra one on the first replica].
  double lo = 0, hi = 0;
  for (const PipelinePace& p : paces) lo = std::max(lo, p.sum_tau), hi = std::max(hi, drain_s(p, cap));
  const auto total = [&](double T) {
    std::int64_t sum = 0;
    for (const PipelinePace& p : paces) sum += fits_within(p, T, cap);
    return sum;
  };
  if (total(lo) < micro_batches) {
    for (int step = 0; step < 200 && hi > lo; ++step) {
      const double mid = lo + (hi - lo) / 2;
      if (mid <= lo || mid >= hi) break;
      (total(mid) >= micro_batches ? hi : lo) = mid;
    }
  } else {
    hi = lo;
  }
  for (std::size_t r = 0; r < R; ++r) shares[r] = fits_within(paces[r], hi, cap);
  std::int64_t excess = -micro_batches;
  for (std::int64_t m : shares) excess += m;
  // Rounding may leave T one micro-batch short: give it where it drains soonest (the first of equals).
  for (; excess < 0; ++excess) {
    std::size_t next = 0;
    for (std::size_t r = 1; r < R; ++r)
      if (drain_s(paces[r], shares[r] + 1) < drain_s(paces[next], shares[next] + 1)) next = r;
    ++shares[next];
  }
  // Too many at T: take back from the replica that drains last (the later of equals).
  while (excess-- > 0) {
    std::size_t worst = R;
    for (std::size_t r = 0; r < R; ++r)
      if (shares[r] > 1 && (worst == R || drain_s(paces[r], shares[r]) >= drain_s(paces[worst], shares[worst]))) worst = r;
    --shares[worst];
  }
  return shares;
}

}  // namespace geotrain
