// Private to the core (binned.cpp's bounds): the Gaussian K(u) = exp(-u^2 / 2), the slope kernel u^2 K,
// and envelopes of their derivatives' magnitudes over an interval of |u|, which bound the error of
// binning keys onto a grid and of interpolating between grid points.
#pragma once

#include <algorithm>
#include <cmath>

namespace nw::envelopes {

inline double gaussian(double u) { return std::exp(-0.5 * u * u); }

// |K''(u)| = |u^2 - 1| exp(-u^2 / 2).
inline double secondDerivativeMagnitude(double u) { return std::fabs(u * u - 1.0) * gaussian(u); }

// max |K''(u)| over |u| in [center - margin, center + margin] (center >= 0): at an end, or at the
// interior extremes u = 0 (value 1) and u = sqrt 3 (2 exp(-3/2)).
inline double secondDerivativeEnvelope(double center, double margin) {
  const double a = std::max(0.0, center - margin), b = center + margin;
  double best = std::max(secondDerivativeMagnitude(a), secondDerivativeMagnitude(b));
  const double root3 = std::sqrt(3.0);
  if (a < root3 && root3 < b) best = std::max(best, secondDerivativeMagnitude(root3));
  return best;
}

// The slope's kernel u^2 K(u) (w dK/dw = -u^2 K), whose second derivative is (u^4 - 5 u^2 + 2) K(u).
inline double slopeKernel(double u) { return u * u * gaussian(u); }

inline double slopeSecondDerivativeMagnitude(double u) {
  const double u2 = u * u;
  return std::fabs((u2 - 5.0) * u2 + 2.0) * gaussian(u);
}

// max |(u^2 K)''| over |u| in [center - margin, center + margin]: at an end, or at an interior extreme,
// u = 0 or u^2 = (9 -+ sqrt 33) / 2, the roots of its derivative -u (u^4 - 9 u^2 + 12) K(u).
inline double slopeSecondDerivativeEnvelope(double center, double margin) {
  const double a = std::max(0.0, center - margin), b = center + margin;
  double best = std::max(slopeSecondDerivativeMagnitude(a), slopeSecondDerivativeMagnitude(b));
  for (double extreme : {0.0, std::sqrt(0.5 * (9.0 - std::sqrt(33.0))), std::sqrt(0.5 * (9.0 + std::sqrt(33.0)))}) {
    if (a <= extreme && extreme <= b) best = std::max(best, slopeSecondDerivativeMagnitude(extreme));
  }
  return best;
}

// |K''''(u)| = |u^4 - 6 u^2 + 3| K(u) (K's derivatives are Hermite polynomials times K); 0 where K(u)
// underflows, so that u^4 never overflows into infinity times 0.
inline double fourthDerivativeMagnitude(double u) {
  if (!(u < 40.0)) return 0.0;
  const double u2 = u * u;
  return std::fabs((u2 - 6.0) * u2 + 3.0) * gaussian(u);
}

// The interior extremes of |K''''| for u >= 0: u = 0 (value 3) and u^2 = 5 -+ sqrt 10, the roots of its
// derivative -u (u^4 - 10 u^2 + 15) K(u).
inline const double kFourthDerivativeExtremes[] = {0.0, std::sqrt(5.0 - std::sqrt(10.0)), std::sqrt(5.0 + std::sqrt(10.0))};

// max |K''''(u)| over |u| in [center - margin, center + margin] (center >= 0).
inline double fourthDerivativeEnvelope(double center, double margin) {
  const double a = std::max(0.0, center - margin), b = center + margin;
  double best = std::max(fourthDerivativeMagnitude(a), fourthDerivativeMagnitude(b));
  for (double extreme : kFourthDerivativeExtremes) {
    if (a <= extreme && extreme <= b) best = std::max(best, fourthDerivativeMagnitude(extreme));
  }
  return best;
}

// sup |K''''(u)| over |u| >= from (from >= 0): beyond its last extreme K'''' falls to 0.
inline double fourthDerivativeBeyond(double from) {
  double best = fourthDerivativeMagnitude(std::max(0.0, from));
  for (double extreme : kFourthDerivativeExtremes) {
    if (extreme >= from) best = std::max(best, fourthDerivativeMagnitude(extreme));
  }
  return best;
}

}  // namespace nw::envelopes
