// Gaussian Nadaraya-Watson sums for many keys, approximated by linear (or cubic) binning onto a grid and an FFT
// convolution (as KernSmooth does), each with a bound on its error computed alongside; the leave-one-out
// loss from them, for bandwidth selection where the exact sums are O(n^2).
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "nw/attention.hpp"
#include "nw/training.hpp"

namespace nw {

// The grid's spacing times w: the kernel's argument moves by this much from one grid point to the next.
// The sums' relative error bound is about 0.24 kBinnedSpacing^2 (about 1e-6) where keys are dense.
inline constexpr double kBinnedSpacing = 0.002;
// At most this many grid points (the spacing grows beyond, and the bounds with it).
inline constexpr std::size_t kMaxBinnedGrid = std::size_t{1} << 20;
// binnedLooLoss computes a row exactly when its prediction's bound exceeds this fraction of the range of y.
inline constexpr double kBinnedRowTolerance = 1e-6;

// For each query q: weightSum ~ sum_j K((q - x_j) w) and weighted ~ sum_j K((q - x_j) w) (y_j - shift) 2^e,
// K(u) = exp(-u^2 / 2) (so K(0) = 1), e = valueExponent, with |approximate - exact| <= the bounds. The
// bounds add the binning and interpolation errors (the grid spacing squared times the second derivative of
// K, summed against the keys near q; with cubic binning its fourth power times the fourth derivative),
// the kernel cut off beyond its reach, the rounding of the binning and
// of the keys' places on the grid, and the FFT's rounding (Higham's bound).
// shift is the middle of y's range and 2^e scales the largest |y - shift| into [1, 2): the two sums share
// one complex FFT, whose rounding is relative to both together, so neither may dwarf the other (values of
// 1e16 would drown the weight sums, values of 1e-20 drown in theirs). Predictions are thus shift- and
// scale-equivariant, and their bounds relative to the values' range.
// With slopes, the same two sums for the kernel u^2 K(u) too (u = (q - x_j) w): w d/dw of the weight sum
// is -slopeSum and of the weighted sum -slopeWeighted, for the loss's gradient.
struct BinnedSums {
  std::vector<double> weightSum, weighted;
  std::vector<double> weightSumBound, weightedBound;
  std::vector<double> slopeSum, slopeWeighted;  // empty without slopes
  std::vector<double> slopeSumBound, slopeWeightedBound;
  double shift = 0.0;
  int valueExponent = 0;
  std::size_t gridPoints = 0;
};

// Keys, values and queries: nonempty arrays of finite numbers (keys and values of one length); w finite
// and nonzero (the sums are even in w). Throws nw::Error naming the parameter otherwise, or if keys and
// queries together span more than a double holds.
// spacing: the grid's spacing times |w| (kBinnedSpacing unless a caller trades the bound for speed).
// cubic: cubic binning and interpolation (four grid points a key or a query, not two), whose bounds grow
// with the spacing's fourth power instead of its square: with a coarse spacing, a bound hundreds of times
// smaller for a little more work a key (not with slopes: nw::Error names cubic).
BinnedSums binnedGaussianSums(const std::vector<double>& keys, const std::vector<double>& values,
                              const std::vector<double>& queries, double w, bool withSlopes = false,
                              double spacing = kBinnedSpacing, bool cubic = false);

struct BinnedPrediction {
  // Each within the values' range, as every Nadaraya-Watson prediction is.
  std::vector<double> predictions;
  // |prediction - the exact Nadaraya-Watson prediction| <= bound, the final rounding included, and never
  // more than the values' range; +infinity where the weight sum's bound reaches the weight sum itself (a
  // query far from every key, where the sum could be 0): there the binned value says nothing.
  std::vector<double> bounds;
  std::size_t gridPoints = 0;
};

BinnedPrediction binnedPredict(const std::vector<double>& keys, const std::vector<double>& values,
                               const std::vector<double>& queries, double w);
// The same from sums already computed (binnedGaussianSums of those keys, values and queries), given the
// values' range [lo, hi].
BinnedPrediction binnedPredictFrom(const BinnedSums& sums, double lo, double hi);

// attentionBlocks' blocks (Gaussian kernel) from binned sums, for sorted keys: each query's weight sum
// comes from the grid (binnedGaussianSums), and each block's largest weight is its nearest key's kernel
// value over that sum (of sorted keys, the one nearest the query has the largest kernel value). O(queries
// x blocks + keys + grid), where attentionBlocks is O(queries x keys). A query whose weight sum's bound
// exceeds kBinnedRowTolerance of the sum (one far from every key, whose sum may underflow) is computed
// exactly, as attentionBlocks computes it, with bounds 0.
struct BinnedBlocks {
  BlockWeights blocks;                   // as attentionBlocks' (fallbackRows all 0: the Gaussian has none)
  std::vector<double> weightBounds;      // |each block's weight - attentionBlocks'| <= its bound
  std::vector<double> predictionBounds;  // given values: each prediction's, as binnedPredict's
  std::size_t exactRows = 0;             // queries computed exactly
  std::size_t gridPoints = 0;
};

// Throws nw::Error as attentionBlocks and binnedGaussianSums do, and naming keys unless they are sorted.
BinnedBlocks binnedAttentionBlocks(const std::vector<double>& queries, const std::vector<double>& keys,
                                   const std::vector<double>& values, double w, std::size_t maxBlockRows,
                                   std::size_t maxBlockCols);

// Blocks from binned sums beyond this many (query, key) pairs, where approximation is automatic: 100
// queries of 100,000 keys, some 40 ms exactly here (the binned ones take 10 to 30 ms at any count of queries).
inline constexpr double kExactBlockWork = 1e7;

// attentionBlocks, or with Approximation::automatic binnedAttentionBlocks where the exact blocks would
// visit more than kExactBlockWork pairs and the binned ones apply (the Gaussian kernel, sorted keys, w
// nonzero). approximate says which: false leaves the bounds empty.
struct ChosenBlocks : BinnedBlocks {
  bool approximate = false;
};
ChosenBlocks chooseAttentionBlocks(const std::vector<double>& queries, const std::vector<double>& keys,
                                   const std::vector<double>& values, double w, Kernel kernel, std::size_t maxBlockRows,
                                   std::size_t maxBlockCols, Approximation approximation);

struct BinnedLoss {
  // looLoss's loss and (with the gradient) grad, d loss / dw, approximately: each within its bound of the
  // exact value (looLoss's own rounding aside: at a large offset in y it rounds more than the binned loss,
  // whose residuals are taken in the shifted frame).
  double loss = 0.0, bound = 0.0;
  double grad = 0.0, gradBound = 0.0;
  std::size_t exactRows = 0;  // rows whose bound exceeded kBinnedRowTolerance, computed exactly
  std::size_t gridPoints = 0;
  // Rows summed: all of them, unless the rows summed so far passed BinnedTradeoff::stopAbove (then loss
  // and bound are theirs, and loss - bound, a lower bound on their exact sum, is one on the whole loss).
  std::size_t rowsSummed = 0;
};

// The Gaussian Nadaraya-Watson leave-one-out (or in-sample) loss from binned sums; rows whose
// prediction's bound exceeds kBinnedRowTolerance times the range of y are summed exactly instead.
// Only for objective.kernel gaussian and estimator nadarayaWatson (others throw nw::Error).
// withGradient also gives the gradient and its bound (three more convolutions), rows summed exactly
// included.
// How binnedLooLoss trades its bound for speed: the grid's spacing times |w|, the fraction of the range
// of y beyond which a row's bound has it summed exactly (+infinity: never, whatever the bound), and
// cubic binning (as binnedGaussianSums'; not with the gradient), and a value that the loss's lower
// bound need only pass (a search's best so far): the rows stop once theirs does (not with the gradient).
struct BinnedTradeoff {
  double spacing = kBinnedSpacing;
  double rowTolerance = kBinnedRowTolerance;
  bool cubic = false;
  double stopAbove = INFINITY;
};

BinnedLoss binnedLooLoss(const std::vector<double>& x, const std::vector<double>& y, double w, Objective objective = {},
                         bool withGradient = false, BinnedTradeoff tradeoff = {});

// Estimated work of each path for looLoss at w, in key-pair visits (for choosing between them).
// exactLooWork stops counting once the count passes `enough`, and then returns a count above it (at
// most the full one): a comparison with anything up to `enough` comes out as the full count's would.
double exactLooWork(const std::vector<double>& sortedX, double w, double enough = INFINITY);
// binnedLooWork assumes every row summed exactly where the grid is capped, unless rowsMayGoExact is false
// (a row tolerance of +infinity).
double binnedLooWork(const std::vector<double>& x, double w, double spacing = kBinnedSpacing, bool rowsMayGoExact = true);
// binnedLooWork's grid and binning alone, for n keys spanning `span` (no pass over the keys).
double binnedGridWork(double span, std::size_t n, double w, double spacing = kBinnedSpacing, bool cubic = false);
// For keys and queries spanning `span`: whether binnedLooWork counts the grid as capped at kMaxBinnedGrid
// (its rows then summed exactly), and the spacing times |w| the grid gets (`spacing`, or a coarser one
// where the cap applies).
bool binnedGridCapped(double span, double w, double spacing = kBinnedSpacing);
double binnedSpacingUsed(double span, double w, double spacing, bool cubic = false);

}  // namespace nw
