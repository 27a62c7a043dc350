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
