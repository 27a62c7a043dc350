// Attention pooling: average pooling, kernel predictions and the weight matrix for the heatmap.
#include "nw/attention.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>

#include "gaussian_rows.hpp"
#include "kernel_rows.hpp"
#include "nw/error.hpp"
#include "nw/validate.hpp"

namespace nw {
namespace {

template <class Policy>
void predictRows(const std::vector<double>& queries, const std::vector<double>& keys,
                 const std::vector<double>& values, double w, std::vector<double>& out) {
  const auto [lowest, highest] = std::minmax_element(values.begin(), values.end());
  // Large values are summed scaled down by a power of two (exact) so that even values near the largest
  // double cannot overflow the weighted sum; values below 1 are left as they are.
  int exponent = 0;
  std::frexp(std::max(std::fabs(*lowest), std::fabs(*highest)), &exponent);
  exponent = std::max(exponent, 1);
  const double scale = std::ldexp(1.0, exponent - 1);
  const double inverseScale = std::ldexp(1.0, 1 - exponent);

  for (std::size_t q = 0; q < queries.size(); ++q) {
    if constexpr (std::is_same_v<Policy, rows::Gaussian>) {
      if (w != 0.0) {
        const double dMin = rows::gaussianNearestDistance(queries[q], keys.data(), keys.size(), keys.size());
        rows::RowSums sums;
        rows::addGaussianRow(queries[q], keys.data(), values.data(), 0, keys.size(), dMin, w, inverseScale, sums);
        out[q] = std::clamp(sums.weighted / sums.weightSum * scale, *lowest, *highest);
        continue;
      }
    }
    const double dMin = rows::nearestDistance(queries[q], keys, keys.size());
    const bool fallback = rows::fallsBack<Policy>(dMin, w);
    double weightSum = 0.0;
    double weighted = 0.0;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const double score = rows::rowScore<Policy>(std::fabs(queries[q] - keys[i]), dMin, w, fallback);
      weightSum += score;
      weighted += score * (values[i] * inverseScale);
    }
    // A weighted average lies between the smallest and largest value; clamping removes rounding's ulps.
    out[q] = std::clamp(weighted / weightSum * scale, *lowest, *highest);
  }
}

template <class Policy>
void weightRows(const std::vector<double>& queries, const std::vector<double>& keys, double w, Matrix& m) {
  for (std::size_t q = 0; q < m.rows; ++q) {
    double* row = m.data.data() + q * m.cols;
    const double dMin = rows::nearestDistance(queries[q], keys, keys.size());
    const bool fallback = rows::fallsBack<Policy>(dMin, w);
    m.fallbackRows[q] = fallback ? 1 : 0;
    double weightSum = 0.0;
    for (std::size_t i = 0; i < m.cols; ++i) {
      row[i] = rows::rowScore<Policy>(std::fabs(queries[q] - keys[i]), dMin, w, fallback);
      weightSum += row[i];
    }
    for (std::size_t i = 0; i < m.cols; ++i) row[i] /= weightSum;
  }
}

}  // namespace

double averagePool(const std::vector<double>& values) {
  requireNonEmptyFiniteArray(values, "values");
  double sum = 0.0;
  for (double v : values) sum += v;
  return sum / static_cast<double>(values.size());
}

std::vector<double> predict(const std::vector<double>& queries, const std::vector<double>& keys,
                            const std::vector<double>& values, double w, Kernel kernel) {
  requireNonEmptyFiniteArray(queries, "queries");
  requireNonEmptyFiniteArray(keys, "keys");
  requireNonEmptyFiniteArray(values, "values");
  requireSameLength(keys, "keys", values, "values");
  requireFinite(w, "w");

  std::vector<double> out(queries.size());
  rows::withKernel(kernel, [&](auto policy) { predictRows<decltype(policy)>(queries, keys, values, w, out); });
  return out;
}

Matrix attentionWeights(const std::vector<double>& queries, const std::vector<double>& keys, double w,
                        Kernel kernel) {
  requireNonEmptyFiniteArray(queries, "queries");
  requireNonEmptyFiniteArray(keys, "keys");
  requireFinite(w, "w");
  if (queries.size() > kMaxWeightCells / keys.size()) {
    throw Error("queries.length x keys.length must be at most " + std::to_string(kMaxWeightCells) +
                " cells, got " + std::to_string(queries.size()) + " x " + std::to_string(keys.size()));
  }

  Matrix m{queries.size(), keys.size(), std::vector<double>(queries.size() * keys.size()),
           std::vector<unsigned char>(queries.size())};
  rows::withKernel(kernel, [&](auto policy) { weightRows<decltype(policy)>(queries, keys, w, m); });
  return m;
}

}  // namespace nw
