#pragma once
// The order in which one stage of a 1F1B pipeline (PipeDream-Flush, not
// interleaved) runs its 2m operations (simulator.md, "Order"): w_q =
// min(Q - q - 1, m) warm-up forwards F(q,0) .. F(q,w_q - 1); then for
// i = 0 .. m - w_q - 1 the pair F(q, w_q + i), B(q, i); then the cool-down
// backwards B(q, m - w_q) .. B(q, m - 1). Stage q is 0-based.
#include <algorithm>
#include <cstdint>

namespace geotrain {

enum class Pass : std::uint8_t { forward, backward };

struct Operation {
  Pass pass = Pass::forward;
  std::int64_t micro_batch = 0;
};

// w_q: the forwards stage q runs before its first backward.
inline std::int64_t warmup_forwards(int stages, int stage, std::int64_t micro_batches) {
  return std::min<std::int64_t>(stages - stage - 1, micro_batches);
}

// The index-th operation (0 <= index < 2m) of a stage with w warm-up forwards.
inline Operation operation_at(std::int64_t index, std::int64_t warmup, std::int64_t micro_batches) {
  if (index < warmup) return {Pass::forward, index};
  const std::int64_t steady_end = 2 * micro_batches - warmup;  // w + 2 (m - w)
  if (index >= steady_end) return {Pass::backward, index - micro_batches};
  const std::int64_t j = index - warmup;
  return j % 2 == 0 ? Operation{Pass::forward, warmup + j / 2} : Operation{Pass::backward, j / 2};
}

}  // namespace geotrain
