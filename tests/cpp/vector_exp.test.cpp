// The core's private vector exp (cpp/src/vector_exp.hpp) against long double expl.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "../../cpp/src/gaussian_rows.hpp"
#include "../../cpp/src/vector_exp.hpp"

namespace {

double vectorExp(double x) { return nw::vec::expNonPositive(nw::vec::splat(x))[0]; }

// |a - b| in units of b's last place (b normal and positive).
double ulps(double a, long double exact) {
  const double b = static_cast<double>(exact);
  return static_cast<double>(std::fabs(static_cast<long double>(a) - exact)) / (std::nextafter(b, INFINITY) - b);
}

// A subnormal expected value, within one step of 2^-1074.
Approx approxSubnormal(long double exact) { return Approx(static_cast<double>(exact)).epsilon(0).margin(0x1p-1074); }

}  // namespace

TEST_CASE("the vector exp is within 1.5 ulp down to -708 and 0 below -745.2", "[vector_exp]") {
  CHECK(vectorExp(0.0) == 1.0);  // the nearest key's score must be exactly 1
  CHECK(vectorExp(-0.0) == 1.0);
  std::vector<double> xs = {-1e-300, -1e-17, -5e-324, -0.00542, -0.0054, -std::log(2.0), -1.0, -41.5, -700.0, -708.0};
  // A dense sweep with irregular steps, so every table entry and both ends of r's range are met.
  for (double x = 0.0; x > -708.0; x -= 0.0009765625 * 3.1) xs.push_back(x);
  double worst = 0.0;
  for (double x : xs) {
    const double ulp = ulps(vectorExp(x), std::exp(static_cast<long double>(x)));
    worst = std::max(worst, ulp);
    if (ulp > 1.5) FAIL_CHECK("e^" << x << " is off by " << ulp << " ulp");
  }
  INFO("worst error " << worst << " ulp over " << xs.size() << " inputs");
  CHECK(worst < 1.5);
  for (double x : {-745.2, -1000.0, -1e300, -std::numeric_limits<double>::infinity()}) CHECK(vectorExp(x) == 0.0);
  // Both lanes are computed independently.
  const nw::vec::f64x2 two = nw::vec::expNonPositive(nw::vec::f64x2{-1.0, -2.0});
  CHECK(two[0] == vectorExp(-1.0));
  CHECK(two[1] == vectorExp(-2.0));
}

TEST_CASE("the vector exp is right in the subnormal range and 0 only where the exact value rounds near 0", "[vector_exp]") {
  // Below -708.4 the exact value is subnormal: within 1.5 steps of 2^-1074 of expl's.
  double worst = 0.0;
  for (double x = -708.4; x >= -745.13; x -= 0.00123) {
    const long double exact = std::exp(static_cast<long double>(x));
    worst = std::max(worst, static_cast<double>(std::fabs(vectorExp(x) - exact) / 0x1p-1074L));
  }
  INFO("worst error " << worst << " subnormal steps");
  CHECK(worst <= 1.5);
  SECTION("known values") {
    CHECK(vectorExp(-720.0) == approxSubnormal(std::exp(-720.0L)));
    CHECK(vectorExp(-740.0) == approxSubnormal(std::exp(-740.0L)));
    CHECK(vectorExp(-745.13) == 0x1p-1074);  // exact: 1.0032 * 2^-1075
  }
  SECTION("exactly 0 below -745.13, where the exact value is at most 1.0033 * 2^-1075") {
    CHECK(vectorExp(-745.131) == 0.0);
    CHECK(vectorExp(-746.0) == 0.0);
  }
}

TEST_CASE("each table entry is the double nearest 2^(j/256)", "[vector_exp]") {
  for (int j = 0; j < 256; ++j) {
    const long double exact = std::exp2(static_cast<long double>(j) / 256.0L);
    // long double's exp2 is some 2^-11 ulp of a double off at most: a correctly rounded entry is within
    // half an ulp of it, give or take that.
    INFO("2^(" << j << "/256)");
    CHECK(ulps(nw::vec::kExp2Table[j], exact) <= 0.5 + 0x1p-8);
  }
}

TEST_CASE("the normal-range exp gives the full exp's bits wherever e^x is normal", "[vector_exp]") {
  std::size_t differing = 0, count = 0;
  for (double x = 0.0; x >= nw::vec::kNormalExpFloor; x -= 0.0009765625 * 1.7) {
    const nw::vec::f64x2 pair = {x, x * 0.999};
    const nw::vec::f64x2 normal = nw::vec::expNormal(pair), full = nw::vec::expNonPositive(pair);
    differing += (normal[0] != full[0]) + (normal[1] != full[1]);
    count += 2;
  }
  INFO(differing << " of " << count << " differ");
  CHECK(differing == 0);
  CHECK(nw::vec::expNormal(nw::vec::splat(-0.0))[0] == 1.0);  // the nearest key's exponent, unmasked
}

TEST_CASE("a row's log-scores: the square form where dMin |w| <= 1, within a few ulps of long double", "[vector_exp][window]") {
  using nw::rows::LogScores;
  CHECK(LogScores(0.02, 1.0).square);
  CHECK(LogScores(0.02, -50.0).square);
  CHECK_FALSE(LogScores(0.02, 100.0).square);  // dMin w = 2: the product form
  CHECK_FALSE(LogScores(0.0, 0x1p501).square);  // w^2 would overflow
  CHECK_FALSE(LogScores(0.0, 0x1p-501).square);  // w^2 / 2 would be subnormal
  CHECK_FALSE(LogScores(1e-160, 1e150).square);  // d^2 may be subnormal where w^2 is large
  CHECK(LogScores(1e-160, 0.5).square);            // (with |w| <= 1, x is then below any normal double)
  double worst = 0.0;
  for (double w : {1.0, -3.0, 10.0, 100.0, 1e-3}) {
    for (double dMin : {0.0, 1e-9, 0.004, 0.02, 0.3}) {
      const LogScores row(dMin, w);
      for (double dist = dMin; dist < dMin + 30.0 / std::fabs(w); dist = dist * 1.1 + 1e-4 / std::fabs(w)) {
        const long double dw = static_cast<long double>(dist) * w, lw = static_cast<long double>(dMin) * w;
        const long double exact = -(dw * dw - lw * lw) / 2;
        // Each form is within a few ulps of |x| + (dMin w)^2 (what its rounding scales with).
        const double error = static_cast<double>(std::fabs(row.at(dist) - exact) / ((std::fabs(exact) + lw * lw + 1e-300L) * 0x1p-53L));
        worst = std::max(worst, error);
      }
      CHECK(row.at(dMin) == 0.0);  // the nearest key scores exactly 1
    }
  }
  INFO("worst error " << worst << " ulps of |x| + (dMin w)^2");
  CHECK(worst <= 4.0);
}

TEST_CASE("sorted rows take the normal-range loop only where every score is normal", "[vector_exp][window]") {
  using nw::rows::LogScores;
  using nw::rows::scoresAreNormal;
  const std::vector<double> keys = {0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7};
  const double q = 0.32, dMin = 0.02;
  CHECK(scoresAreNormal(LogScores(dMin, 1.0), q, keys.data(), 0, keys.size(), true));
  CHECK_FALSE(scoresAreNormal(LogScores(dMin, 1.0), q, keys.data(), 0, keys.size(), false));  // unsorted
  // The product form at w = 100: the farthest key, 0.38 away, has x = -720 (subnormal); 0.28 away, -390.
  CHECK_FALSE(scoresAreNormal(LogScores(dMin, 100.0), q, keys.data(), 0, keys.size(), true));
  CHECK(scoresAreNormal(LogScores(dMin, 100.0), q, keys.data(), 0, 7, true));
  CHECK_FALSE(scoresAreNormal(LogScores(dMin, 1e300), q, keys.data(), 0, 7, true));  // t overflows
  CHECK_FALSE(scoresAreNormal(LogScores(1e300, 1e10), 1e300, keys.data(), 0, 7, true));  // so does d w + dMin w
  CHECK_FALSE(scoresAreNormal(LogScores(dMin, 1.0), q, keys.data(), 3, 3, true));  // empty
  // The square form: from 1.01, the key at 10 has x = -(8.99^2 - 0.01^2) * 12.5 (subnormal); at 0, -12.75.
  const std::vector<double> spread = {0.0, 1.0, 2.0, 10.0};
  const LogScores row(0.01, 5.0);
  CHECK(row.square);
  CHECK_FALSE(scoresAreNormal(row, 1.01, spread.data(), 0, 4, true));
  CHECK(scoresAreNormal(row, 1.01, spread.data(), 0, 3, true));
}
