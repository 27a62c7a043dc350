// Data for the binned sums' tests: keys of three kinds, uniform, clumped (two tight clusters and a lone
// far key) and with a wide gap, sorted, and values 2 sin x + 3 with noise of sd 0.5; their exact sums.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "nw/random.hpp"

namespace binned_samples {

struct Sample {
  std::vector<double> x, y;
};

inline Sample sample(int kind, std::size_t n, std::uint64_t seed) {
  nw::Random rng(seed);
  Sample s;
  for (std::size_t i = 0; i < n; ++i) {
    double x = 5.0 * rng.uniform();
    if (kind == 1) x = (i % 2 ? 1.0 : 3.5) + 0.05 * rng.normal();
    if (kind == 2) x = i % 2 ? 0.8 * rng.uniform() : 4.0 + rng.uniform();
    s.x.push_back(x);
  }
  if (kind == 1) s.x.back() = 40.0;  // far from every other key: its row's sums are tiny
  std::sort(s.x.begin(), s.x.end());
  for (double x : s.x) s.y.push_back(2.0 * std::sin(x) + 3.0 + 0.5 * rng.normal());
  return s;
}

// The two sums written out in long double over every key, values shifted by `shift`.
struct ReferenceSums {
  long double weightSum = 0, weighted = 0;
};

inline ReferenceSums referenceSums(double query, const Sample& s, double w, double shift) {
  ReferenceSums r;
  for (std::size_t i = 0; i < s.x.size(); ++i) {
    const long double u = (static_cast<long double>(query) - s.x[i]) * w;
    const long double k = std::exp(-u * u / 2);
    r.weightSum += k;
    r.weighted += k * (static_cast<long double>(s.y[i]) - shift);
  }
  return r;
}

}  // namespace binned_samples
