// Choosing w by minimising the leave-one-out loss directly (what training approaches step by step).
#pragma once

#include <vector>

#include "nw/training.hpp"

namespace nw {

// Where the best loss was found: at a finite w > 0, or at one of the loss's two limits.
enum class BandwidthLimit {
  none,      // a finite w > 0
  zero,      // w = 0: average pooling (every key equally weighted)
  infinity,  // w -> infinity: each query predicts its nearest keys' mean (w is reported as +infinity)
};

struct BandwidthChoice {
  double w = 1.0;     // >= 0 (the loss is even in w); +infinity at BandwidthLimit::infinity
  double loss = 0.0;  // looLoss at w (at infinity: the nearest-neighbour loss, its limit)
  BandwidthLimit atLimit = BandwidthLimit::none;
};

// Relative width, in w, of the bracket at which the golden-section search stops.
inline constexpr double kBandwidthTolerance = 1e-7;
inline constexpr int kBandwidthGridPoints = 64;
// At most this many more grid points beyond 100 / smallest gap, for near-tied neighbours (see bandwidthGrid).
inline constexpr int kBandwidthExtraPoints = 192;
// Where a weight ratio of exp(-kSplitExponent) counts as one neighbour taking all (exp underflows near -745).
inline constexpr double kSplitExponent = 750.0;
// Local minima of the grid refined by golden-section search, best first.
inline constexpr int kBandwidthRefinements = 16;

// The leave-one-out loss as w -> infinity: each query predicts the mean of its nearest keys' values.
double nearestNeighbourLoss(const std::vector<double>& x, const std::vector<double>& y, bool leaveOneOut);

// The w grid selectBandwidth evaluates: kBandwidthGridPoints values log-spaced from 0.01 / span(x) to
// 100 / (smallest gap between distinct x), both computed in logarithms so that a span that overflows or a
// gap near 1e-308 still gives finite w (the grid stops at the largest double), then, at the same spacing,
// up to kBandwidthExtraPoints more where a point's two neighbours are almost equally near, until w splits
// them (their squared distances times w^2 / 2 differ by kSplitExponent). Empty if all x are equal.
std::vector<double> bandwidthGrid(const std::vector<double>& x);

// What is guaranteed, and no more: the loss is evaluated on bandwidthGrid(x), at w = 0 and at the limit
// w -> infinity (both exactly); the best kBandwidthRefinements local minima of the grid are narrowed by
// golden-section search on log w to kBandwidthTolerance. The result is never worse than any grid point or
// either limit, and atLimit says when it is a limit. A dip narrower than the grid's spacing (a factor of
// about 1.5 to 2 in w) may still be missed: this is not a proof of the global minimum. If all x are equal,
// every w gives the same loss and w = 1 is returned.
// Only for the trainable kernels (gaussian, epanechnikov, triangular); others throw nw::Error.
BandwidthChoice selectBandwidth(const std::vector<double>& x, const std::vector<double>& y, Objective objective = {});

}  // namespace nw
