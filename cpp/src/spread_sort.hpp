// Sorting values spread evenly over a known range (generateData's uniform draws) in O(n) expected time:
// std::sort took a third of generateData at n = 1,000,000.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace nw {

// Sorts values within [lo, hi] (no NaN) as std::sort does: each value goes to one of about n / 4 buckets
// by its place in the range, a map that never decreases (a subtraction and a product, each rounded
// monotonically, then truncation), so the buckets follow one another in order; each bucket, about four
// values on average, is then sorted on its own.
inline void sortSpreadValues(std::vector<double>& values, double lo, double hi) {
  constexpr std::size_t kPerBucket = 4;
  const std::size_t n = values.size();
  const std::size_t buckets = n / kPerBucket;
  const double width = hi - lo;
  if (buckets < 2 || n > UINT32_MAX || !(width > 0.0) || !std::isfinite(width)) {
    std::sort(values.begin(), values.end());
    return;
  }
  const double perUnit = static_cast<double>(buckets) / width;
  const auto bucketOf = [&](double v) -> std::size_t {
    const double t = (v - lo) * perUnit;
    return t >= static_cast<double>(buckets - 1) ? buckets - 1 : t > 0.0 ? static_cast<std::size_t>(t) : 0;
  };
  // end[b]: first the count of bucket b, then (prefix sums) where it starts; after the scatter, where it ends.
  std::vector<std::uint32_t> end(buckets, 0);
  for (double v : values) ++end[bucketOf(v)];
  std::uint32_t start = 0;
  for (std::uint32_t& e : end) start += std::exchange(e, start);
  std::vector<double> sorted(n);
  for (double v : values) sorted[end[bucketOf(v)]++] = v;
  // (A few values each: std::sort sorts so few by insertion.)
  std::size_t begin = 0;
  for (std::size_t b = 0; b < buckets; ++b) {
    std::sort(sorted.begin() + static_cast<std::ptrdiff_t>(begin), sorted.begin() + end[b]);
    begin = end[b];
  }
  values.swap(sorted);
}

}  // namespace nw
