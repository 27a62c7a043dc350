// Private to the core: rows two keys at a time (see vector_exp.hpp): every kernel's nearest distance,
// and the Gaussian kernel's row sums, with the same scores as rows::Gaussian up to the last bits of exp
// (every key goes through the vector exp).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "kernel_rows.hpp"
#include "vector_exp.hpp"

namespace nw::rows {

struct RowSums {
  double weightSum = 0.0;
  double weighted = 0.0;
  double absWeighted = 0.0;  // a lower bound of sum score_i |value_i|, set by the caller (the window's bound needs it)
};

// The smallest |query - key| over keys[begin, end), two at a time (finite keys: no NaN).
inline double nearestDistanceIn(double query, const double* keys, std::size_t begin, std::size_t end) {
  vec::f64x2 best = vec::splat(INFINITY);
  const vec::f64x2 q = vec::splat(query);
  std::size_t i = begin;
  for (; i + 2 <= end; i += 2) best = vec::min(best, vec::abs(q - vec::f64x2{keys[i], keys[i + 1]}));
  double result = best[0] < best[1] ? best[0] : best[1];
  for (; i < end; ++i) result = std::fmin(result, std::fabs(query - keys[i]));
  return result;
}

// A row's smallest distance skipping key `skip` (pass n to skip none): by bisection for sorted keys,
// else by a scan two keys at a time.
inline double nearestDistance(double query, const double* keys, std::size_t n, std::size_t skip, bool sorted) {
  if (sorted) return sortedNearestDistance(query, keys, n, skip);
  if (skip >= n) return nearestDistanceIn(query, keys, 0, n);
  return std::fmin(nearestDistanceIn(query, keys, 0, skip), nearestDistanceIn(query, keys, skip + 1, n));
}

// The exponent t beyond which a key's score is below 2^-60 / n of the nearest key's (t > 2 (60 ln 2 +
// ln n)): those keys together weigh less than 2^-60 of the row, which holds the nearest key's score of 1.
inline double windowExponent(std::size_t n) {
  return 2.0 * (60.0 * 0.693147180559945309 + std::log(static_cast<double>(n)));
}

// The exponent beyond which the vector exp gives exactly 0 (a little above -2 * kExpUnderflow, so that
// rounding in t cannot let a key just outside score 2^-1074): keys farther than that change no sum.
inline constexpr double kZeroScoreExponent = -2.0 * vec::kExpUnderflow + 0.01;

// The sorted keys within exponent tMax of the query: every key outside has t > tMax.
inline KeyRange gaussianWindow(double query, const double* keys, std::size_t n, double dMin, double w,
                               double tMax) {
  // |query - key| <= sqrt(dMin^2 + tMax / w^2): hypot, because dMin^2 and w^2 may overflow or
  // underflow where the reach itself does not.
  return keysWithin(query, keys, n, std::hypot(dMin, std::sqrt(tMax) / std::fabs(w)));
}

// The sorted keys whose weights together reach all but 2^-60 of the row's (windowExponent).
inline KeyRange gaussianWindow(double query, const double* keys, std::size_t n, double dMin, double w) {
  return gaussianWindow(query, keys, n, dMin, w, windowExponent(n));
}

namespace detail {

// The exponent t = ((d - dMin) w)(d w + dMin w) of two keys, as Gaussian::exponent (loWeighted = dMin w),
// exactly 0 for the nearest key. Unless Finite (d w + dMin w is known finite), the nearest key's lanes
// are masked to 0, since the second factor may be infinite there.
template <bool Finite>
inline vec::f64x2 exponentPair(vec::f64x2 q, vec::f64x2 k, vec::f64x2 lo, vec::f64x2 loWeighted, vec::f64x2 w) {
  const vec::f64x2 dist = vec::abs(q - k);
  const vec::f64x2 product = ((dist - lo) * w) * (dist * w + loWeighted);
  if constexpr (Finite) return product;  // 0 * finite: +-0, which scores 1 as +0 does
  return (vec::f64x2)((vec::i64x2)product & (vec::i64x2)(dist != lo));  // vector casts keep the bits
}

}  // namespace detail

// One key's score exp(-t/2) through the same vector exp as addGaussianRow's other keys, so that a
// single key's score (the heatmap's block cells) equals the one its row was summed with, bit for bit.
inline double gaussianScore(double dist, double dMin, double w) {
  return vec::expNonPositive(vec::splat(-0.5 * Gaussian::exponent(dist, dMin, w)))[0];
}

// Whether every key of keys[begin, end) has a finite d w + dMin w and an exponent t with e^(-t/2) a normal
// double (see vec::expNormal), so that addGaussianRow may skip the exp's underflow handling and the
// nearest key's mask. Over sorted keys both grow with the distance on each side of the query, and
// rounding keeps that order, so the range's two ends bound the rest; over unsorted keys, no.
inline bool scoresAreNormal(double query, const double* keys, std::size_t begin, std::size_t end, double dMin,
                            double w, bool sorted) {
  if (!sorted || begin >= end) return false;
  for (const double key : {keys[begin], keys[end - 1]}) {
    const double dist = std::fabs(query - key);
    if (!(std::fabs(dist * w + dMin * w) < INFINITY)) return false;
    if (!(Gaussian::exponent(dist, dMin, w) <= -2.0 * vec::kNormalExpFloor)) return false;
  }
  return true;
}

namespace detail {

template <bool Normal>
void addGaussianRow(double query, const double* keys, const double* values, std::size_t begin, std::size_t end,
                    double dMin, double w, double valueScale, RowSums& sums, double* scores, double* exponents) {
  using vec::f64x2;
  using vec::splat;
  const f64x2 q = splat(query), lo = splat(dMin), loWeighted = splat(dMin * w), wv = splat(w);
  const f64x2 scale = splat(valueScale), half = splat(-0.5);
  const auto exp = [](f64x2 x) { return Normal ? vec::expNormal(x) : vec::expNonPositive(x); };
  f64x2 weightSum = splat(0.0), weighted = splat(0.0);
  std::size_t i = begin;
  for (; i + 4 <= end; i += 4) {
    const f64x2 t0 = exponentPair<Normal>(q, f64x2{keys[i], keys[i + 1]}, lo, loWeighted, wv);
    const f64x2 t1 = exponentPair<Normal>(q, f64x2{keys[i + 2], keys[i + 3]}, lo, loWeighted, wv);
    const f64x2 s0 = exp(half * t0);
    const f64x2 s1 = exp(half * t1);
    weightSum += s0 + s1;
    const f64x2 v0 = f64x2{values[i], values[i + 1]} * scale, v1 = f64x2{values[i + 2], values[i + 3]} * scale;
    weighted += s0 * v0 + s1 * v1;
    if (scores) {
      scores[i] = s0[0];
      scores[i + 1] = s0[1];
      scores[i + 2] = s1[0];
      scores[i + 3] = s1[1];
      exponents[i] = t0[0];
      exponents[i + 1] = t0[1];
      exponents[i + 2] = t1[0];
      exponents[i + 3] = t1[1];
    }
  }
  sums.weightSum += weightSum[0] + weightSum[1];
  sums.weighted += weighted[0] + weighted[1];
  for (; i < end; ++i) {
    const double dist = std::fabs(query - keys[i]);
    const double t = Gaussian::exponent(dist, dMin, w);
    const double score = gaussianScore(dist, dMin, w);
    sums.weightSum += score;
    sums.weighted += score * (values[i] * valueScale);
    if (scores) {
      scores[i] = score;
      exponents[i] = t;
    }
  }
}

}  // namespace detail

// Adds, for keys[begin, end), score_i and score_i * values_i * valueScale to `sums`. If `scores` and
// `exponents` are given, each key's score and exponent t_i are stored there too. Needs w != 0 (at w = 0
// every score is 1, and an infinite distance would give 0 * inf here). Four keys per iteration, as two
// independent vectors, so that the two exp polynomials overlap. Sorted keys whose scores are all normal
// doubles (scoresAreNormal: every row's window at the usual bandwidths) take a shorter loop with the
// same results.
inline void addGaussianRow(double query, const double* keys, bool sorted, const double* values, std::size_t begin,
                           std::size_t end, double dMin, double w, double valueScale, RowSums& sums,
                           double* scores = nullptr, double* exponents = nullptr) {
  if (scoresAreNormal(query, keys, begin, end, dMin, w, sorted)) {
    detail::addGaussianRow<true>(query, keys, values, begin, end, dMin, w, valueScale, sums, scores, exponents);
  } else {
    detail::addGaussianRow<false>(query, keys, values, begin, end, dMin, w, valueScale, sums, scores, exponents);
  }
}

// One row of the Gaussian training loss: training point j (of n sorted or unsorted keys) as the query,
// skipping its own key when leaveOneOut (skip is then j, else n); its sums and the keys it visited.
struct TrainingRow {
  RowSums sums;
  KeyRange window;
  std::size_t skip = 0;
};

inline TrainingRow gaussianTrainingRow(const double* x, const double* y, std::size_t n, std::size_t j, double w,
                                       bool leaveOneOut, bool sorted, double* scores = nullptr,
                                       double* exponents = nullptr) {
  TrainingRow row;
  row.skip = leaveOneOut ? j : n;
  const double dMin = nearestDistance(x[j], x, n, row.skip, sorted);
  row.window = sorted ? gaussianWindow(x[j], x, n, dMin, w) : KeyRange{0, n};
  const KeyRange window = row.window;
  addGaussianRow(x[j], x, sorted, y, window.begin, std::clamp(row.skip, window.begin, window.end), dMin, w, 1.0,
                 row.sums, scores, exponents);
  if (row.skip < window.end) {
    addGaussianRow(x[j], x, sorted, y, std::max(row.skip + 1, window.begin), window.end, dMin, w, 1.0, row.sums,
                   scores, exponents);
  }
  return row;
}

}  // namespace nw::rows
