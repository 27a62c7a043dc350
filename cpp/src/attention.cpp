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

// One row of normalised weights into `row` (and the fallback flag): the shared step of weightRows and
// attentionBlocks. `exponents` is scratch of the row's length.
template <class Policy>
bool weightRow(double query, const std::vector<double>& keys, double w, double* row, double* exponents) {
  if constexpr (std::is_same_v<Policy, rows::Gaussian>) {
    if (w != 0.0) {
      const double dMin = rows::gaussianNearestDistance(query, keys.data(), keys.size(), keys.size());
      rows::RowSums sums;
      rows::addGaussianRow(query, keys.data(), keys.data(), 0, keys.size(), dMin, w, 0.0, sums, row, exponents);
      const double inverse = 1.0 / sums.weightSum;
      for (std::size_t i = 0; i < keys.size(); ++i) row[i] *= inverse;
      return false;
    }
  }
  const double dMin = rows::nearestDistance(query, keys, keys.size());
  const bool fallback = rows::fallsBack<Policy>(dMin, w);
  double weightSum = 0.0;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    row[i] = rows::rowScore<Policy>(std::fabs(query - keys[i]), dMin, w, fallback);
    weightSum += row[i];
  }
  for (std::size_t i = 0; i < keys.size(); ++i) row[i] /= weightSum;
  return fallback;
}

template <class Policy>
void blockRows(const std::vector<double>& queries, const std::vector<double>& keys, const std::vector<double>& values,
               double w, BlockWeights& b) {
  std::vector<double> row(keys.size()), exponents(keys.size());
  for (std::size_t q = 0; q < b.rows; ++q) {
    b.fallbackRows[q] = weightRow<Policy>(queries[q], keys, w, row.data(), exponents.data()) ? 1 : 0;
    const std::size_t firstBlock = (q / b.rowStep) * b.blockCols;
    for (std::size_t bc = 0; bc < b.blockCols; ++bc) {
      const std::size_t block = firstBlock + bc;
      const std::size_t end = std::min(b.cols, (bc + 1) * b.colStep);
      for (std::size_t i = bc * b.colStep; i < end; ++i) {
        if (row[i] > b.weight[block]) {
          b.weight[block] = row[i];
          b.row[block] = q;
          b.col[block] = i;
        }
      }
    }
    if (!values.empty()) {
      double prediction = 0.0;
      for (std::size_t i = 0; i < b.cols; ++i) prediction += row[i] * values[i];
      b.predictions[q] = prediction;
    }
  }
}

template <class Policy>
void weightRows(const std::vector<double>& queries, const std::vector<double>& keys, double w, Matrix& m) {
  std::vector<double> exponents(m.cols);  // scratch for one row
  for (std::size_t q = 0; q < m.rows; ++q) {
    m.fallbackRows[q] = weightRow<Policy>(queries[q], keys, w, m.data.data() + q * m.cols, exponents.data()) ? 1 : 0;
  }
}

}  // namespace

BlockWeights attentionBlocks(const std::vector<double>& queries, const std::vector<double>& keys,
                             const std::vector<double>& values, double w, Kernel kernel, std::size_t maxBlockRows,
                             std::size_t maxBlockCols) {
  requireNonEmptyFiniteArray(queries, "queries");
  requireNonEmptyFiniteArray(keys, "keys");
  if (!values.empty()) {
    requireFiniteArray(values, "values");
    requireSameLength(keys, "keys", values, "values");
  }
  requireFinite(w, "w");
  requireCount(static_cast<double>(maxBlockRows), "maxBlockRows", 1, 4096);
  requireCount(static_cast<double>(maxBlockCols), "maxBlockCols", 1, 4096);

  BlockWeights b;
  b.rows = queries.size();
  b.cols = keys.size();
  b.rowStep = (b.rows + maxBlockRows - 1) / maxBlockRows;
  b.colStep = (b.cols + maxBlockCols - 1) / maxBlockCols;
  b.blockRows = (b.rows + b.rowStep - 1) / b.rowStep;
  b.blockCols = (b.cols + b.colStep - 1) / b.colStep;
  b.weight.assign(b.blockRows * b.blockCols, -1.0);
  b.row.assign(b.weight.size(), 0);
  b.col.assign(b.weight.size(), 0);
  b.fallbackRows.assign(b.rows, 0);
  if (!values.empty()) b.predictions.assign(b.rows, 0.0);
  rows::withKernel(kernel, [&](auto policy) { blockRows<decltype(policy)>(queries, keys, values, w, b); });
  return b;
}

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
