// Local-linear predictions: each query's weighted least-squares line, with Nadaraya-Watson where it is singular.
#include "nw/local_linear.hpp"

#include <algorithm>
#include <cmath>

#include "local_linear_rows.hpp"
#include "nw/attention.hpp"
#include "nw/validate.hpp"

namespace nw {

LocalLinearFit localLinear(const std::vector<double>& queries, const std::vector<double>& keys,
                           const std::vector<double>& values, double w, Kernel kernel) {
  requirePredictionInputs(queries, keys, values, w);

  // Values are summed times a power of two that brings the largest to about 2^958 (as predict does), so
  // that no sum overflows; a line whose value then lies beyond the double range falls back.
  double largest = 0.0;
  for (double v : values) largest = std::max(largest, std::fabs(v));
  int exponent = 0;
  std::frexp(largest, &exponent);
  const int shift = largest == 0.0 ? 0 : std::min(959 - exponent, 1000);
  const double scale = std::ldexp(1.0, shift);

  const std::size_t n = keys.size();
  const bool sorted = std::is_sorted(keys.begin(), keys.end());
  LocalLinearFit fit{std::vector<double>(queries.size()), std::vector<unsigned char>(queries.size(), 0)};
  rows::LocalLinearScratch scratch(n);
  rows::withKernel(kernel, [&](auto policy) {
    for (std::size_t q = 0; q < queries.size(); ++q) {
      const rows::LocalLinearRow row = rows::localLinearRow<decltype(policy)>(
          queries[q], keys.data(), values.data(), n, n, sorted, w, scale, false, scratch);
      const double value = std::ldexp(row.value, -shift);
      if (row.singular || !std::isfinite(value)) {
        fit.fallbackRows[q] = 1;
      } else {
        fit.predictions[q] = value;
      }
    }
  });
  // The fallback rows take predict's own value, bit for bit (with its care for extreme values).
  std::vector<double> fallbackQueries;
  for (std::size_t q = 0; q < queries.size(); ++q) {
    if (fit.fallbackRows[q]) fallbackQueries.push_back(queries[q]);
  }
  if (!fallbackQueries.empty()) {
    const std::vector<double> fallback = predict(fallbackQueries, keys, values, w, kernel);
    for (std::size_t q = 0, k = 0; q < queries.size(); ++q) {
      if (fit.fallbackRows[q]) fit.predictions[q] = fallback[k++];
    }
  }
  return fit;
}

}  // namespace nw
