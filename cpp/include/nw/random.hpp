// The project's own seeded generator: xoshiro256** seeded by splitmix64, with uniform and normal draws
// that depend on nothing from the standard library's distributions (libstdc++ and libc++ differ there).
#pragma once

#include <cstdint>

namespace nw {

class Random {
 public:
  explicit Random(std::uint64_t seed);

  std::uint64_t nextBits();
  // Uniform in [0, 1) with 53 random bits.
  double uniform();
  // Standard normal by Marsaglia's polar method (one draw per accepted pair; the second is discarded).
  double normal();

 private:
  std::uint64_t state_[4];
};

}  // namespace nw
