// The Gaussian attention score of one key, already shifted by the row's best score (log-sum-exp trick).
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

namespace nw {

// The shifted score's exponent t = w^2 (d^2 - dMin^2) >= 0 for a key at distance d = |q - k|, where
// dMin is the row's smallest distance. Formed as ((d - dMin) w)((d + dMin) w), so no w, however large
// or small, and no distance, even one that overflowed to infinity, gives inf - inf or 0 * inf.
inline double scoreExponent(double d, double dMin, double w) {
  if (d == dMin || w == 0.0) return 0.0;
  return ((d - dMin) * w) * ((d + dMin) * w);
}

// exp(s - s_max) with s = -((q - k) w)^2 / 2: the nearest key scores exactly 1, so a row's sum is >= 1.
inline double gaussianScore(double d, double dMin, double w) { return std::exp(-0.5 * scoreExponent(d, dMin, w)); }

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
