#pragma once
// The engine's random source: SplitMix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number generators",
// OOPSLA 2014). One add and two multiplies per draw, passes BigCrush, and a seed fixes the whole run, so every
// prediction is reproducible. std::mt19937_64 would do as well but costs a 2.5 KB state and a slower draw.
#include <cstdint>

namespace warpsim::models::petri {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}

  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  /// Uniform in [0, bound), bound >= 1, without modulo bias: Lemire's multiply-shift with rejection
  /// ("Fast random integer generation in an interval", ACM TOMACS 2019), on 32-bit draws.
  uint32_t below(uint32_t bound) {
    uint64_t product = uint64_t{next32()} * bound;
    auto low = static_cast<uint32_t>(product);
    if (low < bound) {
      const uint32_t threshold = static_cast<uint32_t>(-bound) % bound;
      while (low < threshold) {
        product = uint64_t{next32()} * bound;
        low = static_cast<uint32_t>(product);
      }
    }
    return static_cast<uint32_t>(product >> 32);
  }

 private:
  // Both halves of a 64-bit draw: the engine draws once per enabled transition per step, so this halves its cost.
  uint32_t next32() {
    if (spare_ready_) {
      spare_ready_ = false;
      return spare_;
    }
    const uint64_t bits = next();
    spare_ = static_cast<uint32_t>(bits);
    spare_ready_ = true;
    return static_cast<uint32_t>(bits >> 32);
  }

  uint64_t state_;
  uint32_t spare_ = 0;
  bool spare_ready_ = false;
};

}  // namespace warpsim::models::petri
