#pragma once
// A random engine whose every draw is defined here, bit for bit: the standard
// library's distributions (and std::shuffle) differ between libstdc++ and
// libc++, and the same seed must give the same plan natively and in wasm.
#include <cstdint>
#include <utility>

namespace geotrain {

// x % d without a 64-bit division, for the small divisors the search uses:
// the division instruction takes tens of cycles on some processors (86% of
// tournament selection's time on the 2026-12-02 build machine), natively
// and in wasm alike, and the search draws a bounded number for every
// tournament entrant, pair and move. With 64-bit products only (wasm has
// no wider ones), for 1 <= d < 1024:
// - y = (x >> 32) k + (x mod 2^32) with k = 2^32 mod d is x modulo d, and
//   y < 2^32 d <= 2^42;
// - with c = ceil(2^64 / d), y mod d = ((c y) mod 2^64) d >> 64, exactly
//   (Lemire, Kaser and Kurz, "Faster remainder by direct computation",
//   2019, Theorem 1: 64 bits cover y's 42 and d's 10);
// - that last product's high word from 32-bit halves: with low = a 2^32 + b,
//   low d >> 64 = (a d + (b d >> 32)) >> 32, every term below 2^43.
// Larger divisors divide.
namespace remainder_detail {
constexpr std::uint64_t kTabled = 1024;  // divisors 1..1023
struct Table {  // built by the compiler: nothing depends on the order of static initialisation
  std::uint64_t c[kTabled]{};
  std::uint16_t k[kTabled]{};  // below d: 2 bytes each, 10 KB in all in the wasm module
  constexpr Table() {
    for (std::uint64_t d = 1; d < kTabled; ++d) {
      c[d] = UINT64_MAX / d + 1;  // ceil(2^64 / d); 0 (= 2^64) for d = 1, which gives 0 as it should
      k[d] = static_cast<std::uint16_t>((std::uint64_t{1} << 32) % d);
    }
  }
};
inline constexpr Table kTable{};
inline std::uint64_t remainder(std::uint64_t x, std::uint64_t d) {
  if (d >= kTabled) return x % d;
  const std::uint64_t y = (x >> 32) * kTable.k[d] + (x & 0xffffffffu);
  const std::uint64_t low = kTable.c[d] * y;
  return ((low >> 32) * d + (((low & 0xffffffffu) * d) >> 32)) >> 32;
}
}  // namespace remainder_detail

// xoshiro256** (Blackman and Vigna), seeded through splitmix64.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) {
    for (auto& word : state_) word = splitmix64(seed);
  }

  std::uint64_t next_u64() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  // Uniform in [0, bound), bound > 0, by rejection: no modulo bias. A draw
  // x is rejected when it lies in the top partial block of `bound` values,
  // x >= limit = bound * floor(UINT64_MAX / bound). Its block start x - x %
  // bound is >= limit exactly when it exceeds UINT64_MAX - bound (limit is
  // the only multiple of bound in (UINT64_MAX - bound, UINT64_MAX]), so one
  // remainder decides both, and the draws are the same as with limit.
  std::uint64_t below(std::uint64_t bound) {
    std::uint64_t x, rest;
    do x = next_u64(), rest = remainder_detail::remainder(x, bound);
    while (x - rest > UINT64_MAX - bound);
    return rest;
  }

  // Uniform integer in [lo, hi], lo <= hi.
  int uniform_int(int lo, int hi) {
    return lo + static_cast<int>(below(static_cast<std::uint64_t>(static_cast<std::int64_t>(hi) - lo + 1)));
  }

  // Uniform in [0, 1) with 53 random bits.
  double uniform01() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

  bool bernoulli(double p) { return uniform01() < p; }

  // Fisher-Yates, drawing from the end.
  template <typename It>
  void shuffle(It first, It last) {
    for (auto n = last - first; n > 1; --n) {
      const auto j = static_cast<decltype(n)>(below(static_cast<std::uint64_t>(n)));
      std::swap(first[n - 1], first[j]);
    }
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t state_[4];
};

}  // namespace geotrain
