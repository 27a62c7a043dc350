#include <cmath>

#include "approx.hpp"
#include "nw/random.hpp"

TEST_CASE("the generator is a pure function of its seed", "[random]") {
  nw::Random a(42), b(42), c(43);
  bool allEqual = true, anyDiffers = false;
  for (int i = 0; i < 1000; ++i) {
    const auto x = a.nextBits();
    allEqual = allEqual && x == b.nextBits();
    anyDiffers = anyDiffers || x != c.nextBits();
  }
  CHECK(allEqual);
  CHECK(anyDiffers);
}

TEST_CASE("xoshiro256** seeded by splitmix64 gives the reference first output", "[random]") {
  // splitmix64(0) = 0xe220a8397b1dcdaf (Vigna's reference); the first xoshiro256** output follows from
  // rotl(s1 * 5, 7) * 9 with s1 = splitmix64's second output 0x6e789e6aa1b965f4.
  nw::Random random(0);
  const std::uint64_t s1 = 0x6e789e6aa1b965f4ULL;
  const std::uint64_t expected = (((s1 * 5) << 7) | ((s1 * 5) >> 57)) * 9;
  CHECK(random.nextBits() == expected);
}

TEST_CASE("uniform draws lie in the unit interval with the moments of U(0, 1)", "[random]") {
  nw::Random random(3);
  const int n = 1000000;
  double sum = 0, sumSq = 0, lo = 1, hi = 0;
  for (int i = 0; i < n; ++i) {
    const double u = random.uniform();
    sum += u;
    sumSq += u * u;
    lo = std::min(lo, u);
    hi = std::max(hi, u);
  }
  CHECK(lo >= 0.0);
  CHECK(hi < 1.0);
  // Standard errors: 0.29 / sqrt(n) = 3e-4 for the mean; five of them as the margin.
  CHECK(sum / n == approx(0.5, 0, 1.5e-3));
  CHECK(sumSq / n - (sum / n) * (sum / n) == approx(1.0 / 12, 0, 1.5e-3));
}

TEST_CASE("normal draws have mean 0, sd 1 and normal tails", "[random]") {
  nw::Random random(5);
  const int n = 1000000;
  double sum = 0, sumSq = 0;
  int beyond2 = 0;
  for (int i = 0; i < n; ++i) {
    const double z = random.normal();
    sum += z;
    sumSq += z * z;
    beyond2 += std::fabs(z) > 2.0;
  }
  const double mean = sum / n;
  CHECK(mean == approx(0.0, 0, 5e-3));
  CHECK(std::sqrt(sumSq / n - mean * mean) == approx(1.0, 0, 5e-3));
  CHECK(beyond2 / double(n) == approx(0.0455, 0, 2e-3));  // P(|Z| > 2) = 0.0455
}
