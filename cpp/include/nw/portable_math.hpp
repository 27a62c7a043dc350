// Elementary functions built only from IEEE-exact operations, so data generated from a seed is
// bit-identical in every build (glibc and Emscripten's musl disagree in the last bit of sin, pow, log, exp).
#pragma once

namespace nw::portable {

// Natural logarithm for finite x > 0 (about 1 ulp).
double log(double x);
// e^x; overflows to +inf and underflows to 0 like std::exp (about 1 ulp for |x| < 700).
double exp(double x);
// x^y for x >= 0 (0^y = 0 for y > 0), computed as exp(y log x).
double pow(double x, double y);
// sin x; accurate for |x| <= kSinMaxArgument, where the three-part reduction by pi/2 is exact.
double sin(double x);

inline constexpr double kSinMaxArgument = 1.0e6;

}  // namespace nw::portable
