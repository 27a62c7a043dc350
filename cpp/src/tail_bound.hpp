// Private to the core: a lower bound on the Gaussian leave-one-out loss at every w beyond a given one,
// in one pass over the rows, so that a bandwidth search can stop well before the rows settle (SettledRows).
#pragma once

#include <cstddef>
#include <vector>

namespace nw {

// For a row with nearest keys N0 (m0 of them, at the nearest distance d0, mean ybar), every other key
// weighs K = exp(-(d^2 - d0^2) w^2 / 2) against their 1 each, and K only falls as w grows. So at every
// w >= w1 the prediction f lies within
//   ybar - E-(w1) / m0  <=  f  <=  ybar + E+(w1) / m0,   E+-(w1) = sum of K(w1) |y - ybar| over the keys
// above (+) or below (-) ybar,
// and the row's squared residual is at least that of y_row's distance to this interval (on the side of
// ybar where y_row lies, only the keys on that side can pull f towards it). The keys are visited outward
// from the row while they weigh at least e^-30; those beyond are counted with that weight. The rows'
// sum, lowered for rounding, bounds the loss (before its scale) at every w >= w1 from below. At
// n = 1,000,000 of the chapter's data it passes the best loss from w of about 350,000, where the settled
// rows pass it only past 3,000,000.
class TailBound {
 public:
  // Sorted keys (ties allowed) with their values; at least 2 of them.
  TailBound(const std::vector<double>& sortedX, const std::vector<double>& y, bool leaveOneOut);

  // Whether the bound at w1 (> 0) exceeds `limit` (the loss before its scale); the rows are summed only
  // until they pass it. `bound` is set to the sum reached (a lower bound of the loss when it is true).
  bool above(double w1, double limit, double& bound) const;
  // The bound at w1 from every k-th row (about kEstimateRows of them), times k: not a bound, only a
  // cheap guess at one, for deciding whether computing it may pay.
  double estimate(double w1) const;

  static constexpr std::size_t kEstimateRows = 4096;

 private:
  // Row j's squared residual at every w >= w1, from below.
  double rowBound(std::size_t j, double w1) const;

  const std::vector<double>& x_;
  const std::vector<double>& y_;
  bool leaveOneOut_;
  double largest_;  // the largest |y|
  double margin_;   // rounding, lowered from each row's residual
};

}  // namespace nw
