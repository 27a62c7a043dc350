#include <algorithm>
#include <cmath>
#include <numeric>

#include "approx.hpp"
#include "nw/attention.hpp"
#include "nw/data.hpp"
#include "nw/error.hpp"
#include "nw/kernel.hpp"
#include "nw/training.hpp"

namespace {

const nw::Kernel kAllKernels[] = {nw::Kernel::gaussian, nw::Kernel::boxcar, nw::Kernel::constant,
                                  nw::Kernel::epanechnikov, nw::Kernel::triangular};

// The definition: weights K((q - k_i) w) / sum_j K((q - k_j) w), straight from kernelValue.
std::vector<double> directWeights(nw::Kernel kernel, double q, const std::vector<double>& keys, double w) {
  std::vector<double> k;
  for (double key : keys) k.push_back(nw::kernelValue(kernel, (q - key) * w));
  const double sum = std::accumulate(k.begin(), k.end(), 0.0);
  for (double& a : k) a /= sum;
  return k;
}

}  // namespace

TEST_CASE("kernel values and supports", "[kernels]") {
  using nw::Kernel;
  using nw::kernelValue;
  CHECK(kernelValue(Kernel::gaussian, 0.0) == 1.0);
  CHECK(kernelValue(Kernel::gaussian, 2.0) == approx(std::exp(-2.0), 1e-15));
  CHECK(kernelValue(Kernel::boxcar, 0.99) == 1.0);
  CHECK(kernelValue(Kernel::boxcar, 1.0) == 0.0);  // |d| < 1, open at 1
  CHECK(kernelValue(Kernel::constant, 1e9) == 1.0);
  CHECK(kernelValue(Kernel::epanechnikov, 0.5) == 0.75);
  CHECK(kernelValue(Kernel::epanechnikov, 1.5) == 0.0);
  CHECK(kernelValue(Kernel::triangular, 0.25) == 0.75);
  CHECK(kernelValue(Kernel::triangular, -2.0) == 0.0);
  for (Kernel k : kAllKernels) {
    for (double d : {0.1, 0.7, 1.3}) CHECK(kernelValue(k, d) == kernelValue(k, -d));  // symmetric
  }
}

TEST_CASE("kernel names round-trip and unknown names are refused", "[kernels][validation]") {
  for (nw::Kernel k : kAllKernels) CHECK(nw::parseKernel(nw::kernelName(k)) == k);
  CHECK_THROWS_WITH(nw::parseKernel("Gauss"),
                    "kernel must be one of gaussian, boxcar, constant, epanechnikov, triangular, got 'Gauss'");
  CHECK(nw::isTrainable(nw::Kernel::gaussian));
  CHECK(nw::isTrainable(nw::Kernel::epanechnikov));
  CHECK(nw::isTrainable(nw::Kernel::triangular));
  CHECK_FALSE(nw::isTrainable(nw::Kernel::boxcar));
  CHECK_FALSE(nw::isTrainable(nw::Kernel::constant));
}

TEST_CASE("every kernel's weights are its definition, normalised", "[kernels]") {
  const std::vector<double> keys{0.0, 0.4, 1.1, 1.5, 3.0};
  for (nw::Kernel k : kAllKernels) {
    CAPTURE(nw::kernelName(k));
    for (double q : {0.2, 1.3}) {
      const nw::Matrix m = nw::attentionWeights({q}, keys, 1.0, k);
      const auto expected = directWeights(k, q, keys, 1.0);
      for (std::size_t i = 0; i < keys.size(); ++i) CHECK(m.data[i] == approx(expected[i], 1e-14, 1e-300));
      CHECK(m.fallbackRows[0] == 0);
    }
  }
}

TEST_CASE("the constant kernel is average pooling", "[kernels]") {
  const nw::Dataset data = nw::generateData({});
  for (double p : nw::predict(data.xTest, data.xTrain, data.yTrain, 3.0, nw::Kernel::constant)) {
    CHECK(p == approx(nw::averagePool(data.yTrain), 1e-13));
  }
}

TEST_CASE("a query with no key in a compact kernel's support falls back to the nearest key", "[kernels]") {
  const std::vector<double> keys{0.0, 1.0, 1.0, 5.0};
  const std::vector<double> values{10.0, 2.0, 4.0, 8.0};
  for (nw::Kernel k : {nw::Kernel::boxcar, nw::Kernel::epanechnikov, nw::Kernel::triangular}) {
    CAPTURE(nw::kernelName(k));
    // w = 2: the query 2.7 is 1.7 from its nearest keys (two at 1.0), so |d| = 3.4 >= 1 for all.
    const nw::Matrix m = nw::attentionWeights({2.7, 0.1}, keys, 2.0, k);
    CHECK(m.fallbackRows == std::vector<unsigned char>{1, 0});
    CHECK(std::vector<double>(m.data.begin(), m.data.begin() + 4) == std::vector<double>{0.0, 0.5, 0.5, 0.0});
    CHECK(nw::predict({2.7}, keys, values, 2.0, k) == std::vector<double>{3.0});
    CHECK(nw::predict({4.0}, keys, values, 2.0, k) == std::vector<double>{8.0});
  }
  CHECK(nw::attentionWeights({2.7}, keys, 2.0, nw::Kernel::gaussian).fallbackRows[0] == 0);
}

TEST_CASE("every kernel is symmetric, needs no NaN, and w = 0 is average pooling", "[kernels][extremes]") {
  const std::vector<double> spread{-1e300, -1.0, 0.0, 1e-300, 1e300};
  for (nw::Kernel k : kAllKernels) {
    CAPTURE(nw::kernelName(k));
    const nw::Matrix mirrored = nw::attentionWeights({0.0}, {-2.0, -0.5, 0.5, 2.0}, 0.8, k);
    CHECK(mirrored.data[0] == mirrored.data[3]);
    CHECK(mirrored.data[1] == mirrored.data[2]);
    for (double w : {0.0, 1e-300, 1.0, 1e300, -3.0}) {
      for (double a : nw::attentionWeights(spread, spread, w, k).data) CHECK(std::isfinite(a));
      const nw::LooResult r = nw::looLoss(spread, {1, 2, 3, 4, 5}, w, {k, true});
      CHECK(std::isfinite(r.loss));
      CHECK(!std::isnan(r.grad));
    }
    for (double p : nw::predict({0.3, 2.0}, {0.0, 1.0, 4.0}, {1.0, 2.0, 6.0}, 0.0, k)) CHECK(p == approx(3.0, 1e-15));
  }
}

TEST_CASE("gradients of the trainable kernels match central finite differences", "[kernels][training]") {
  const nw::Dataset data = nw::generateData({});
  for (nw::Kernel k : {nw::Kernel::gaussian, nw::Kernel::epanechnikov, nw::Kernel::triangular}) {
    for (bool leaveOneOut : {true, false}) {
      for (double w : {0.3, 0.8, 2.0, -1.2}) {
        CAPTURE(nw::kernelName(k), leaveOneOut, w);
        const nw::Objective objective{k, leaveOneOut};
        const double h = 1e-6;
        const double numeric = (nw::looLoss(data.xTrain, data.yTrain, w + h, objective).loss -
                                nw::looLoss(data.xTrain, data.yTrain, w - h, objective).loss) / (2 * h);
        const double analytic = nw::looLoss(data.xTrain, data.yTrain, w, objective).grad;
        CHECK(std::fabs(analytic - numeric) <= 1e-6 * std::max(1.0, std::fabs(numeric)));
      }
    }
  }
}

TEST_CASE("boxcar and constant losses are piecewise constant: gradient 0, and they cannot be trained", "[kernels][training]") {
  const nw::Dataset data = nw::generateData({});
  CHECK(nw::looLoss(data.xTrain, data.yTrain, 2.0, {nw::Kernel::boxcar, true}).grad == 0.0);
  CHECK(nw::looLoss(data.xTrain, data.yTrain, 2.0, {nw::Kernel::constant, true}).grad == 0.0);
  CHECK_THROWS_WITH(nw::Trainer(data.xTrain, data.yTrain, 1.0, 0.5, {nw::Kernel::boxcar, true}),
                    Catch::StartsWith("kernel: boxcar cannot be trained"));
}

TEST_CASE("without leave-one-out each query sees itself: sharper is always better", "[kernels][training]") {
  const nw::Dataset data = nw::generateData({});
  const nw::Objective seeingItself{nw::Kernel::gaussian, false};
  // With its own key at distance 0, a huge w predicts each training point exactly: loss -> 0.
  CHECK(nw::looLoss(data.xTrain, data.yTrain, 1e6, seeingItself).loss == approx(0.0, 0, 1e-20));
  CHECK(nw::looLoss(data.xTrain, data.yTrain, 1e6, {}).loss > 1.0);
  // ... so gradient descent keeps sharpening w and the training loss keeps falling.
  nw::Trainer trainer(data.xTrain, data.yTrain, 1.0, 0.5, seeingItself);
  double previous = trainer.step();
  for (int epoch = 0; epoch < 20; ++epoch) {
    const double loss = trainer.step();
    CHECK(loss < previous);
    previous = loss;
  }
  CHECK(trainer.w() > 20.0);
}
