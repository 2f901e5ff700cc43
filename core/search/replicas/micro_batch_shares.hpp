#pragma once
// Micro-batch shares of replicas of different speeds (replicas.md): replica r
// with m_r micro-batches drains after T_r(m) = sum_tau_r + (m - 1) max_tau_r,
// and the iteration waits for the slowest. The shares that minimise the
// largest T_r, with every m_r >= 1 and their sum M, are found by water
// filling: the least T at which the replicas can take M micro-batches in all.
#include <cstdint>
#include <vector>

namespace geotrain {

struct PipelinePace {
  double sum_tau = 0;  // seconds: one micro-batch through every stage
  double max_tau = 0;  // seconds: each further micro-batch
};

// Shares summing to `micro_batches` (>= the number of replicas), each >= 1,
// minimising max_r T_r; among equal maxima, the first replicas take more.
std::vector<std::int64_t> balance_micro_batches(const std::vector<PipelinePace>& paces, std::int64_t micro_batches);

}  // namespace geotrain
