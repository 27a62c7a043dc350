// Evaluation metrics for the estimators.
#include "nw/metrics.hpp"

#include <algorithm>
#include <cmath>

#include "nw/validate.hpp"

namespace nw {

double meanSquaredError(const std::vector<double>& predicted, const std::vector<double>& truth) {
  requireNonEmptyFiniteArray(predicted, "predicted");
  requireNonEmptyFiniteArray(truth, "truth");
  requireSameLength(predicted, "predicted", truth, "truth");
  // The squares are summed scaled by a power of two (2^-2k, with |e| 2^-k below 1), so that a mean
  // that is itself a double never overflows (or underflows) on the way; for ordinary data the bits are
  // those of the plain sum. A difference that overflows makes the mean overflow too.
  double largest = 0.0;
  for (std::size_t i = 0; i < predicted.size(); ++i) largest = std::max(largest, std::fabs(predicted[i] - truth[i]));
  if (std::isinf(largest)) return largest;
  int k = 0;
  if (largest > 0.0) std::frexp(largest, &k);
  double sum = 0.0;
  for (std::size_t i = 0; i < predicted.size(); ++i) {
    const double e = std::ldexp(predicted[i] - truth[i], -k);  // 2^-k itself may not be a double
    sum += e * e;
  }
  return std::ldexp(sum / static_cast<double>(predicted.size()), 2 * k);
}

}  // namespace nw
