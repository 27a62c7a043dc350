// Choosing w by minimising the leave-one-out loss directly (what training approaches step by step).
#pragma once

#include <vector>

#include "nw/training.hpp"

namespace nw {

struct BandwidthChoice {
  double w = 1.0;     // >= 0 (the loss is even in w)
  double loss = 0.0;  // looLoss at w
};

// Relative width, in w, of the bracket at which the golden-section search stops.
inline constexpr double kBandwidthTolerance = 1e-7;
inline constexpr int kBandwidthGridPoints = 64;

// A log-spaced grid of kBandwidthGridPoints values of w from 0.01 / span(x) (every key about equally
// weighted) to 100 / (smallest gap between distinct x) (each query sees only its nearest key) brackets
// the best grid point; a golden-section search on log w then narrows that bracket to
// kBandwidthTolerance. The result is the minimum within the best grid cell, so it is at least as good
// as every grid point. If all x are equal, every w gives the same loss and w = 1 is returned.
// Only for the trainable kernels (gaussian, epanechnikov, triangular); others throw nw::Error.
BandwidthChoice selectBandwidth(const std::vector<double>& x, const std::vector<double>& y, Objective objective = {});

}  // namespace nw
