// Private to the core: a lower bound on the leave-one-out loss at every large w, from the rows that
// have settled on their nearest keys, so that a bandwidth search can stop where no larger w can win.
#pragma once

#include <cstddef>
#include <vector>

namespace nw {

// As w grows, each Gaussian row's prediction settles on the mean of its nearest keys: once every other
// key has t = w^2 (d^2 - d1^2) >= windowExponent(n), those keys together weigh less than 2^-60 of the
// row, and the prediction lies within 2^-60 of the values' range of that mean (d1 the nearest distance,
// d the next distinct one). A settled row's squared residual is then at least its limit's, lowered by
// that margin (and a generous one for rounding); an unsettled row's is at least 0. The sum over the
// rows settled by w is thus a lower bound on the loss at w, and at every larger w too (rows only settle).
class SettledRows {
 public:
  // Sorted keys (ties allowed) with their values; at least 2 of them.
  SettledRows(const std::vector<double>& sortedX, const std::vector<double>& y, bool leaveOneOut);

  // The smallest w beyond which the lower bound (times `scale`, the loss's) exceeds `loss`: no w >= it
  // can give a loss below `loss`. +infinity if the bound never gets there.
  double beyondWhichAbove(double loss, double scale) const;

 private:
  std::vector<double> settleW_;  // ascending
  std::vector<double> bound_;    // bound_[k]: the lowered squares of the rows settleW_[0..k] settle, summed
};

}  // namespace nw
