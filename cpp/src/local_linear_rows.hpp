// Private to the core: one query's local-linear fit over its keys, with w d(fit)/dw for the gradient.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "gaussian_rows.hpp"
#include "kernel_rows.hpp"
#include "nw/local_linear.hpp"

namespace nw::rows {

struct LocalLinearRow {
  double value = 0.0;           // the line at the query; the Nadaraya-Watson value when singular
  double nadarayaWatson = 0.0;  // the weighted mean of the values
  double slopeTimesW = 0.0;     // w d(value)/dw, where asked for
  bool singular = false;        // see kSingularDesign (or a compact kernel's row that fell back)
  double nadarayaWatsonSlope = 0.0;  // w d(nadarayaWatson)/dw
  // S0, ubar and M2 below: with the scratch's scores, slopes and offsets over the window (the keys whose
  // entries are this row's) they give any key's weight in the fit.
  double weightSum = 0.0, meanOffset = 0.0, spread = 0.0;
  KeyRange window;
};

// One row's scores, their slopes w dK/dw and the keys' scaled offsets from the query: O(keys), reused.
struct LocalLinearScratch {
  std::vector<double> scores, slopes, offsets;
  explicit LocalLinearScratch(std::size_t n) : scores(n), slopes(n), offsets(n) {}
};

// The fit at `query` over keys[0, n) but `skip` (n for none), values times valueScale. Written in the
// centred form: with u_i = (x_i - x) 2^-e (offsets from the query, scaled exactly by a power of two so
// that the farthest key with weight is in [0.5, 1): the fit is invariant to the scale, and no square
// overflows), ubar = S1 / S0 and f = T0 / S0 (the Nadaraya-Watson value), the line is
// f + beta (u - ubar) with beta = sum K (u - ubar)(y - f) / M2, M2 = sum K (u - ubar)^2, read at u = 0.
// Its derivative: for weighted least squares, da/dK_i = r_i (1 / S0 - ubar (u_i - ubar) / M2), with r_i
// the line's residual at key i, so w da/dw = sum_i (w dK_i/dw) r_i (1 / S0 - ubar (u_i - ubar) / M2).
// A factor common to the row's scores (the Gaussian's shift by the nearest key) changes neither, since
// a is homogeneous of degree 0 in the weights. A singular row gives the Nadaraya-Watson value and slope.
template <class Policy>
LocalLinearRow localLinearRow(double query, const double* keys, const double* values, std::size_t n, std::size_t skip,
                              bool sorted, double w, double valueScale, bool withSlope, LocalLinearScratch& s) {
  double* scores = s.scores.data();
  double* slopes = s.slopes.data();
  double* offsets = s.offsets.data();
  const double dMin = nearestDistance(query, keys, n, skip, sorted);
  const bool fallback = fallsBack<Policy>(dMin, w);
  const bool vectorised = std::is_same_v<Policy, Gaussian> && w != 0.0;
  // Every key whose score is not exactly 0: a far key's tiny weight can matter to a nearly singular line.
  KeyRange window{0, n};
  if (sorted) {
    window = vectorised ? gaussianWindow(query, keys, n, dMin, w, kZeroScoreExponent)
                        : scoringKeys<Policy>(query, keys, n, dMin, w, fallback);
  }
  if (vectorised) {
    RowSums unused;
    addGaussianRow(query, keys, sorted, keys, window.begin, window.end, dMin, w, 0.0, unused, scores, slopes);
    for (std::size_t i = window.begin; i < window.end; ++i) {
      slopes[i] = scores[i] > 0.0 ? -slopes[i] * scores[i] : 0.0;  // slopes held t: w dK/dw = -t K
    }
  } else {
    for (std::size_t i = window.begin; i < window.end; ++i) {
      const double dist = std::fabs(query - keys[i]);
      scores[i] = rowScore<Policy>(dist, dMin, w, fallback);
      slopes[i] = fallback || scores[i] == 0.0 ? 0.0 : Policy::slopeTimesW(dist, dMin, w, scores[i]);
    }
  }
  if (skip < n) scores[skip] = slopes[skip] = 0.0;

  // Offsets from the query; halved when a difference overflows (keys spanning more than the largest double).
  bool halve = false;
  double largest = 0.0;
  for (std::size_t i = window.begin; i < window.end; ++i) {
    if (scores[i] == 0.0) continue;
    const double d = keys[i] - query;
    halve = halve || !std::isfinite(d);
    largest = std::max(largest, std::fabs(d));
  }
  if (halve) {
    largest = 0.0;
    for (std::size_t i = window.begin; i < window.end; ++i) {
      if (scores[i] > 0.0) largest = std::max(largest, std::fabs(0.5 * keys[i] - 0.5 * query));
    }
  }
  int exponent = 0;
  std::frexp(largest, &exponent);
  double s0 = 0.0, s1 = 0.0, t0 = 0.0;
  for (std::size_t i = window.begin; i < window.end; ++i) {
    const double d = halve ? 0.5 * keys[i] - 0.5 * query : keys[i] - query;
    offsets[i] = scores[i] > 0.0 ? std::ldexp(d, -exponent) : 0.0;
    s0 += scores[i];
    s1 += scores[i] * offsets[i];
    t0 += scores[i] * (values[i] * valueScale);
  }
  const double f = t0 / s0;
  const double ubar = s1 / s0;
  double m2 = 0.0, s2 = 0.0, cross = 0.0, nwSlope = 0.0;
  for (std::size_t i = window.begin; i < window.end; ++i) {
    if (scores[i] == 0.0) continue;
    const double centred = offsets[i] - ubar;
    const double residual = values[i] * valueScale - f;
    m2 += scores[i] * centred * centred;
    s2 += scores[i] * offsets[i] * offsets[i];
    cross += scores[i] * centred * residual;
    nwSlope += slopes[i] * residual;
  }
  LocalLinearRow row;
  row.nadarayaWatson = f;
  row.nadarayaWatsonSlope = nwSlope / s0;
  row.weightSum = s0;
  row.meanOffset = ubar;
  row.spread = m2;
  row.window = window;
  const double beta = cross / m2;
  row.value = f - beta * ubar;
  row.singular = fallback || !(m2 > kSingularDesign * s2) || !std::isfinite(row.value);
  if (row.singular) {
    row.value = f;
    row.slopeTimesW = row.nadarayaWatsonSlope;
    return row;
  }
  if (withSlope) {
    double plain = 0.0, tilted = 0.0;  // sum (w dK/dw) r and sum (w dK/dw) r (u - ubar)
    for (std::size_t i = window.begin; i < window.end; ++i) {
      if (slopes[i] == 0.0) continue;
      const double centred = offsets[i] - ubar;
      const double residual = values[i] * valueScale - f - beta * centred;
      plain += slopes[i] * residual;
      tilted += slopes[i] * residual * centred;
    }
    row.slopeTimesW = plain / s0 - (ubar == 0.0 ? 0.0 : ubar * (tilted / m2));
  }
  return row;
}

}  // namespace nw::rows
