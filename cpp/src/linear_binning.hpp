// Private to the core: linear binning (binned.cpp's sums). Each key's weight splits between the two grid
// points around it, the nearer one getting more; three sequences in one pass: counts (weight 1), values
// and their magnitudes. Two ways with the same results bit for bit: keys in any order, and sorted keys.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace nw::binning {

// Grid point k at lo + (k - margin) spacing, k < points (at least 2, or 4 with a margin), lo the
// smallest key or query. With a margin of 1 (cubic binning, cubic_binning.hpp) no key or query falls in
// the end cells: each has a grid point beyond either side of its own cell.
struct Cells {
  double lo, spacing;
  std::size_t points;
  std::size_t margin = 0;
};

// The cell [k, k + 1] a key falls in, and its place f in it (0 at k, 1 at k + 1); keys beyond either
// end go to the end cells (within the margin), at f 0 or 1. k never decreases as the key grows.
struct Place {
  std::size_t k;
  double f;
};

inline Place placeOf(const Cells& cells, double key) {
  // (+ margin: rounds by eps of t at most, within the place's rounding that the bounds allow for.)
  const double t = (key - cells.lo) / cells.spacing + static_cast<double>(cells.margin);
  const std::size_t first = cells.margin, last = cells.points - 2 - cells.margin;
  const std::size_t k = std::clamp(static_cast<std::size_t>(std::max(0.0, std::floor(t))), first, last);
  return {k, std::clamp(t - static_cast<double>(k), 0.0, 1.0)};
}

// Adds each key's shares to counts, weighted and magnitudes (zeroed, `points` long). Returns the most
// terms that any one grid point summed (its rounding grows with them).
// values: anything indexed by j (an array, or values computed as they are read).
template <class Values>
std::size_t binAny(const Cells& cells, const std::vector<double>& keys, const Values& values,
                   std::vector<double>& counts, std::vector<double>& weighted, std::vector<double>& magnitudes) {
  std::vector<std::uint32_t> terms(cells.points);
  for (std::size_t j = 0; j < keys.size(); ++j) {
    const auto [k, f] = placeOf(cells, keys[j]);
    const double v = values[j];
    counts[k] += 1.0 - f;
    counts[k + 1] += f;
    weighted[k] += (1.0 - f) * v;
    weighted[k + 1] += f * v;
    magnitudes[k] += (1.0 - f) * std::fabs(v);
    magnitudes[k + 1] += f * std::fabs(v);
    ++terms[k];
    ++terms[k + 1];
  }
  return *std::max_element(terms.begin(), terms.end());
}

// binAny for sorted keys: they fall on the grid in order, so a grid point's sums stay in registers
// while keys fall next to it, and are stored once it is passed. The same additions in the same order
// (a point first takes the shares of the keys below it, then of those above), so the same bits: binAny
// chains a load and a store through each point instead (a third of a binned loss at small w).
template <class Values>
std::size_t binSorted(const Cells& cells, const std::vector<double>& keys, const Values& values,
                      std::vector<double>& counts, std::vector<double>& weighted, std::vector<double>& magnitudes) {
  struct Sums {
    double count = 0.0, weighted = 0.0, magnitude = 0.0;
    std::size_t terms = 0;
  };
  std::size_t mostTerms = 0;
  const auto store = [&](std::size_t k, const Sums& sums) {
    counts[k] = sums.count;
    weighted[k] = sums.weighted;
    magnitudes[k] = sums.magnitude;
    mostTerms = std::max(mostTerms, sums.terms);
  };
  Sums left, right;  // grid points k and k + 1
  std::size_t k = 0;
  for (std::size_t j = 0; j < keys.size(); ++j) {
    const Place place = placeOf(cells, keys[j]);
    if (place.k != k) {
      store(k, left);  // passed: no later key falls next to it
      if (place.k == k + 1) {
        left = right;
      } else {
        store(k + 1, right);
        left = Sums{};
      }
      right = Sums{};
      k = place.k;
    }
    const double v = values[j], f = place.f;
    left.count += 1.0 - f;
    right.count += f;
    left.weighted += (1.0 - f) * v;
    right.weighted += f * v;
    left.magnitude += (1.0 - f) * std::fabs(v);
    right.magnitude += f * std::fabs(v);
    ++left.terms;
    ++right.terms;
  }
  store(k, left);
  store(k + 1, right);
  return mostTerms;
}

}  // namespace nw::binning
