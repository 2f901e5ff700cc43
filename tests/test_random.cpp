// Rng::below must keep giving the draws it always gave: every memetic plan
// of a seed depends on them. It is held against the rejection rule written
// out the way it first was (two divisions), on bounds where rejection is
// common, never happens, or sits at the edges of the 64-bit range.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "search/random.hpp"

namespace geotrain {
namespace {

// The first definition: reject x >= UINT64_MAX - UINT64_MAX % bound.
std::uint64_t reference_below(Rng& rng, std::uint64_t bound) {
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
  std::uint64_t x;
  do x = rng.next_u64();
  while (x >= limit);
  return x % bound;
}

TEST(RngBelow, GivesTheDrawsOfTheTwoDivisionRule) {
  // 2^63 + 1: limit = 2^63 + 1, so almost half of all draws are rejected.
  // 3 * 2^62: a quarter rejected. UINT64_MAX: only UINT64_MAX itself is.
  // 2^40: limit = 2^64 - 2^40, the top 2^40 values rejected.
  const std::vector<std::uint64_t> bounds = {1,  2,  3,  7,  12, 199, 200, 1000003, (1ull << 32) + 15,
                                             1ull << 40, (1ull << 63) + 1, 3ull << 62, UINT64_MAX - 1, UINT64_MAX};
  for (std::uint64_t seed : {1ull, 2ull, 42ull, 0xdeadbeefull}) {
    Rng fast(seed), reference(seed);
    for (int i = 0; i < 20000; ++i) {
      const std::uint64_t bound = bounds[static_cast<std::size_t>(i) % bounds.size()];
      ASSERT_EQ(fast.below(bound), reference_below(reference, bound)) << "seed " << seed << ", draw " << i;
    }
    // Both engines consumed the same raw words, rejections included.
    EXPECT_EQ(fast.next_u64(), reference.next_u64());
  }
}

// The remainder by multiplication (random.hpp) against the division, on
// every tabled divisor and past the table, at the edges of the 64-bit range
// and at every multiple's neighbours, where a rounding slip would show.
TEST(RngBelow, RemainderByMultiplicationIsTheDivisionsRemainder) {
  Rng rng(11);
  for (std::uint64_t d = 1; d <= 1100; ++d) {
    std::vector<std::uint64_t> xs = {0, 1, d - 1, d, d + 1, 2 * d - 1, UINT64_MAX, UINT64_MAX - 1, UINT64_MAX - d,
                                     UINT64_MAX - UINT64_MAX % d, UINT64_MAX - UINT64_MAX % d - 1, 1ull << 63};
    for (int i = 0; i < 1000; ++i) {
      const std::uint64_t x = rng.next_u64();
      xs.push_back(x), xs.push_back(x - x % d), xs.push_back(x - x % d - 1);
    }
    for (std::uint64_t x : xs) ASSERT_EQ(remainder_detail::remainder(x, d), x % d) << x << " % " << d;
  }
}

TEST(RngBelow, RejectsTheTopPartialBlock) {
  // With bound 2^63 + 1 a rejection happens about every other draw: over
  // 4,000 draws the engine must have consumed clearly more than 4,000 words.
  Rng rng(7), raw(7);
  const std::uint64_t bound = (1ull << 63) + 1;
  int words = 0, rejected = 0;
  for (int i = 0; i < 4000; ++i) {
    const std::uint64_t value = rng.below(bound);
    ASSERT_LT(value, bound);
    std::uint64_t x;
    do {
      x = raw.next_u64(), ++words;
      rejected += x >= bound;  // limit = bound here (UINT64_MAX = bound + 2^63 - 2)
    } while (x >= bound);
    ASSERT_EQ(value, x % bound);
  }
  EXPECT_GT(rejected, 3000);  // expected about 4,000 (one per accepted draw on average)
  EXPECT_EQ(words, 4000 + rejected);
}

}  // namespace
}  // namespace geotrain
