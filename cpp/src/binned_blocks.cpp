// attentionBlocks from binned sums (binned.hpp): a heatmap of 2000 queries over 100,000 keys in tens of
// milliseconds, where the exact blocks visit every (query, key) pair (half a second here).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "nw/binned.hpp"
#include "nw/error.hpp"
#include "nw/validate.hpp"

namespace nw {

namespace {

constexpr double kEpsilon = std::numeric_limits<double>::epsilon();

// A block's weight w_ij and where it comes from, kept if it is the block's largest so far (the first
// of equal weights, as attentionBlocks keeps them: keys in order, queries in order).
void keepLargest(BlockWeights& b, std::size_t block, double weight, std::size_t row, std::size_t col) {
  if (weight > b.weight[block]) {
    b.weight[block] = weight;
    b.row[block] = row;
    b.col[block] = col;
  }
}

// Query i computed exactly, as attentionBlocks computes it alone (its column blocks are b's: the same
// keys and maxBlockCols give the same colStep), merged into its row of blocks; its bounds stay 0.
void exactRow(BinnedBlocks& out, const std::vector<double>& queries, std::size_t i, const std::vector<double>& keys,
              const std::vector<double>& values, double w, std::size_t maxBlockCols) {
  BlockWeights& b = out.blocks;
  const BlockWeights row = attentionBlocks({queries[i]}, keys, values, w, Kernel::gaussian, 1, maxBlockCols);
  for (std::size_t c = 0; c < b.blockCols; ++c) keepLargest(b, (i / b.rowStep) * b.blockCols + c, row.weight[c], i, row.col[c]);
  if (!values.empty()) {
    b.predictions[i] = row.predictions[0];
    out.predictionBounds[i] = 0.0;
  }
  ++out.exactRows;
}

}  // namespace

BinnedBlocks binnedAttentionBlocks(const std::vector<double>& queries, const std::vector<double>& keys,
                                   const std::vector<double>& values, double w, std::size_t maxBlockRows,
                                   std::size_t maxBlockCols) {
  requireNonEmptyFiniteArray(queries, "queries");
  requireNonEmptyFiniteArray(keys, "keys");
  const bool withValues = !values.empty();
  if (withValues) {
    requireFiniteArray(values, "values");
    requireSameLength(keys, "keys", values, "values");
  }
  if (!std::is_sorted(keys.begin(), keys.end())) {
    throw Error(ErrorCode::notApplicable, "keys", "keys must be sorted for blocks from binned sums");
  }
  BinnedBlocks out;
  out.blocks = emptyBlocks(queries.size(), keys.size(), maxBlockRows, maxBlockCols, withValues);
  // (Without values the weight sums alone are wanted: zeros leave them as they are.)
  const BinnedSums sums = binnedGaussianSums(keys, withValues ? values : std::vector<double>(keys.size(), 0.0), queries, w);
  out.gridPoints = sums.gridPoints;
  BlockWeights& b = out.blocks;
  out.weightBounds.assign(b.weight.size(), 0.0);
  if (withValues) {
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    BinnedPrediction p = binnedPredictFrom(sums, *lo, *hi);
    b.predictions = std::move(p.predictions);
    out.predictionBounds = std::move(p.bounds);
  }
  const std::size_t n = keys.size();
  // attentionBlocks' own rounding: its weight sum adds n terms (and the exp, the shift and the division a
  // few ulps more), each within eps of the weight relatively.
  const double exactRounding = (static_cast<double>(n) + 8.0) * kEpsilon;
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const double sum = sums.weightSum[i], sumBound = sums.weightSumBound[i];
    if (!(sumBound <= kBinnedRowTolerance * sum)) {
      exactRow(out, queries, i, keys, values, w, maxBlockCols);
      continue;
    }
    // |1/S - 1/sum| <= sumBound / (sum (sum - sumBound)) for the exact sum S within sumBound of sum.
    const double inverse = 1.0 / sum;
    const double inverseBound = sumBound / (sum * (sum - sumBound)) * (1.0 + 4.0 * kEpsilon);
    const double q = queries[i];
    const std::size_t above = static_cast<std::size_t>(std::lower_bound(keys.begin(), keys.end(), q) - keys.begin());
    const std::size_t rowBase = (i / b.rowStep) * b.blockCols;
    for (std::size_t c = 0; c < b.blockCols; ++c) {
      const std::size_t first = c * b.colStep, last = std::min(first + b.colStep, n) - 1;
      // The block's key nearest q (the first of two as near).
      std::size_t j = first;
      if (above > last) {
        j = last;
      } else if (above > first) {
        j = q - keys[above - 1] <= keys[above] - q ? above - 1 : above;
      }
      const double u = std::fabs(q - keys[j]) * std::fabs(w);
      const double kernel = std::exp(-0.5 * u * u);
      // (A weight is at most 1: clamping moves an estimate only towards the exact value.)
      const double weight = std::min(kernel * inverse, 1.0);
      const double bound = kernel * inverseBound + (exactRounding + 4.0 * kEpsilon) * weight;
      keepLargest(b, rowBase + c, weight, i, j);
      // (Any query of the block may hold its exact largest weight: the block's bound is its rows' largest.)
      out.weightBounds[rowBase + c] = std::max(out.weightBounds[rowBase + c], bound);
    }
  }
  return out;
}

ChosenBlocks chooseAttentionBlocks(const std::vector<double>& queries, const std::vector<double>& keys,
                                   const std::vector<double>& values, double w, Kernel kernel, std::size_t maxBlockRows,
                                   std::size_t maxBlockCols, Approximation approximation) {
  ChosenBlocks out;
  out.approximate = approximation == Approximation::automatic && kernel == Kernel::gaussian && w != 0.0 &&
                    static_cast<double>(queries.size()) * static_cast<double>(keys.size()) > kExactBlockWork &&
                    std::is_sorted(keys.begin(), keys.end());
  if (out.approximate) {
    static_cast<BinnedBlocks&>(out) = binnedAttentionBlocks(queries, keys, values, w, maxBlockRows, maxBlockCols);
  } else {
    out.blocks = attentionBlocks(queries, keys, values, w, kernel, maxBlockRows, maxBlockCols);
  }
  return out;
}

}  // namespace nw
