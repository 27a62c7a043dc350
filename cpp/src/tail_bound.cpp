// TailBound's rows: each row's nearest keys and the pull the others can still exert at w >= w1.
#include "tail_bound.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "gaussian_rows.hpp"

namespace nw {

namespace {

// Each other key's K(w1) is computed within a few ulps of its exponent (at most windowExponent(n) / 2,
// about 56 at n = 10^6), and the loss computes its own scores, at any w >= w1, as closely: 2^-38
// (3.6e-12) covers both many times over.
constexpr double kWeightSlack = 1.0 + 0x1p-38;
// Keys weighing less than e^-30 (9.4e-14) in a row are only counted (see rowBound): all n of them would
// move its prediction by n e^-30 of the values' spread at most (1e-7 at n = 1,000,000).
constexpr double kNegligible = 30.0;
// The rows' sum, rounded at each of up to n additions, lowered generously (as SettledRows does).
constexpr double kSumSlack = 1.0 - 0x1p-30;

}  // namespace

TailBound::TailBound(const std::vector<double>& sortedX, const std::vector<double>& y, bool leaveOneOut)
    : x_(sortedX), y_(y), leaveOneOut_(leaveOneOut) {
  double largest = 0.0;
  for (double v : y) largest = std::max(largest, std::fabs(v));
  largest_ = largest;
  // The loss's prediction rounds its two sums of up to n terms (n eps of the largest value, twice), ybar
  // and the residual round too: 8 (n + 2) eps of the largest covers them, with 2^-38 for the weights'
  // own errors (a relative error d in the weights moves a weighted mean by at most 2 d / (1 - d) of
  // the values' spread).
  margin_ = (0x1p-36 + 8.0 * (static_cast<double>(y.size()) + 2.0) * std::numeric_limits<double>::epsilon()) * largest;
}

double TailBound::rowBound(std::size_t j, double w1) const {
  const double* x = x_.data();
  const double* y = y_.data();
  const std::size_t n = x_.size();
  const double query = x[j];
  // The nearest distance as the loss finds it (0 when the row keeps its own key); over sorted keys the
  // distances grow on each side of the row, so its nearest keys lie next to it: [lo, hi) holds them (and
  // the row's own key, which counts among them only when it is not left out).
  const double left = j > 0 ? std::fabs(query - x[j - 1]) : INFINITY;
  const double right = j + 1 < n ? std::fabs(query - x[j + 1]) : INFINITY;
  const double dMin = leaveOneOut_ ? std::min(left, right) : 0.0;
  if (!(dMin < INFINITY)) return 0.0;  // a distance that overflows: no bound
  std::size_t lo = j, hi = j + 1;
  double nearestSum = leaveOneOut_ ? 0.0 : y[j], nearestCount = leaveOneOut_ ? 0.0 : 1.0;
  for (; lo > 0 && std::fabs(query - x[lo - 1]) == dMin; --lo) nearestSum += y[lo - 1], nearestCount += 1.0;
  for (; hi < n && std::fabs(query - x[hi]) == dMin; ++hi) nearestSum += y[hi], nearestCount += 1.0;
  const double mean = nearestSum / nearestCount;
  // E+ and E- from the keys outward on each side, while they weigh at least e^-kNegligible; the keys
  // beyond on that side (at most n of them) are only counted, each weighing less and pulling by at most
  // largest + |mean|. (A window, which the loss uses, would count fewer, but finding it cost more.)
  double pullUp = 0.0, pullDown = 0.0;
  const auto add = [&](std::size_t i, double halfT, double weight) {
    const double pull = y[i] - mean;
    (pull > 0.0 ? pullUp : pullDown) += (halfT == halfT ? weight : 1.0) * std::fabs(pull);  // (NaN: in full)
  };
  // t/2, t = ((d - d0) w1)(d w1 + d0 w1) as rows::Gaussian::exponent forms it (no overflow; no key
  // visited lies at d0), for the next key on each side at once.
  const vec::f64x2 q = vec::splat(query), lowest = vec::splat(dMin), w = vec::splat(w1), lowestW = vec::splat(dMin * w1);
  const auto halfExponents = [&](double keyLeft, double keyRight) {
    const vec::f64x2 dist = vec::abs(q - vec::f64x2{keyLeft, keyRight});
    return vec::splat(0.5) * (((dist - lowest) * w) * (dist * w + lowestW));
  };
  std::size_t first = lo, end = hi;  // the keys visited: [first, end)
  bool leftOn = first > 0, rightOn = end < n;
  while (leftOn || rightOn) {
    const vec::f64x2 halfT = halfExponents(leftOn ? x[first - 1] : query, rightOn ? x[end] : query);
    const vec::f64x2 weights = vec::expNonPositive(-halfT);
    leftOn = leftOn && !(halfT[0] > kNegligible);
    rightOn = rightOn && !(halfT[1] > kNegligible);
    if (leftOn) add(--first, halfT[0], weights[0]), leftOn = first > 0;
    if (rightOn) add(end++, halfT[1], weights[1]), rightOn = end < n;
  }
  const double rest = static_cast<double>(first + (n - end)) * std::exp(-kNegligible) * (largest_ + std::fabs(mean));
  const double residual = y[j] - mean;
  const double pull = kWeightSlack * ((residual > 0.0 ? pullUp : pullDown) * kWeightSlack + rest) / nearestCount;
  const double lowered = std::fabs(residual) - pull - margin_;
  // (A residual or pull that overflows says nothing: no bound from this row.)
  return lowered > 0.0 && lowered < INFINITY ? lowered * lowered : 0.0;
}

bool TailBound::above(double w1, double limit, double& bound) const {
  double sum = 0.0;
  for (std::size_t j = 0; j < x_.size(); ++j) {
    sum += rowBound(j, w1);
    if (kSumSlack * sum > limit) {
      bound = kSumSlack * sum;
      return true;
    }
  }
  bound = kSumSlack * sum;
  return false;
}

double TailBound::estimate(double w1) const {
  const std::size_t stride = std::max<std::size_t>(1, x_.size() / kEstimateRows);
  double sum = 0.0;
  for (std::size_t j = 0; j < x_.size(); j += stride) sum += rowBound(j, w1);
  return sum * static_cast<double>(stride);
}

}  // namespace nw
