// Sorted keys let Gaussian rows skip the keys whose weight is below 2^-60 / n of the nearest key's, and
// compact kernels' rows the keys outside their support (weight 0). The same keys in reverse order are
// unsorted and summed in full: both must agree far below 1e-12.
#include <algorithm>
#include <cmath>
#include <vector>

#include "approx.hpp"
#include "nw/attention.hpp"
#include "nw/data.hpp"
#include "nw/training.hpp"

namespace {

std::vector<double> reversed(const std::vector<double>& v) { return {v.rbegin(), v.rend()}; }

}  // namespace

TEST_CASE("windowed rows over sorted keys agree with full rows", "[window]") {
  nw::DataSpec spec;
  spec.nTrain = 301;
  spec.nTest = 97;
  spec.xMax = 60.0;  // wide data: at w = 1 most keys of a row are far outside its window
  const nw::Dataset data = nw::generateData(spec);
  const std::vector<double> keys = reversed(data.xTrain), values = reversed(data.yTrain);
  for (nw::Kernel kernel : nw::allKernels()) {
    for (double w : {0.05, 1.0, 3.0, 40.0, 1e3, 1e8, -2.0}) {
      INFO(nw::kernelName(kernel) << ", w = " << w);
      const auto windowed = nw::predict(data.xTest, data.xTrain, data.yTrain, w, kernel);
      const auto full = nw::predict(data.xTest, keys, values, w, kernel);
      for (std::size_t q = 0; q < full.size(); ++q) CHECK(windowed[q] == approx(full[q], 1e-14, 1e-300));

      const nw::Matrix sortedWeights = nw::attentionWeights(data.xTest, data.xTrain, w, kernel);
      const nw::Matrix fullWeights = nw::attentionWeights(data.xTest, keys, w, kernel);
      CHECK(sortedWeights.fallbackRows == fullWeights.fallbackRows);
      const std::size_t n = keys.size();
      for (std::size_t q = 0; q < sortedWeights.rows; ++q) {
        for (std::size_t i = 0; i < n; ++i) {
          CHECK(sortedWeights.data[q * n + i] == approx(fullWeights.data[q * n + (n - 1 - i)], 1e-14, 1e-18));
        }
      }

      for (bool leaveOneOut : {true, false}) {
        const nw::LooResult windowedLoss = nw::looLoss(data.xTrain, data.yTrain, w, {kernel, leaveOneOut});
        const nw::LooResult fullLoss = nw::looLoss(keys, values, w, {kernel, leaveOneOut});
        CHECK(windowedLoss.loss == approx(fullLoss.loss, 1e-13, 1e-300));
        CHECK(windowedLoss.grad == approx(fullLoss.grad, 1e-12, 1e-12 * std::fabs(fullLoss.loss)));
      }
    }
  }
}

TEST_CASE("a window keeps the nearest keys for queries outside, between and on duplicate keys", "[window]") {
  const std::vector<double> keys = {-1e6, 0.0, 0.0, 0.0, 1.0, 1.0 + 0x1p-40, 2.0, 1e6};
  const std::vector<double> values = {5, 1, 2, 3, 4, 6, 7, 8};
  const std::vector<double> queries = {-2e6, -1e6, -0.5, 0.0, 0.5, 1.0, 1.0 + 0x1p-41, 1.5, 3.0, 2e6};
  for (nw::Kernel kernel : nw::allKernels()) {
    for (double w : {1.0, 1e3, 1e12, 1e300}) {
      INFO(nw::kernelName(kernel) << ", w = " << w);
      const auto windowed = nw::predict(queries, keys, values, w, kernel);
      const auto full = nw::predict(queries, reversed(keys), reversed(values), w, kernel);
      for (std::size_t q = 0; q < full.size(); ++q) CHECK(windowed[q] == approx(full[q], 1e-14));
      for (bool leaveOneOut : {true, false}) {
        const nw::LooResult windowedLoss = nw::looLoss(keys, values, w, {kernel, leaveOneOut});
        const nw::LooResult fullLoss = nw::looLoss(reversed(keys), reversed(values), w, {kernel, leaveOneOut});
        CHECK(windowedLoss.loss == approx(fullLoss.loss, 1e-13));
        CHECK(windowedLoss.grad == approx(fullLoss.grad, 1e-12, 1e-300));
      }
    }
  }
}

TEST_CASE("a window stays right when w^2 overflows and distances are tiny", "[window]") {
  // Found by the fuzzer: distances near 1e-300 with w near 1e160 give scores near 1 although w^2
  // overflows and dMin^2 underflows.
  const std::vector<double> keys = {0.0, 1e-300, 2e-300, 3e-300, 5e-300};
  const std::vector<double> values = {1, 2, 3, 4, 5};
  const std::vector<double> queries = {0.0, 1.5e-300, 4e-300, 1e-299};
  for (double w : {1e150, 1e160, 1e300}) {
    INFO("w = " << w);
    const auto windowed = nw::predict(queries, keys, values, w);
    const auto full = nw::predict(queries, reversed(keys), reversed(values), w);
    for (std::size_t q = 0; q < full.size(); ++q) CHECK(windowed[q] == approx(full[q], 1e-14));
    const nw::Matrix m = nw::attentionWeights(queries, keys, w);
    for (std::size_t q = 0; q < m.rows; ++q) {
      double sum = 0.0;
      for (std::size_t i = 0; i < m.cols; ++i) sum += m.data[q * m.cols + i];
      CHECK(sum == approx(1.0, 1e-15));
    }
  }
}

namespace {

// The prediction written out directly in long double (whose exponent range holds every weight here),
// over every key: sum_i alpha_i v_i, and sum_i alpha_i |v_i| (the scale of its rounding).
struct Reference {
  long double prediction = 0, absolute = 0;
};

Reference gaussianReference(double query, const std::vector<double>& keys, const std::vector<double>& values, double w) {
  long double best = INFINITY;
  for (double k : keys) best = std::fmin(best, std::fabs(static_cast<long double>(query) - k));
  long double z = 0, acc = 0, accAbs = 0;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const long double d = std::fabs(static_cast<long double>(query) - keys[i]);
    const long double e = std::exp(-((d - best) * w) * ((d + best) * w) / 2);
    z += e;
    acc += e * values[i];
    accAbs += e * std::fabs(values[i]);
  }
  return {acc / z, accAbs / z};
}

}  // namespace

TEST_CASE("values spanning many orders of magnitude: sorted and unsorted keys give the full sum", "[window][extremes]") {
  SECTION("a far key with a huge value outweighs near keys with small ones (issue 14, item 11)") {
    // exp(-50) 1e100 / (1 + 2 exp(-1/2)...) = 1.107e78: not negligible although its weight is.
    const std::vector<double> keys{0, 1, 2, 10}, values{1, 1, 1, 1e100};
    const Reference exact = gaussianReference(0.0, keys, values, 1.0);
    CHECK(nw::predict({0.0}, keys, values, 1.0)[0] == approx(static_cast<double>(exact.prediction), 1e-12));
    CHECK(nw::predict({0.0}, reversed(keys), reversed(values), 1.0)[0] == approx(static_cast<double>(exact.prediction), 1e-12));
    const nw::BlockWeights blocks = nw::attentionBlocks({0.0}, keys, values, 1.0, nw::Kernel::gaussian, 4, 4);
    CHECK(blocks.predictions[0] == approx(static_cast<double>(exact.prediction), 1e-12));
  }
  SECTION("one outlier of 1e10 to 1e300 among the chapter's data") {
    nw::DataSpec spec;
    spec.nTrain = 200;
    spec.nTest = 40;
    spec.xMax = 20.0;
    const nw::Dataset data = nw::generateData(spec);
    for (double outlier : {1e10, 1e30, 1e100, 1e300, -1e300}) {
      std::vector<double> values = data.yTrain;
      values[150] = outlier;
      for (double w : {1.0, 3.0, 30.0}) {
        CAPTURE(outlier, w);
        const auto windowed = nw::predict(data.xTest, data.xTrain, values, w);
        const auto full = nw::predict(data.xTest, reversed(data.xTrain), reversed(values), w);
        for (std::size_t q = 0; q < full.size(); ++q) {
          const Reference exact = gaussianReference(data.xTest[q], data.xTrain, values, w);
          const double margin = 1e-12 * static_cast<double>(exact.absolute);
          CHECK(windowed[q] == Approx(static_cast<double>(exact.prediction)).epsilon(0).margin(margin));
          CHECK(full[q] == Approx(static_cast<double>(exact.prediction)).epsilon(0).margin(margin));
        }
      }
    }
  }
}

TEST_CASE("small values keep their precision beside a huge one of zero weight (item 14)", "[window][extremes]") {
  // The key at 100 has weight exp(-4950) = 0 in doubles: the answer is (2e-300 + 1e-300) / 2.
  CHECK(nw::predict({0.5}, {0, 1, 100}, {2e-300, 1e-300, 1e300}, 1.0)[0] == approx(1.5e-300, 1e-15));
  CHECK(nw::predict({0.5}, {100, 1, 0}, {1e300, 1e-300, 2e-300}, 1.0)[0] == approx(1.5e-300, 1e-15));
  CHECK(nw::predict({0.5}, {0, 1, 100}, {-2e-305, 1e-305, -1.7e308}, 1.0)[0] == approx(-0.5e-305, 1e-15));
  // Subnormal values alone are summed scaled up, so the mean of two keeps every bit.
  CHECK(nw::predict({0.5}, {0, 1}, {3e-320, 5e-320}, 1.0)[0] == approx(4e-320, 0, 0x1p-1074));
  CHECK(nw::predict({0.5}, {0, 1}, {3e-320, 5e-320}, 0.0, nw::Kernel::boxcar)[0] == approx(4e-320, 0, 0x1p-1074));
}

TEST_CASE("keys near 1e308: the exponent never forms d + dMin (item 13)", "[window][extremes]") {
  // Scaled by 1e308, the same row is {0, 1}, {1, 1.5} at w = 1: scores 1 and exp(-(1.5^2 - 1) / 2).
  const double second = std::exp(-0.625);
  const nw::Matrix m = nw::attentionWeights({0.0}, {1e308, 1.5e308}, 1e-308);
  CHECK(m.data[0] == approx(1 / (1 + second), 1e-14));
  CHECK(m.data[1] == approx(second / (1 + second), 1e-14));
  const nw::Matrix small = nw::attentionWeights({0.0}, {1.0, 1.5}, 1.0);
  CHECK(m.data[1] == approx(small.data[1], 1e-14));
  CHECK(nw::predict({0.0}, {1.5e308, 1e308}, {2.0, 1.0}, 1e-308)[0] == approx((1 + 2 * second) / (1 + second), 1e-14));
  const nw::LooResult r = nw::looLoss({1e308, 1.5e308, 1.7e308}, {1.0, 2.0, 3.0}, 1e-308);
  CHECK(std::isfinite(r.loss));
  CHECK(r.loss == approx(nw::looLoss({1.0, 1.5, 1.7}, {1.0, 2.0, 3.0}, 1.0).loss, 1e-12));
}
