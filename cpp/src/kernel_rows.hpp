// Private to the core: one query's scores over its keys for each kernel, written so that no w and no
// distance gives NaN. A "row" is a query with its smallest key distance dMin (and, for compact kernels,
// whether any key lies inside the support at all).
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "nw/kernel.hpp"

namespace nw::rows {

// The smallest |query - key| over keys, skipping index `skip` (pass keys.size() to skip none).
inline double nearestDistance(double query, const std::vector<double>& keys, std::size_t skip) {
  double best = INFINITY;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i == skip) continue;
    const double d = std::fabs(query - keys[i]);
    if (d < best) best = d;
  }
  return best;
}

// Each policy gives, for a key at distance `dist` = |q - k| in a row with smallest distance dMin:
//   score: K up to a factor common to the row (the nearest key always scores exactly 1, so a row's sum
//          is >= 1 and never 0/0);
//   slopeTimesW: w dK/dw, in the same units as score (finite for every input; divided by w only once,
//          at the end of a gradient).
// A compact kernel whose support holds no key "falls back": the nearest key (ties shared) gets it all.
struct Gaussian {
  static constexpr bool compact = false;
  // t = w^2 (d^2 - dMin^2) >= 0, formed as ((d - dMin) w)((d + dMin) w): never inf - inf or 0 * inf.
  static double exponent(double dist, double dMin, double w) {
    if (dist == dMin || w == 0.0) return 0.0;
    return ((dist - dMin) * w) * ((dist + dMin) * w);
  }
  static double score(double dist, double dMin, double w) { return std::exp(-0.5 * exponent(dist, dMin, w)); }
  // d/dw of the shifted log-score is -t/w; the shift is common to the row, so it cancels in df/dw.
  static double slopeTimesW(double dist, double dMin, double w, double score) {
    return -exponent(dist, dMin, w) * score;
  }
};

struct Constant {
  static constexpr bool compact = false;
  static double score(double, double, double) { return 1.0; }
  static double slopeTimesW(double, double, double, double) { return 0.0; }
};

// |d| = dist |w|, with w = 0 meaning d = 0 even for an infinite distance.
inline double scaled(double dist, double w) { return w == 0.0 ? 0.0 : dist * std::fabs(w); }

struct Boxcar {
  static constexpr bool compact = true;
  static double score(double dist, double, double w) { return scaled(dist, w) < 1.0 ? 1.0 : 0.0; }
  static double slopeTimesW(double, double, double, double) { return 0.0; }
};

struct Epanechnikov {
  static constexpr bool compact = true;
  static double score(double dist, double, double w) {
    const double d = scaled(dist, w);
    return d < 1.0 ? 1.0 - d * d : 0.0;
  }
  // K = 1 - w^2 dist^2 inside the support: w dK/dw = -2 d^2.
  static double slopeTimesW(double dist, double, double w, double score) {
    const double d = scaled(dist, w);
    return score > 0.0 ? -2.0 * d * d : 0.0;
  }
};

struct Triangular {
  static constexpr bool compact = true;
  static double score(double dist, double, double w) {
    const double d = scaled(dist, w);
    return d < 1.0 ? 1.0 - d : 0.0;
  }
  // K = 1 - |w| dist inside the support: w dK/dw = -|d|.
  static double slopeTimesW(double dist, double, double w, double score) {
    return score > 0.0 ? -scaled(dist, w) : 0.0;
  }
};

// A compact kernel's row with no key inside its support (|d| < 1 for the nearest key fails).
template <class Policy>
bool fallsBack(double dMin, double w) {
  if constexpr (Policy::compact) {
    return !(scaled(dMin, w) < 1.0);
  } else {
    return false;
  }
}

// The score with the fallback applied: in a fallen-back row only the nearest keys count.
template <class Policy>
double rowScore(double dist, double dMin, double w, bool fallback) {
  if (fallback) return dist == dMin ? 1.0 : 0.0;
  return Policy::score(dist, dMin, w);
}

// Calls body(Policy{}) with the policy of `kernel`.
template <class Body>
decltype(auto) withKernel(Kernel kernel, Body&& body) {
  switch (kernel) {
    case Kernel::boxcar: return body(Boxcar{});
    case Kernel::constant: return body(Constant{});
    case Kernel::epanechnikov: return body(Epanechnikov{});
    case Kernel::triangular: return body(Triangular{});
    case Kernel::gaussian: break;
  }
  return body(Gaussian{});
}

}  // namespace nw::rows
