// Deterministic elementary functions: polynomial kernels over exact range reductions.
// Compiled with -ffp-contract=off so no compiler fuses a*b+c differently on another target.
#include "nw/portable_math.hpp"

#include <cmath>
#include <limits>

namespace nw::portable {
namespace {

// ln 2 split so that k * kLn2Hi is exact for |k| < 2^11 (fdlibm's constants).
constexpr double kLn2Hi = 6.93147180369123816490e-01;
constexpr double kLn2Lo = 1.90821492927058770002e-10;
constexpr double kInvLn2 = 1.44269504088896338700e+00;
constexpr double kSqrtHalf = 0.70710678118654752440;

// pi/2 split in three 33-bit parts (fdlibm): k * part is exact for |k| < 2^20.
constexpr double kPio2Part1 = 1.57079632673412561417e+00;
constexpr double kPio2Part2 = 6.07710050650619224932e-11;
constexpr double kPio2Part3 = 2.02226624879595063154e-21;
constexpr double kTwoOverPi = 6.36619772367581382433e-01;

// sin and cos of |r| <= pi/4 by their Taylor series (terms past these are below 2^-60 relative).
double sinKernel(double r) {
  const double z = r * r;
  double p = -1.0 / 1307674368000.0;               // -1/15!
  p = p * z + 1.0 / 6227020800.0;                  // 1/13!
  p = p * z - 1.0 / 39916800.0;                    // -1/11!
  p = p * z + 1.0 / 362880.0;                      // 1/9!
  p = p * z - 1.0 / 5040.0;                        // -1/7!
  p = p * z + 1.0 / 120.0;                         // 1/5!
  p = p * z - 1.0 / 6.0;                           // -1/3!
  return r + r * z * p;
}

double cosKernel(double r) {
  const double z = r * r;
  double p = 1.0 / 20922789888000.0;               // 1/16!
  p = p * z - 1.0 / 87178291200.0;                 // -1/14!
  p = p * z + 1.0 / 479001600.0;                   // 1/12!
  p = p * z - 1.0 / 3628800.0;                     // -1/10!
  p = p * z + 1.0 / 40320.0;                       // 1/8!
  p = p * z - 1.0 / 720.0;                         // -1/6!
  p = p * z + 1.0 / 24.0;                          // 1/4!
  const double half = 0.5 * z;
  return (1.0 - half) + (z * z * p);
}

}  // namespace

double log(double x) {
  if (!(x > 0.0)) return x == 0.0 ? -std::numeric_limits<double>::infinity()
                                  : std::numeric_limits<double>::quiet_NaN();
  if (std::isinf(x)) return x;
  int e = 0;
  double m = std::frexp(x, &e);  // exact: x = m 2^e, m in [0.5, 1)
  if (m < kSqrtHalf) {
    m *= 2.0;
    --e;
  }
  // log m = 2 atanh(s) with s = (m - 1) / (m + 1), |s| <= 0.1716; m - 1 is exact (Sterbenz).
  const double f = m - 1.0;
  const double s = f / (2.0 + f);
  const double z = s * s;
  double p = 1.0 / 25.0;
  for (int k = 23; k >= 3; k -= 2) p = p * z + 1.0 / k;
  const double logM = 2.0 * s + 2.0 * s * z * p;
  return e * kLn2Hi + (e * kLn2Lo + logM);
}

double exp(double x) {
  if (std::isnan(x)) return x;
  if (x > 709.782712893384) return std::numeric_limits<double>::infinity();
  if (x < -745.1332191019412) return 0.0;
  const double k = std::nearbyint(x * kInvLn2);
  const double r = (x - k * kLn2Hi) - k * kLn2Lo;  // |r| <= 0.35
  double p = 1.0;
  for (int n = 14; n >= 1; --n) p = 1.0 + p * r / n;
  return std::ldexp(p, static_cast<int>(k));
}

double pow(double x, double y) {
  if (x == 0.0) return y > 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
  if (x == 1.0 || y == 0.0) return 1.0;
  return exp(y * log(x));
}

double sin(double x) {
  if (!std::isfinite(x)) return std::numeric_limits<double>::quiet_NaN();
  const double k = std::nearbyint(x * kTwoOverPi);
  const double r = ((x - k * kPio2Part1) - k * kPio2Part2) - k * kPio2Part3;
  switch (static_cast<long long>(k) & 3) {
    case 0: return sinKernel(r);
    case 1: return cosKernel(r);
    case 2: return -sinKernel(r);
    default: return -cosKernel(r);
  }
}

}  // namespace nw::portable
