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
constexpr double kTinyWeight = 4.0 * std::numeric_limits<double>::denorm_min();

bool allFinite(const std::vector<double>& values) {
  return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
}

// A block's weight w_ij and where it comes from, kept if it is the block's largest so far (the first
// of equal weights, as attentionBlocks keeps them: keys in order, queries in order).
void keepLargest(BlockWeights& b, std::size_t block, double weight, std::size_t row, std::size_t col) {
  if (weight > b.weight[block]) {
    b.weight[block] = weight;
    b.row[block] = row;
    b.col[block] = col;
  }
}

// The queries `rows` computed exactly, by attentionBlocks passes of one block row per query (in chunks of
// at most kMaxBlocksPerSide queries; their column blocks are b's: the same keys and maxBlockCols give the
// same colStep), merged into their rows of blocks; their bounds stay 0.
void exactRows(BinnedBlocks& out, const std::vector<double>& queries, const std::vector<std::size_t>& rows,
               const std::vector<double>& keys, const std::vector<double>& values, double w, std::size_t maxBlockCols) {
  BlockWeights& b = out.blocks;
  for (std::size_t first = 0; first < rows.size(); first += kMaxBlocksPerSide) {
    const std::size_t count = std::min(rows.size() - first, kMaxBlocksPerSide);
    std::vector<double> some(count);
    for (std::size_t r = 0; r < count; ++r) some[r] = queries[rows[first + r]];
    const BlockWeights exact = attentionBlocks(some, keys, values, w, Kernel::gaussian, count, maxBlockCols);
    for (std::size_t r = 0; r < count; ++r) {
      const std::size_t i = rows[first + r];
      for (std::size_t c = 0; c < b.blockCols; ++c) {
        keepLargest(b, (i / b.rowStep) * b.blockCols + c, exact.weight[r * exact.blockCols + c], i, exact.col[r * exact.blockCols + c]);
      }
      if (!values.empty()) {
        b.predictions[i] = exact.predictions[r];
        out.predictionBounds[i] = 0.0;
      }
    }
  }
  out.exactRows = rows.size();
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
  std::vector<std::size_t> exact;  // the queries computed exactly, after the others
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const double sum = sums.weightSum[i], sumBound = sums.weightSumBound[i];
    if (!(sumBound <= kBinnedRowTolerance * sum)) {
      exact.push_back(i);
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
      // The last term: a kernel value that underflows (or is subnormal) here, where the exact weight,
      // taken relative to the nearest key's, need not: the sum is at least about 1e-5 (its bound, some
      // eps n in all, is within 1e-6 of it), so such weights differ by a few of the smallest subnormals.
      const double bound = kernel * inverseBound + (exactRounding + 4.0 * kEpsilon) * weight + kTinyWeight * (1.0 + inverse);
      keepLargest(b, rowBase + c, weight, i, j);
      // (Any query of the block may hold its exact largest weight: the block's bound is its rows' largest.)
      out.weightBounds[rowBase + c] = std::max(out.weightBounds[rowBase + c], bound);
    }
  }
  exactRows(out, queries, exact, keys, values, w, maxBlockCols);
  return out;
}

ChosenBlocks chooseAttentionBlocks(const std::vector<double>& queries, const std::vector<double>& keys,
                                   const std::vector<double>& values, double w, Kernel kernel, std::size_t maxBlockRows,
                                   std::size_t maxBlockCols, Approximation approximation) {
  ChosenBlocks out;
  out.approximate = approximation == Approximation::automatic && kernel == Kernel::gaussian && std::isfinite(w) && w != 0.0 &&
                    static_cast<double>(queries.size()) * static_cast<double>(keys.size()) > kExactBlockWork &&
                    allFinite(queries) && allFinite(keys) && std::is_sorted(keys.begin(), keys.end());
  if (out.approximate) {
    // A grid capped at kMaxBinnedGrid (keys and queries spread over many kernel widths) leaves its rows
    // to be computed exactly: the exact blocks at once are cheaper.
    const auto [qLo, qHi] = std::minmax_element(queries.begin(), queries.end());
    out.approximate = !binnedGridCapped(std::max(keys.back(), *qHi) - std::min(keys.front(), *qLo), w);
  }
  if (out.approximate) {
    static_cast<BinnedBlocks&>(out) = binnedAttentionBlocks(queries, keys, values, w, maxBlockRows, maxBlockCols);
  } else {
    out.blocks = attentionBlocks(queries, keys, values, w, kernel, maxBlockRows, maxBlockCols);
  }
  return out;
}

}  // namespace nw
