// Evaluation metrics for the estimators.
#include "nw/metrics.hpp"

#include "nw/validate.hpp"

namespace nw {

double meanSquaredError(const std::vector<double>& predicted, const std::vector<double>& truth) {
  requireNonEmptyFiniteArray(predicted, "predicted");
  requireNonEmptyFiniteArray(truth, "truth");
  requireSameLength(predicted, "predicted", truth, "truth");
  double sum = 0.0;
  for (std::size_t i = 0; i < predicted.size(); ++i) {
    const double e = predicted[i] - truth[i];
    sum += e * e;
  }
  return sum / static_cast<double>(predicted.size());
}

}  // namespace nw
