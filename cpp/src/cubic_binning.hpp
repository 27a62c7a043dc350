// Private to the core: cubic binning (binned.cpp's sums where a coarse grid must stay accurate). Each
// key's weight spreads over the four grid points around it with the cubic Lagrange weights of its place,
// so that a smooth kernel summed over the binned keys differs from its sum over the keys by the
// interpolation error of a cubic: fourth order in the spacing, where linear binning's is second order.
// Some of the weights are negative; their magnitudes add to at most 1.25 a key.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "linear_binning.hpp"

namespace nw::binning {

// The cubic Lagrange weights on the points -1, 0, 1, 2 at f in [0, 1]; they sum to 1, their magnitudes to
// at most 1.25 (at f = 1/2: 1/16 + 9/16 + 9/16 + 1/16), and each rounds by at most 8 eps of itself.
struct CubicWeights {
  double w[4];
};

inline CubicWeights cubicWeights(double f) {
  const double a = f + 1.0, c = f - 1.0, d = f - 2.0;
  return {{-(f * c * d) / 6.0, (a * c * d) / 2.0, -(a * f * d) / 2.0, (a * f * c) / 6.0}};
}

// The binned sequences cubic binning gives (each `points` long, zeroed): counts and values with the cubic
// weights, and for the bounds (which need weights of one sign) counts and value magnitudes binned
// linearly, as binAny bins them.
struct CubicBinned {
  std::vector<double>& counts;
  std::vector<double>& values;
  std::vector<double>& linearCounts;
  std::vector<double>& magnitudes;
};

// Keys in any order, on cells with a margin of 1. Returns the most terms any one grid point summed.
// Sorted keys fall on a cell in runs: each run's sums are kept in registers and added to the grid once.
// values: as binAny's.
template <class Values>
std::size_t binCubic(const Cells& cells, const std::vector<double>& keys, const Values& values, CubicBinned out) {
  std::vector<std::uint32_t> terms(cells.points);
  std::size_t j = 0;
  Place place = keys.empty() ? Place{0, 0.0} : placeOf(cells, keys[0]);  // key j's, placed once
  while (j < keys.size()) {
    const std::size_t k = place.k;
    double counts[4] = {0.0, 0.0, 0.0, 0.0}, sums[4] = {0.0, 0.0, 0.0, 0.0};
    double linearCounts[2] = {0.0, 0.0}, magnitudes[2] = {0.0, 0.0};
    std::uint32_t run = 0;
    for (; j < keys.size() && place.k == k; ++run) {
      const CubicWeights l = cubicWeights(place.f);
      const double v = values[j], f = place.f;
      for (int i = 0; i < 4; ++i) {
        counts[i] += l.w[i];
        sums[i] += l.w[i] * v;
      }
      linearCounts[0] += 1.0 - f;
      linearCounts[1] += f;
      magnitudes[0] += (1.0 - f) * std::fabs(v);
      magnitudes[1] += f * std::fabs(v);
      if (++j < keys.size()) place = placeOf(cells, keys[j]);
    }
    for (std::size_t i = 0; i < 4; ++i) {
      out.counts[k - 1 + i] += counts[i];
      out.values[k - 1 + i] += sums[i];
      terms[k - 1 + i] += run;
    }
    for (std::size_t i = 0; i < 2; ++i) {
      out.linearCounts[k + i] += linearCounts[i];
      out.magnitudes[k + i] += magnitudes[i];
    }
  }
  std::uint32_t most = 0;
  for (std::uint32_t t : terms) most = most > t ? most : t;
  return most;
}

}  // namespace nw::binning
