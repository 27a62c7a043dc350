// Private to the core: rows two keys at a time (see vector_exp.hpp): every kernel's nearest distance,
// and the Gaussian kernel's row sums, with the same scores as rows::Gaussian up to their last bits (every
// key goes through the vector exp, and its exponent may be written another way: LogScores).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <type_traits>

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
inline double nearestDistance(double query, const double* keys, std::size_t n, std::size_t skip, bool sorted,
                              SortedHint* hint = nullptr) {
  if (sorted) return sortedNearestDistance(query, keys, n, skip, hint);
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
                               double tMax, SortedHint* hint = nullptr) {
  // |query - key| <= sqrt(dMin^2 + tMax / w^2): hypot, because dMin^2 and w^2 may overflow or
  // underflow where the reach itself does not.
  return keysWithin(query, keys, n, std::hypot(dMin, std::sqrt(tMax) / std::fabs(w)), hint);
}

// The sorted keys whose weights together reach all but 2^-60 of the row's (windowExponent).
inline KeyRange gaussianWindow(double query, const double* keys, std::size_t n, double dMin, double w) {
  return gaussianWindow(query, keys, n, dMin, w, windowExponent(n));
}

// A row's log-scores x = -t/2 = -((d w)^2 - (dMin w)^2)/2 (d = |query - key|), in one of two forms that
// the row's dMin and w choose, so that every key's score, in either loop of addGaussianRow or alone
// (score), is computed the same way, bit for bit:
// - square, (d^2 - dMin^2)(-w^2/2): 4 vector operations a key. Its error, a few ulps of |x| + (dMin w)^2,
//   is as small as the product form's where dMin |w| <= 1 (a query within 1/|w| of a key: every row of
//   the chapter's data), 2^-500 <= |w| <= 2^500 keeps -w^2/2 normal, and, for |w| > 1, dMin >= 2^-511
//   keeps every d^2 normal: a subnormal d^2 (d near 1e-160) times a large w^2 would have lost all but a
//   few bits of x (and the gradient, which uses x, its sign), where the product form's d w is normal.
// - product, -((d - dMin) w)(d w + dMin w)/2 (Gaussian::exponent): 8 vector operations, within a few
//   ulps of x whatever dMin w is (a query far from every key), with no w^2 to overflow.
struct LogScores {
  double dMin, w;
  bool square;
  double dMinSquared, minusHalfWSquared;  // the square form's

  LogScores(double dMin, double w)
      : dMin(dMin),
        w(w),
        square(std::fabs(w) >= 0x1p-500 && std::fabs(w) <= 0x1p500 && dMin * std::fabs(w) <= 1.0 &&
               (std::fabs(w) <= 1.0 || dMin >= 0x1p-511)),
        dMinSquared(dMin * dMin),
        minusHalfWSquared(-0.5 * (w * w)) {}

  // x for one key, with the same operations as a vector lane.
  double at(double dist) const {
    return square ? (dist * dist - dMinSquared) * minusHalfWSquared : -0.5 * Gaussian::exponent(dist, dMin, w);
  }
  double score(double dist) const { return vec::expNonPositive(vec::splat(at(dist)))[0]; }
};

namespace detail {

// x for two keys in the row's form. The product form's nearest key gets 0 from a mask, as
// Gaussian::exponent does, since its d w + dMin w may be infinite; with Finite (known finite) the mask
// is skipped (0 times a finite number is +-0, which scores 1 as +0 does).
template <bool Square, bool Finite>
inline vec::f64x2 logScorePair(const LogScores& row, vec::f64x2 q, vec::f64x2 k) {
  using vec::splat;
  if constexpr (Square) {
    const vec::f64x2 u = q - k;  // u^2 = d^2, bit for bit
    return (u * u - splat(row.dMinSquared)) * splat(row.minusHalfWSquared);
  } else {
    const vec::f64x2 dist = vec::abs(q - k), lo = splat(row.dMin), w = splat(row.w);
    const vec::f64x2 product = ((dist - lo) * w) * (dist * w + splat(row.dMin * row.w));
    const vec::f64x2 x = splat(-0.5) * product;
    if constexpr (Finite) return x;
    return (vec::f64x2)((vec::i64x2)x & (vec::i64x2)(dist != lo));  // vector casts keep the bits
  }
}

}  // namespace detail

// One key's score through the same exp as addGaussianRow's other keys, so that a single key's score (the
// heatmap's block cells) equals the one its row was summed with, bit for bit.
inline double gaussianScore(double dist, double dMin, double w) { return LogScores(dMin, w).score(dist); }

// Whether every key of keys[begin, end) scores a normal double (see vec::expNormal), and in the product
// form has a finite d w + dMin w, so that addGaussianRow may skip the exp's underflow handling and the
// nearest key's mask. Over sorted keys both grow with the distance on each side of the query, and
// rounding keeps that order, so the range's two ends bound the rest; over unsorted keys, no.
inline bool scoresAreNormal(const LogScores& row, double query, const double* keys, std::size_t begin,
                            std::size_t end, bool sorted) {
  if (!sorted || begin >= end) return false;
  for (const double key : {keys[begin], keys[end - 1]}) {
    const double dist = std::fabs(query - key);
    if (!row.square && !(std::fabs(dist * row.w + row.dMin * row.w) < INFINITY)) return false;
    if (!(row.at(dist) >= vec::kNormalExpFloor)) return false;
  }
  return true;
}

namespace detail {

template <bool Square, bool Normal>
void addGaussianRow(const LogScores& row, double query, const double* keys, const double* values,
                    std::size_t begin, std::size_t end, double valueScale, RowSums& sums, double* scores,
                    double* exponents) {
  using vec::f64x2;
  using vec::splat;
  const f64x2 q = splat(query), scale = splat(valueScale);
  const auto exp = [](f64x2 x) { return Normal ? vec::expNormal(x) : vec::expNonPositive(x); };
  f64x2 weightSum = splat(0.0), weighted = splat(0.0);
  std::size_t i = begin;
  for (; i + 4 <= end; i += 4) {
    const f64x2 x0 = logScorePair<Square, Normal>(row, q, f64x2{keys[i], keys[i + 1]});
    const f64x2 x1 = logScorePair<Square, Normal>(row, q, f64x2{keys[i + 2], keys[i + 3]});
    const f64x2 s0 = exp(x0);
    const f64x2 s1 = exp(x1);
    weightSum += s0 + s1;
    const f64x2 v0 = f64x2{values[i], values[i + 1]} * scale, v1 = f64x2{values[i + 2], values[i + 3]} * scale;
    weighted += s0 * v0 + s1 * v1;
    if (scores) {
      scores[i] = s0[0];
      scores[i + 1] = s0[1];
      scores[i + 2] = s1[0];
      scores[i + 3] = s1[1];
      exponents[i] = -2.0 * x0[0];
      exponents[i + 1] = -2.0 * x0[1];
      exponents[i + 2] = -2.0 * x1[0];
      exponents[i + 3] = -2.0 * x1[1];
    }
  }
  sums.weightSum += weightSum[0] + weightSum[1];
  sums.weighted += weighted[0] + weighted[1];
  for (; i < end; ++i) {
    const double x = row.at(std::fabs(query - keys[i]));
    const double score = vec::expNonPositive(vec::splat(x))[0];
    sums.weightSum += score;
    sums.weighted += score * (values[i] * valueScale);
    if (scores) {
      scores[i] = score;
      exponents[i] = -2.0 * x;
    }
  }
}

}  // namespace detail

// Adds, for keys[begin, end), score_i and score_i * values_i * valueScale to `sums`. If `scores` and
// `exponents` are given, each key's score and exponent t_i = -2 x_i are stored there too. Needs w != 0
// (at w = 0 every score is 1, and an infinite distance would give 0 * inf here). Four keys per
// iteration, as two independent vectors, so that the two exps overlap. Sorted keys whose scores are all
// normal doubles (scoresAreNormal: every row's window at the usual bandwidths) take a shorter loop with
// the same results.
inline void addGaussianRow(double query, const double* keys, bool sorted, const double* values, std::size_t begin,
                           std::size_t end, double dMin, double w, double valueScale, RowSums& sums,
                           double* scores = nullptr, double* exponents = nullptr) {
  const LogScores row(dMin, w);
  const bool normal = scoresAreNormal(row, query, keys, begin, end, sorted);
  const auto add = [&](auto square, auto normalRange) {
    detail::addGaussianRow<decltype(square)::value, decltype(normalRange)::value>(row, query, keys, values, begin,
                                                                                   end, valueScale, sums, scores,
                                                                                   exponents);
  };
  if (row.square) {
    normal ? add(std::true_type{}, std::true_type{}) : add(std::true_type{}, std::false_type{});
  } else {
    normal ? add(std::false_type{}, std::true_type{}) : add(std::false_type{}, std::false_type{});
  }
}

// One row of the Gaussian training loss: training point j (of n sorted or unsorted keys) as the query,
// skipping its own key when leaveOneOut (skip is then j, else n); its sums and the keys it visited.
struct TrainingRow {
  RowSums sums;
  KeyRange window;
  std::size_t skip = 0;
};

// With a hint (sorted keys, rows in order), the window's searches start where the last row's ended.
inline TrainingRow gaussianTrainingRow(const double* x, const double* y, std::size_t n, std::size_t j, double w,
                                       bool leaveOneOut, bool sorted, double* scores = nullptr,
                                       double* exponents = nullptr, SortedHint* hint = nullptr) {
  TrainingRow row;
  row.skip = leaveOneOut ? j : n;
  const double dMin = nearestDistance(x[j], x, n, row.skip, sorted, sorted ? hint : nullptr);
  if (hint && hint->windowExponent < 0.0) hint->windowExponent = windowExponent(n);
  row.window = sorted ? gaussianWindow(x[j], x, n, dMin, w, hint ? hint->windowExponent : windowExponent(n), hint)
                      : KeyRange{0, n};
  const KeyRange window = row.window;
  addGaussianRow(x[j], x, sorted, y, window.begin, std::clamp(row.skip, window.begin, window.end), dMin, w, 1.0,
                 row.sums, scores, exponents);
  if (row.skip < window.end) {
    addGaussianRow(x[j], x, sorted, y, std::max(row.skip + 1, window.begin), window.end, dMin, w, 1.0, row.sums,
                   scores, exponents);
  }
  return row;
}

// The Gaussian leave-one-out rows' squares (w != 0) summed in row order, as looLoss sums them, until the
// sum exceeds `limit`: that sum, or the whole one (then looLoss's, bit for bit, before its loss's scale).
// (Bit for bit where `sum += residual * residual` is not fused into one multiply-add: every build here.)
// Every row adds a square and rounding keeps the order, so no partial sum is above the whole: one above
// `limit` shows that looLoss is above it too, with neither the rest of the rows nor any slope.
inline double gaussianLooSumUntil(const double* x, const double* y, std::size_t n, double w, bool leaveOneOut,
                                  bool sorted, double limit) {
  SortedHint hint;
  double sum = 0.0;
  for (std::size_t j = 0; j < n && !(sum > limit); ++j) {
    const TrainingRow row = gaussianTrainingRow(x, y, n, j, w, leaveOneOut, sorted, nullptr, nullptr, &hint);
    const double residual = row.sums.weighted / row.sums.weightSum - y[j];
    sum += residual * residual;
  }
  return sum;
}

// sum_i (y_i - f) w dK_i/dw over a training row's window (w dK/dw = -t K, t the exponents it kept): the
// row's prediction f's slope, times the weight sum, times w. scores and exponents as filled by the row.
inline double rowSlopeTimesW(const TrainingRow& row, const double* y, double f, const double* scores,
                             const double* exponents) {
  double slope = 0.0;
  for (std::size_t i = row.window.begin; i < row.window.end; ++i) {
    if (i == row.skip || scores[i] == 0.0) continue;
    slope -= (y[i] - f) * (exponents[i] * scores[i]);
  }
  return slope;
}

}  // namespace nw::rows
