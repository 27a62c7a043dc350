// Private to the core: one query's scores over its keys for each kernel, written so that no w and no
// distance gives NaN. A "row" is a query with its smallest key distance dMin (and, for compact kernels,
// whether any key lies inside the support at all).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "nw/kernel.hpp"

namespace nw::rows {

// The first index i of sorted keys[0, n) with !before(keys[i]) (std::partition_point), searched outward
// from `hint` in steps that double: the same index, in O(log(distance from the hint)), for rows whose
// answers lie close together (the sorted training rows one after another).
template <class Before>
std::size_t partitionNear(const double* keys, std::size_t n, std::size_t hint, Before before) {
  std::size_t lo = 0, hi = n;  // the answer lies in [lo, hi]
  hint = std::min(hint, n);
  if (hint < n && before(keys[hint])) {
    lo = hint + 1;
    for (std::size_t step = 1, probe = lo; probe < n; step <<= 1, probe = lo + step - 1) {
      if (!before(keys[probe])) {
        hi = probe;
        break;
      }
      lo = probe + 1;
    }
  } else {
    hi = hint;
    for (std::size_t step = 1; hi > 0; step <<= 1) {
      const std::size_t probe = hi >= step ? hi - step : 0;
      if (before(keys[probe])) {
        lo = probe + 1;
        break;
      }
      hi = probe;
    }
  }
  return static_cast<std::size_t>(std::partition_point(keys + lo, keys + hi, before) - keys);
}

// Where a row's searches ended, for the next row's to start from (rows of sorted queries in order), and
// what rows over the same keys can share (a window's exponent, once known: negative until then).
struct SortedHint {
  std::size_t insertion = 0, begin = 0, end = 0;
  double windowExponent = -1.0;
};

// std::lower_bound(keys, keys + n, value), from `hint` when one is given.
inline std::size_t lowerBound(const double* keys, std::size_t n, double value, const std::size_t* hint) {
  if (!hint) return static_cast<std::size_t>(std::lower_bound(keys, keys + n, value) - keys);
  return partitionNear(keys, n, *hint, [value](double key) { return key < value; });
}

// std::upper_bound(keys, keys + n, value), from `hint` when one is given.
inline std::size_t upperBound(const double* keys, std::size_t n, double value, const std::size_t* hint) {
  if (!hint) return static_cast<std::size_t>(std::upper_bound(keys, keys + n, value) - keys);
  return partitionNear(keys, n, *hint, [value](double key) { return !(value < key); });
}

// The smallest |query - key| for sorted keys, by bisection: the nearest key other than `skip` (n for
// none) is one of the two on each side of the query's insertion point. With a hint, the search starts
// from it and leaves the insertion point there.
inline double sortedNearestDistance(double query, const double* keys, std::size_t n, std::size_t skip,
                                    SortedHint* hint = nullptr) {
  const std::size_t p = lowerBound(keys, n, query, hint ? &hint->insertion : nullptr);
  if (hint) hint->insertion = p;
  double best = INFINITY;
  for (std::size_t i : {p - 2, p - 1, p, p + 1}) {  // indices below 0 wrap around to >= n
    if (i < n && i != skip) best = std::fmin(best, std::fabs(query - keys[i]));
  }
  return best;
}

struct KeyRange {
  std::size_t begin = 0, end = 0;
};

// The sorted keys [begin, end) within `reach` of the query, the reach widened so that rounding drops
// no key inside; the keys next to the query's insertion point (its nearest, skipped one or not) are
// always in. An infinite reach (or NaN) gives every key. With a hint (the same query's insertion point
// already found by sortedNearestDistance), the searches start from it and leave their ends there.
inline KeyRange keysWithin(double query, const double* keys, std::size_t n, double reach, SortedHint* hint = nullptr) {
  reach *= 1.0 + 0x1p-40;
  if (!(reach < INFINITY)) return {0, n};
  const std::size_t p = hint ? hint->insertion : lowerBound(keys, n, query, nullptr);
  const std::size_t begin = lowerBound(keys, n, query - reach, hint ? &hint->begin : nullptr);
  const std::size_t end = upperBound(keys, n, query + reach, hint ? &hint->end : nullptr);
  if (hint) hint->begin = begin, hint->end = end;
  return {std::min(begin, p < 2 ? 0 : p - 2), std::max(end, std::min(p + 2, n))};
}

// Each policy gives, for a key at distance `dist` = |q - k| in a row with smallest distance dMin:
//   score: K up to a factor common to the row (the nearest key always scores exactly 1, so a row's sum
//          is >= 1 and never 0/0);
//   slopeTimesW: w dK/dw, in the same units as score (finite for every input; divided by w only once,
//          at the end of a gradient).
// A compact kernel whose support holds no key "falls back": the nearest key (ties shared) gets it all.
struct Gaussian {
  static constexpr bool compact = false;
  // t = w^2 (d^2 - dMin^2) >= 0, formed as ((d - dMin) w)(d w + dMin w): never inf - inf or 0 * inf,
  // and d + dMin is never formed, since it overflows for keys near 1e308 when (d + dMin) w need not.
  static double exponent(double dist, double dMin, double w) {
    if (dist == dMin || w == 0.0) return 0.0;
    return ((dist - dMin) * w) * (dist * w + dMin * w);
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

// The sorted keys with a nonzero score in a row: for a compact kernel those within its support
// (|d| < 1), or at the nearest distance when the row falls back; every key outside scores exactly 0,
// so leaving them out changes no sum. Other kernels need every key.
template <class Policy>
KeyRange scoringKeys(double query, const double* keys, std::size_t n, double dMin, double w, bool fallback) {
  if constexpr (Policy::compact) {
    return keysWithin(query, keys, n, fallback ? dMin : 1.0 / std::fabs(w));
  } else {
    return {0, n};
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
