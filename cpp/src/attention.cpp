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

// The power of two that brings `largest` (a magnitude) to [2^958, 2^959): a weighted sum of up to 2^64
// such values cannot overflow, and products with scores down to 2^-1074 stay normal. Capped at 2^1000, so
// that the scale is itself a double; below that the values are so small that what the cap loses lies
// below the smallest double of the result.
int scaleExponent(double largest) {
  if (largest == 0.0) return 0;
  int exponent = 0;
  std::frexp(largest, &exponent);
  return std::min(959 - exponent, 1000);
}

// The values' range and a power-of-two scale for summing them (scaleExponent): every value is summed
// scaled (exactly), so that values near the largest double cannot overflow a sum and values near the
// smallest cannot underflow one. A row whose weighted values are all far below the largest value (which
// has no weight there) is summed again with its own scale (exactRow).
struct ValueRange {
  double lowest = 0.0, highest = 0.0, largest = 0.0;  // largest |value|
  int shift = 0;
  double scale = 1.0;  // 2^shift

  explicit ValueRange(const std::vector<double>& values) {
    const auto [low, high] = std::minmax_element(values.begin(), values.end());
    lowest = *low;
    highest = *high;
    largest = std::max(std::fabs(lowest), std::fabs(highest));
    shift = scaleExponent(largest);
    scale = std::ldexp(1.0, shift);
  }

  // A weighted average lies between the smallest and largest value; clamping removes rounding's ulps.
  double average(const rows::RowSums& sums, int rowShift) const {
    return std::clamp(std::ldexp(sums.weighted / sums.weightSum, -rowShift), lowest, highest);
  }
};

// Below this, a row's sum of score |scaled value| may have lost relative precision to subnormal products
// (each rounds by up to 2^-1075, and 2^-1075 n is below 2^-60 of 2^-980 for any n up to 2^35).
inline constexpr double kLeastAccurateSum = 0x1p-980;

// Gaussian rows (w != 0) are summed two keys at a time (gaussian_rows.hpp); other rows key by key.
template <class Policy>
bool vectorised(double w) {
  return std::is_same_v<Policy, rows::Gaussian> && w != 0.0;
}

// One query's pass over every key, shared by predictions, weight rows and heatmap blocks: its nearest
// distance, whether it falls back, and its sums (of values scaled by 2^shift).
struct RowPass {
  double dMin = 0.0;
  bool fallback = false;
  rows::RowSums sums;
  int shift = 0;
  // The weights' denominator: the sum over the keys a row without values visits, so that a weight is the
  // same bit for bit whether or not values widened the row (attentionWeights and attentionBlocks agree).
  double weightSum = 0.0;
};

// A key's score in the row, as the row's sums see it.
template <class Policy>
double keyScore(double dist, const RowPass& row, double w) {
  return vectorised<Policy>(w) ? rows::gaussianScore(dist, row.dMin, w)
                               : rows::rowScore<Policy>(dist, row.dMin, w, row.fallback);
}

// The keys whose score in the row can be nonzero: over sorted keys, every key outside scores exactly 0
// (Gaussian: t beyond the vector exp's underflow; compact kernels: outside the support); else all keys.
template <class Policy>
rows::KeyRange nonzeroScores(double query, const std::vector<double>& keys, bool sorted, const RowPass& row, double w) {
  const std::size_t n = keys.size();
  if (!sorted) return {0, n};
  return vectorised<Policy>(w) ? rows::gaussianWindow(query, keys.data(), n, row.dMin, w, rows::kZeroScoreExponent)
                               : rows::scoringKeys<Policy>(query, keys.data(), n, row.dMin, w, row.fallback);
}

// The row summed again, key by key, with a scale of its own: from the largest |value| among the keys
// with a nonzero score (every other key adds exactly 0, whatever its value). Over sorted keys it visits
// every key whose score can be nonzero, so nothing is skipped. Rare: only rows whose weighted values
// are all some 2^1900 times smaller than the largest value, or cancel exactly.
template <class Policy>
void exactRow(double query, const std::vector<double>& keys, bool sorted, const double* values, double w,
              RowPass& row) {
  const rows::KeyRange window = nonzeroScores<Policy>(query, keys, sorted, row, w);
  double largest = 0.0;
  for (std::size_t i = window.begin; i < window.end; ++i) {
    if (keyScore<Policy>(std::fabs(query - keys[i]), row, w) > 0.0) largest = std::max(largest, std::fabs(values[i]));
  }
  row.shift = scaleExponent(largest);
  const double scale = std::ldexp(1.0, row.shift);
  row.sums = {};
  for (std::size_t i = window.begin; i < window.end; ++i) {
    const double score = keyScore<Policy>(std::fabs(query - keys[i]), row, w);
    if (score == 0.0) continue;  // its value may be beyond the scale's range
    row.sums.weightSum += score;
    row.sums.weighted += score * (values[i] * scale);
  }
}

// Sums the query's row. Given `values` and their `range`, the row's value sums too (else only the
// weights). With `scores` (and `exponents`, scratch of the row's length) each key's score is stored too.
// Sorted keys let a row sum only the keys that count: for the Gaussian kernel the window holds all but
// 2^-60 of the row's weight (gaussianWindow), widened until the keys outside, at most n e^(-t/2) times
// the largest |value|, hold at most 2^-60 of |the row's sum of score value|; for compact kernels, the
// keys inside the support (scoringKeys).
template <class Policy>
RowPass passRow(double query, const std::vector<double>& keys, bool sorted, const double* values,
                const ValueRange* range, double w, double* scores = nullptr, double* exponents = nullptr) {
  RowPass row;
  const std::size_t n = keys.size();
  const double valueScale = range ? range->scale : 0.0;
  if (!range) values = keys.data();  // read, times 0
  if (range) row.shift = range->shift;
  row.dMin = rows::nearestDistance(query, keys.data(), n, n, sorted);
  if (vectorised<Policy>(w)) {
    const rows::KeyRange window =
        sorted ? rows::gaussianWindow(query, keys.data(), n, row.dMin, w) : rows::KeyRange{0, n};
    rows::addGaussianRow(query, keys.data(), sorted, values, window.begin, window.end, row.dMin, w, valueScale,
                         row.sums, scores, exponents);
    row.weightSum = row.sums.weightSum;
    // |sum score value| is a lower bound of sum score |value|, and free: the keys outside a window then
    // hold at most 2^-60 of the row's weighted sum itself.
    row.sums.absWeighted = std::fabs(row.sums.weighted);
    const double largest = range ? range->largest * valueScale : 0.0;
    if ((window.begin > 0 || window.end < n) && largest > row.sums.absWeighted) {
      const double tMax = row.sums.absWeighted > 0.0
                              ? rows::windowExponent(n) + 2.0 * std::log(largest / row.sums.absWeighted)
                              : rows::kZeroScoreExponent;
      const rows::KeyRange wider =
          rows::gaussianWindow(query, keys.data(), n, row.dMin, w, std::min(tMax, rows::kZeroScoreExponent));
      rows::addGaussianRow(query, keys.data(), sorted, values, wider.begin, window.begin, row.dMin, w, valueScale,
                           row.sums);
      rows::addGaussianRow(query, keys.data(), sorted, values, window.end, wider.end, row.dMin, w, valueScale,
                           row.sums);
      row.sums.absWeighted = std::fabs(row.sums.weighted);
    }
    if (scores) {  // the keys outside still get their (tiny) scores, summed nowhere
      rows::RowSums outside;
      rows::addGaussianRow(query, keys.data(), sorted, values, 0, window.begin, row.dMin, w, 0.0, outside, scores, exponents);
      rows::addGaussianRow(query, keys.data(), sorted, values, window.end, n, row.dMin, w, 0.0, outside, scores, exponents);
    }
  } else {
    row.fallback = rows::fallsBack<Policy>(row.dMin, w);
    // Keys outside the window score exactly 0: they change no sum.
    const rows::KeyRange window =
        sorted ? rows::scoringKeys<Policy>(query, keys.data(), n, row.dMin, w, row.fallback) : rows::KeyRange{0, n};
    if (scores) std::fill(scores, scores + n, 0.0);
    for (std::size_t i = window.begin; i < window.end; ++i) {
      const double score = rows::rowScore<Policy>(std::fabs(query - keys[i]), row.dMin, w, row.fallback);
      const double value = values[i] * valueScale;
      row.sums.weightSum += score;
      row.sums.weighted += score * value;
      row.sums.absWeighted += score * std::fabs(value);
      if (scores) scores[i] = score;
    }
    row.weightSum = row.sums.weightSum;
  }
  if (range && range->largest > 0.0 && row.sums.absWeighted < kLeastAccurateSum) {
    exactRow<Policy>(query, keys, sorted, values, w, row);
  }
  return row;
}

// The weight of one key at `dist` from the query, equal bit for bit to its entry in the row's weights.
template <class Policy>
double keyWeight(double dist, const RowPass& row, double w) {
  return keyScore<Policy>(dist, row, w) / row.weightSum;
}

// The key in [begin, end) nearest the query, which has the largest weight there: every kernel's score
// falls or stays flat as the distance grows (up to the last bit of the vector exp). For sorted keys
// `insertion`, the index of the first key >= query, leaves two candidates at most.
std::size_t nearestKeyIn(double query, const std::vector<double>& keys, std::size_t begin, std::size_t end,
                         bool sorted, std::size_t insertion) {
  if (sorted) {
    if (insertion <= begin) return begin;
    if (insertion >= end) return end - 1;
    return query - keys[insertion - 1] <= keys[insertion] - query ? insertion - 1 : insertion;
  }
  std::size_t nearest = begin;
  for (std::size_t i = begin + 1; i < end; ++i) {
    if (std::fabs(query - keys[i]) < std::fabs(query - keys[nearest])) nearest = i;
  }
  return nearest;
}

template <class Policy>
void predictRows(const std::vector<double>& queries, const std::vector<double>& keys,
                 const std::vector<double>& values, double w, std::vector<double>& out) {
  const ValueRange range(values);
  const bool sorted = std::is_sorted(keys.begin(), keys.end());
  for (std::size_t q = 0; q < queries.size(); ++q) {
    const RowPass row = passRow<Policy>(queries[q], keys, sorted, values.data(), &range, w);
    out[q] = range.average(row.sums, row.shift);
  }
}

// Each row is summed once; a block's largest weight is then its nearest key's, found without the row's
// weights, so a drag's heatmap costs little more than its predictions.
template <class Policy>
void blockRows(const std::vector<double>& queries, const std::vector<double>& keys, const std::vector<double>& values,
               double w, BlockWeights& b) {
  const bool withValues = !values.empty();
  const ValueRange range(withValues ? values : keys);
  const bool sorted = std::is_sorted(keys.begin(), keys.end());
  for (std::size_t q = 0; q < b.rows; ++q) {
    const double query = queries[q];
    const RowPass row = passRow<Policy>(query, keys, sorted, values.data(), withValues ? &range : nullptr, w);
    b.fallbackRows[q] = row.fallback ? 1 : 0;
    if (withValues) b.predictions[q] = range.average(row.sums, row.shift);
    const std::size_t insertion =
        sorted ? static_cast<std::size_t>(std::lower_bound(keys.begin(), keys.end(), query) - keys.begin()) : 0;
    // A block whose nearest key scores exactly 0 weighs 0 without an exp: with a large w that is nearly
    // every block (at w = 800, 2000 x 2000 weights in 299 x 492 blocks: 43 ms of exps of underflow).
    const rows::KeyRange scoring = nonzeroScores<Policy>(query, keys, sorted, row, w);
    const std::size_t firstBlock = (q / b.rowStep) * b.blockCols;
    for (std::size_t bc = 0; bc < b.blockCols; ++bc) {
      const std::size_t i = nearestKeyIn(query, keys, bc * b.colStep, std::min(b.cols, (bc + 1) * b.colStep), sorted, insertion);
      const double weight = i >= scoring.begin && i < scoring.end ? keyWeight<Policy>(std::fabs(query - keys[i]), row, w) : 0.0;
      const std::size_t block = firstBlock + bc;
      if (weight > b.weight[block]) {
        b.weight[block] = weight;
        b.row[block] = q;
        b.col[block] = i;
      }
    }
  }
}

template <class Policy>
void weightRows(const std::vector<double>& queries, const std::vector<double>& keys, double w, Matrix& m) {
  std::vector<double> exponents(m.cols);  // scratch for one row
  const bool sorted = std::is_sorted(keys.begin(), keys.end());
  for (std::size_t q = 0; q < m.rows; ++q) {
    double* weights = m.data.data() + q * m.cols;
    const RowPass row = passRow<Policy>(queries[q], keys, sorted, nullptr, nullptr, w, weights, exponents.data());
    for (std::size_t i = 0; i < m.cols; ++i) weights[i] /= row.weightSum;
    m.fallbackRows[q] = row.fallback ? 1 : 0;
  }
}

}  // namespace

BlockWeights emptyBlocks(std::size_t rows, std::size_t cols, std::size_t maxBlockRows, std::size_t maxBlockCols,
                         bool withPredictions) {
  requireCount(maxBlockRows, "maxBlockRows", 1, kMaxBlocksPerSide);
  requireCount(maxBlockCols, "maxBlockCols", 1, kMaxBlocksPerSide);
  BlockWeights b;
  b.rows = rows;
  b.cols = cols;
  b.rowStep = (b.rows + maxBlockRows - 1) / maxBlockRows;
  b.colStep = (b.cols + maxBlockCols - 1) / maxBlockCols;
  b.blockRows = (b.rows + b.rowStep - 1) / b.rowStep;
  b.blockCols = (b.cols + b.colStep - 1) / b.colStep;
  b.weight.assign(b.blockRows * b.blockCols, -1.0);
  b.row.assign(b.weight.size(), 0);
  b.col.assign(b.weight.size(), 0);
  b.fallbackRows.assign(b.rows, 0);
  if (withPredictions) b.predictions.assign(b.rows, 0.0);
  return b;
}

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
  BlockWeights b = emptyBlocks(queries.size(), keys.size(), maxBlockRows, maxBlockCols, !values.empty());
  rows::withKernel(kernel, [&](auto policy) { blockRows<decltype(policy)>(queries, keys, values, w, b); });
  return b;
}

double averagePool(const std::vector<double>& values) {
  requireNonEmptyFiniteArray(values, "values");
  // Summed scaled, as predictions are, so that a sum beyond the largest double cannot overflow.
  const ValueRange range(values);
  rows::RowSums sums;
  sums.weightSum = static_cast<double>(values.size());
  for (double v : values) sums.weighted += v * range.scale;
  return range.average(sums, range.shift);
}

std::vector<double> predict(const std::vector<double>& queries, const std::vector<double>& keys,
                            const std::vector<double>& values, double w, Kernel kernel) {
  requirePredictionInputs(queries, keys, values, w);

  std::vector<double> out(queries.size());
  rows::withKernel(kernel, [&](auto policy) { predictRows<decltype(policy)>(queries, keys, values, w, out); });
  return out;
}

void requireWeightCells(const std::vector<double>& queries, const std::vector<double>& keys) {
  if (queries.size() > kMaxWeightCells / keys.size()) {
    throw Error(ErrorCode::tooLarge, "queries", "queries.length x keys.length must be at most " + std::to_string(kMaxWeightCells) +
                " cells, got " + std::to_string(queries.size()) + " x " + std::to_string(keys.size()));
  }
}

Matrix attentionWeights(const std::vector<double>& queries, const std::vector<double>& keys, double w,
                        Kernel kernel) {
  requireNonEmptyFiniteArray(queries, "queries");
  requireNonEmptyFiniteArray(keys, "keys");
  requireFinite(w, "w");
  requireWeightCells(queries, keys);

  Matrix m{queries.size(), keys.size(), std::vector<double>(queries.size() * keys.size()),
           std::vector<unsigned char>(queries.size())};
  rows::withKernel(kernel, [&](auto policy) { weightRows<decltype(policy)>(queries, keys, w, m); });
  return m;
}

}  // namespace nw
