// The chapter's synthetic regression data: y = 2 sin x + x^0.8 + noise, sorted training inputs, a test grid.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace nw {

inline constexpr std::size_t kMaxSamples = 1'000'000;
// x^0.8 is not real for x < 0, and portable::sin is exact only up to this size of argument.
inline constexpr double kMaxInput = 1.0e6;

struct DataSpec {
  std::size_t nTrain = 50;
  std::size_t nTest = 50;
  double noiseSd = 0.5;
  double xMin = 0.0;
  double xMax = 5.0;
  std::uint64_t seed = 1;
};

struct Dataset {
  std::vector<double> xTrain;  // sorted ascending, uniform in [xMin, xMax)
  std::vector<double> yTrain;  // target(xTrain) + N(0, noiseSd)
  std::vector<double> xTest;   // xMin + i (xMax - xMin) / nTest
  std::vector<double> yTruth;  // target(xTest), no noise
  double w0 = 0.0;             // initial bandwidth, uniform in [0, 1), drawn after the data as the chapter does
};

// 2 sin x + x^0.8, defined for 0 <= x <= kMaxInput; bit-identical in every build.
double target(double x);

// The n test queries xMin + i (xMax - xMin) / n, i = 0 .. n - 1 (xMin < xMax, both finite).
std::vector<double> testGrid(double xMin, double xMax, std::size_t n);

// Throws nw::Error naming the first invalid field.
void validate(const DataSpec& spec);
Dataset generateData(const DataSpec& spec);

}  // namespace nw
