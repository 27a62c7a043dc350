// The corrected AIC of Hurvich, Simonoff and Tsai (1998) for a smoother, to choose w without leaving points out.
#pragma once

#include <vector>

#include "nw/options.hpp"

namespace nw {

// The AIC needs tr(H) < n - 2 somewhere: the local line's tr(H) is 2 at w = 0 (a least-squares line).
inline constexpr std::size_t kMinAicPoints = 5;

struct AicResult {
  // AICc = log(sigma2) + (1 + tr(H) / n) / (1 - (tr(H) + 2) / n), where tr(H) < n - 2; +infinity where
  // tr(H) >= n - 2 (past the pole, where the penalty's denominator reaches 0 and then changes sign);
  // -infinity if the fit is exact (sigma2 = 0).
  double aic = 0.0;
  double sigma2 = 0.0;  // (1 / n) sum_i (y_i - yhat_i)^2, each yhat_i fitted with its own key in
  double trace = 0.0;   // tr(H) = sum_i H_ii, H_ii the weight of key i in its own fitted value
  // dAICc/dw, analytic (from dK/dw as looLoss's); 0 where aic is infinite, and at w = 0.
  double grad = 0.0;
};

// In-sample fit (no point left out) of the estimator at w: its AICc and parts. H_ii is K(0) / sum_j K_ij
// for Nadaraya-Watson and K(0) (S2 - S1 d_i) / (S0 S2 - S1^2) with d_i = 0 for the local line (a
// singular row counts as Nadaraya-Watson, as it predicts). tr(H) grows from 1 (2 for the local line)
// at w = 0 towards the number of distinct x as w grows: the pole lies at small bandwidths, large w.
// Throws nw::Error unless x and y are a valid training set (requireTrainingSet).
AicResult aicLoss(const std::vector<double>& x, const std::vector<double>& y, double w, Kernel kernel = Kernel::gaussian,
                  Estimator estimator = Estimator::nadarayaWatson);

// The limit of aicLoss as w -> infinity: each point fitted by the mean of its duplicates (itself
// included), H_ii = 1 / (its number of duplicates), so tr(H) = the number of distinct x.
AicResult aicAtInfinity(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace nw
