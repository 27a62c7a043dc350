// The Gaussian attention score of one key, already shifted by the row's best score (log-sum-exp trick).
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

namespace nw {

// exp(s - s_max) with s = -((q - k) w)^2 / 2, given d = |q - k| and the row's smallest distance dMin.
// Written as (d - dMin) w * (d + dMin) w so that no w, however large or small, gives inf - inf or 0/0:
// the nearest key always scores exactly 1, so a row's sum is at least 1.
inline double gaussianScore(double d, double dMin, double w) {
  if (d == dMin) return 1.0;
  return std::exp(-0.5 * (((d - dMin) * w) * ((d + dMin) * w)));
}

// The smallest |query - key| over keys, skipping index `skip` (pass keys.size() to skip none).
inline double nearestDistance(double query, const std::vector<double>& keys, std::size_t skip) {
  double best = INFINITY;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i == skip) continue;
    const double d = std::fabs(query - keys[i]);
    if (d < best) best = d;
  }
  return best;
}

}  // namespace nw
