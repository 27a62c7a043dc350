#include <cmath>
#include <limits>

#include "approx.hpp"
#include "nw/portable_math.hpp"
#include "nw/random.hpp"

namespace {
// Distance in units in the last place.
double ulps(double actual, double expected) {
  return std::fabs(actual - expected) / (std::nextafter(std::fabs(expected), INFINITY) - std::fabs(expected));
}
}  // namespace

TEST_CASE("portable functions agree with the C library to a few ulp", "[portable_math]") {
  nw::Random random(7);
  double worstLog = 0, worstExp = 0, worstSin = 0, worstPow = 0;
  for (int i = 0; i < 200000; ++i) {
    const double u = random.uniform();
    const double x = std::ldexp(0.5 + u, static_cast<int>(random.nextBits() % 200) - 100);
    worstLog = std::max(worstLog, ulps(nw::portable::log(x), std::log(x)));
    const double e = 1400.0 * u - 700.0;
    worstExp = std::max(worstExp, ulps(nw::portable::exp(e), std::exp(e)));
    const double s = 20.0 * random.uniform() - 10.0;
    if (std::fabs(std::sin(s)) > 1e-3) worstSin = std::max(worstSin, ulps(nw::portable::sin(s), std::sin(s)));
    const double p = 1000.0 * u;
    if (p > 0) worstPow = std::max(worstPow, ulps(nw::portable::pow(p, 0.8), std::pow(p, 0.8)));
  }
  CHECK(worstLog <= 2.0);
  CHECK(worstExp <= 4.0);
  CHECK(worstSin <= 2.0);
  CHECK(worstPow <= 8.0);
}

TEST_CASE("portable functions handle the edges of their domains", "[portable_math]") {
  using nw::portable::exp;
  using nw::portable::log;
  using nw::portable::pow;
  using nw::portable::sin;
  CHECK(log(1.0) == 0.0);
  CHECK(std::isinf(log(0.0)));
  CHECK(log(0.0) < 0);
  CHECK(std::isnan(log(-1.0)));
  CHECK(exp(0.0) == 1.0);
  CHECK(std::isinf(exp(800.0)));
  CHECK(exp(-800.0) == 0.0);
  CHECK(exp(-740.0) > 0.0);  // subnormal, not flushed
  CHECK(pow(0.0, 0.8) == 0.0);
  CHECK(pow(1.0, 0.8) == 1.0);
  CHECK(sin(0.0) == 0.0);
  CHECK(sin(M_PI / 2) == 1.0);
  CHECK(sin(1e6) == approx(std::sin(1e6), 1e-12));
  CHECK(std::isnan(sin(std::numeric_limits<double>::infinity())));
}
