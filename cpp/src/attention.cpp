// Attention pooling: average pooling, Gaussian-kernel predictions and the weight matrix for the heatmap.
#include "nw/attention.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "nw/error.hpp"
#include "nw/gaussian_score.hpp"
#include "nw/validate.hpp"

namespace nw {

double averagePool(const std::vector<double>& values) {
  requireNonEmptyFiniteArray(values, "values");
  double sum = 0.0;
  for (double v : values) sum += v;
  return sum / static_cast<double>(values.size());
}

std::vector<double> predict(const std::vector<double>& queries, const std::vector<double>& keys,
                            const std::vector<double>& values, double w) {
  requireNonEmptyFiniteArray(queries, "queries");
  requireNonEmptyFiniteArray(keys, "keys");
  requireNonEmptyFiniteArray(values, "values");
  requireSameLength(keys, "keys", values, "values");
  requireFinite(w, "w");

  const auto [lowest, highest] = std::minmax_element(values.begin(), values.end());
  // Large values are summed scaled down by a power of two (exact) so that even values near the largest
  // double cannot overflow the weighted sum; values below 1 are left as they are.
  int exponent = 0;
  std::frexp(std::max(std::fabs(*lowest), std::fabs(*highest)), &exponent);
  exponent = std::max(exponent, 1);
  const double scale = std::ldexp(1.0, exponent - 1);
  const double inverseScale = std::ldexp(1.0, 1 - exponent);

  std::vector<double> out(queries.size());
  for (std::size_t q = 0; q < queries.size(); ++q) {
    const double dMin = nearestDistance(queries[q], keys, keys.size());
    double weightSum = 0.0;
    double weighted = 0.0;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const double score = gaussianScore(std::fabs(queries[q] - keys[i]), dMin, w);
      weightSum += score;
      weighted += score * (values[i] * inverseScale);
    }
    // A weighted average lies between the smallest and largest value; clamping removes rounding's ulps.
    out[q] = std::clamp(weighted / weightSum * scale, *lowest, *highest);
  }
  return out;
}

Matrix attentionWeights(const std::vector<double>& queries, const std::vector<double>& keys, double w) {
  requireNonEmptyFiniteArray(queries, "queries");
  requireNonEmptyFiniteArray(keys, "keys");
  requireFinite(w, "w");
  if (queries.size() > kMaxWeightCells / keys.size()) {
    throw Error("queries.length x keys.length must be at most " + std::to_string(kMaxWeightCells) +
                " cells, got " + std::to_string(queries.size()) + " x " + std::to_string(keys.size()));
  }

  Matrix m{queries.size(), keys.size(), std::vector<double>(queries.size() * keys.size())};
  for (std::size_t q = 0; q < m.rows; ++q) {
    double* row = m.data.data() + q * m.cols;
    const double dMin = nearestDistance(queries[q], keys, keys.size());
    double weightSum = 0.0;
    for (std::size_t i = 0; i < m.cols; ++i) {
      row[i] = gaussianScore(std::fabs(queries[q] - keys[i]), dMin, w);
      weightSum += row[i];
    }
    for (std::size_t i = 0; i < m.cols; ++i) row[i] /= weightSum;
  }
  return m;
}

}  // namespace nw
