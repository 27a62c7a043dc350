// AICc from each training point's in-sample fit and its own weight (the smoother matrix's diagonal).
#include "nw/aic.hpp"

#include <algorithm>
#include <cmath>

#include "local_linear_rows.hpp"
#include "nw/training.hpp"
#include "nw/validate.hpp"

namespace nw {
namespace {

// AICc and its slope in w from the residuals' sum of squares and tr(H), and their derivatives times w.
AicResult aicFrom(double residualSquares, double trace, std::size_t count, double residualSquaresSlope = 0.0,
                  double traceSlope = 0.0, double w = 0.0) {
  const double n = static_cast<double>(count);
  AicResult result;
  result.sigma2 = residualSquares / n;
  result.trace = trace;
  // The penalty (1 + t/n) / (1 - (t + 2)/n) as (n + t) / (n - 2 - t): the pole is exactly where the
  // gap n - 2 - t reaches 0 (1 - (t + 2)/n can round to 0 a little before).
  const double gap = (n - 2.0) - trace;
  if (!(gap > 0.0)) {
    result.aic = INFINITY;
    return result;
  }
  result.aic = std::log(result.sigma2) + (n + trace) / gap;
  // d/dt of (n + t) / (n - 2 - t) is (2n - 2) / (n - 2 - t)^2; d log(sigma2) = d(RSS) / RSS.
  const double slopeTimesW = residualSquaresSlope / residualSquares + (2.0 * n - 2.0) / gap / gap * traceSlope;
  if (w != 0.0 && residualSquares > 0.0 && std::isfinite(slopeTimesW)) result.grad = slopeTimesW / w;
  return result;
}

// Each row in-sample (its own key in), from localLinearRow with its slope. With sw_i = w dK_i/dw (0 for
// the own key, at distance 0), the own weight's slope w dH_ii/dw is -K_ii (sum sw) / S0^2 for
// Nadaraya-Watson; for the line, H_ii = K_ii (1 / S0 + ubar^2 / M2) with w dubar/dw = sum sw (u - ubar) / S0
// and w dM2/dw = sum sw (u - ubar)^2.
template <class Policy>
AicResult aicFor(const std::vector<double>& x, const std::vector<double>& y, double w, Estimator estimator) {
  const std::size_t n = x.size();
  const bool sorted = std::is_sorted(x.begin(), x.end());
  rows::LocalLinearScratch scratch(n);
  double residualSquares = 0.0, trace = 0.0, residualSquaresSlope = 0.0, traceSlope = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const rows::LocalLinearRow row =
        rows::localLinearRow<Policy>(x[i], x.data(), y.data(), n, n, sorted, w, 1.0, true, scratch);
    const double own = scratch.scores[i];  // key i sits at the query: offset 0
    const bool line = estimator == Estimator::localLinear && !row.singular;
    double slopeSum = 0.0, tiltSum = 0.0, spreadSum = 0.0;  // sum sw, sum sw (u - ubar), sum sw (u - ubar)^2
    for (std::size_t j = row.window.begin; j < row.window.end; ++j) {
      const double sw = scratch.slopes[j];
      if (sw == 0.0) continue;
      const double centred = scratch.offsets[j] - row.meanOffset;
      slopeSum += sw;
      tiltSum += sw * centred;
      spreadSum += sw * centred * centred;
    }
    const double s0 = row.weightSum, ubar = row.meanOffset, m2 = row.spread;
    double fitted, fittedSlope;
    if (line) {
      // The line's weight on a key at offset 0: K (1 / S0 + ubar^2 / M2), the centred form of K S2 / (S0 S2 - S1^2).
      const double ratio = ubar / m2;
      trace += own * (1.0 / s0 + ubar * ratio);
      traceSlope += own * (-slopeSum / (s0 * s0) + 2.0 * ratio * (tiltSum / s0) - ratio * ratio * spreadSum);
      fitted = row.value;
      fittedSlope = row.slopeTimesW;
    } else {
      trace += own / s0;
      traceSlope -= own * slopeSum / (s0 * s0);
      fitted = row.nadarayaWatson;
      fittedSlope = row.nadarayaWatsonSlope;
    }
    residualSquares += (y[i] - fitted) * (y[i] - fitted);
    residualSquaresSlope += 2.0 * (fitted - y[i]) * fittedSlope;
  }
  return aicFrom(residualSquares, trace, n, residualSquaresSlope, traceSlope, w);
}

}  // namespace

AicResult aicLoss(const std::vector<double>& x, const std::vector<double>& y, double w, Kernel kernel, Estimator estimator) {
  requireTrainingSet(x, y);
  requireFinite(w, "w");
  return rows::withKernel(kernel, [&](auto policy) { return aicFor<decltype(policy)>(x, y, w, estimator); });
}

AicResult aicAtInfinity(const std::vector<double>& x, const std::vector<double>& y) {
  requireTrainingSet(x, y);
  double residualSquares = 0.0, trace = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    double sum = 0.0, count = 0.0;
    for (std::size_t j = 0; j < x.size(); ++j) {
      if (x[j] == x[i]) {
        sum += y[j];
        count += 1.0;
      }
    }
    residualSquares += (y[i] - sum / count) * (y[i] - sum / count);
    trace += 1.0 / count;
  }
  return aicFrom(residualSquares, trace, x.size());
}

}  // namespace nw
