// Local-linear attention pooling: at each query, a line fitted to the keys by weighted least squares
// (weights K((query - key) w)), read at the query; Nadaraya-Watson is the same fit with a constant.
// The Estimator enum is in options.hpp.
#pragma once

#include <vector>

#include "nw/kernel.hpp"

namespace nw {

// When the local design is singular. With d_i = x_i - x and S_k = sum_i K_i d_i^k, the fit needs the
// determinant S0 S2 - S1^2 > 0, which cancels badly when it is small. It is computed as S0 M2, with the
// weighted spread M2 = sum_i K_i (d_i - dbar)^2 around the weighted mean dbar = S1 / S0 (two passes, no
// cancellation), and the design counts as singular when M2 <= kSingularDesign S2, that is when
// (S0 S2 - S1^2) / (S0 S2) <= kSingularDesign: the keys in reach are, relative to their distance from
// the query, all at one place (a single key in reach, or only duplicates of one key). Away from it, the
// local line's value at the query stays within 1 / sqrt(kSingularDesign) = 1e5 times the spread of the
// values around the Nadaraya-Watson value (Cauchy-Schwarz), so it can extrapolate, but never explode.
inline constexpr double kSingularDesign = 1e-10;

struct LocalLinearFit {
  std::vector<double> predictions;
  // 1 for a query whose design is singular (see kSingularDesign; also a compact kernel's query with no
  // key in its support, or a line whose value overflows the double range): it predicts the
  // Nadaraya-Watson value, exactly as predict() gives it.
  std::vector<unsigned char> fallbackRows;
};

// The local-linear prediction at each query; O(1) memory per query. Costs about two Nadaraya-Watson
// predictions (a second pass over each row's keys); for the Gaussian kernel with sorted keys a row visits
// every key whose weight is not exactly 0 (not only the 2^-60 window of predict).
LocalLinearFit localLinear(const std::vector<double>& queries, const std::vector<double>& keys,
                           const std::vector<double>& values, double w, Kernel kernel = Kernel::gaussian);

}  // namespace nw
