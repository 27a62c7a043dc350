// Synthetic data from a seed: the draws happen in a fixed order (inputs, then noise, then w0).
#include "nw/data.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "nw/error.hpp"
#include "nw/portable_math.hpp"
#include "nw/random.hpp"
#include "nw/validate.hpp"
#include "spread_sort.hpp"

namespace nw {

static_assert(kMaxInput == 1e6, "the messages below say 1e6");

double target(double x) {
  if (!(x >= 0.0 && x <= kMaxInput)) {
    throw Error(codeForNumber(x), "x", "x must be a number from 0 to 1e6 (x^0.8 is not real below 0), got " + describeNumber(x));
  }
  return 2.0 * portable::sin(x) + portable::pow(x, 0.8);
}

std::vector<double> testGrid(double xMin, double xMax, std::size_t n) {
  requireFinite(xMin, "xMin");
  requireFinite(xMax, "xMax");
  if (!(xMax > xMin)) {
    throw Error(ErrorCode::outOfRange, "xMax", "xMax must be greater than xMin (" + describeNumber(xMin) + "), got " + describeNumber(xMax));
  }
  requireCount(n, "n", 1, kMaxSamples);
  std::vector<double> grid(n);
  const double count = static_cast<double>(n);
  const double halfSpan = 0.5 * xMax - 0.5 * xMin;  // never overflows
  for (std::size_t i = 0; i < n; ++i) {
    const double step = static_cast<double>(i) * (xMax - xMin);
    // The chapter's formula, bit for bit, unless the span or i times it overflows; then halves, which
    // cannot: 2 (xMin / 2 + (i / n) (xMax - xMin) / 2) <= xMax. Clamped, so rounding never leaves [xMin, xMax].
    const double x = std::isfinite(step) ? xMin + step / count
                                         : 2.0 * (0.5 * xMin + (static_cast<double>(i) / count) * halfSpan);
    grid[i] = std::clamp(x, xMin, xMax);
  }
  return grid;
}

void validate(const DataSpec& spec) {
  requireCount(spec.nTrain, "nTrain", 1, kMaxSamples);
  requireCount(spec.nTest, "nTest", 1, kMaxSamples);
  requireNonNegative(spec.noiseSd, "noiseSd");
  if (!(spec.xMin >= 0.0 && spec.xMin < kMaxInput)) {
    throw Error(codeForNumber(spec.xMin), "xMin", "xMin must be a number from 0 to 1e6 (x^0.8 is not real below 0), got " +
                describeNumber(spec.xMin));
  }
  if (!(spec.xMax > spec.xMin && spec.xMax <= kMaxInput)) {
    throw Error(codeForNumber(spec.xMax), "xMax", "xMax must be greater than xMin (" + describeNumber(spec.xMin) + ") and at most 1e6, got " +
                describeNumber(spec.xMax));
  }
}

Dataset generateData(const DataSpec& spec) {
  validate(spec);
  Random random(spec.seed);
  Dataset data;
  const double width = spec.xMax - spec.xMin;

  data.xTrain.resize(spec.nTrain);
  for (double& x : data.xTrain) x = std::min(spec.xMin + width * random.uniform(), std::nextafter(spec.xMax, spec.xMin));
  sortSpreadValues(data.xTrain, spec.xMin, spec.xMax);

  data.yTrain.resize(spec.nTrain);
  for (std::size_t i = 0; i < spec.nTrain; ++i) {
    data.yTrain[i] = target(data.xTrain[i]) + spec.noiseSd * random.normal();
  }

  data.xTest = testGrid(spec.xMin, spec.xMax, spec.nTest);
  data.yTruth.resize(spec.nTest);
  for (std::size_t i = 0; i < spec.nTest; ++i) data.yTruth[i] = target(data.xTest[i]);

  data.w0 = random.uniform();
  return data;
}

}  // namespace nw
