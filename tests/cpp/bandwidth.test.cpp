#include <cmath>

#include "approx.hpp"
#include "nw/bandwidth.hpp"
#include "nw/data.hpp"
#include "nw/error.hpp"

TEST_CASE("selectBandwidth finds the minimum of a dense grid search of the leave-one-out loss", "[bandwidth]") {
  for (std::uint64_t seed : {1, 2, 3}) {
    nw::DataSpec spec;
    spec.seed = seed;
    const nw::Dataset data = nw::generateData(spec);
    for (nw::Kernel k : {nw::Kernel::gaussian, nw::Kernel::epanechnikov, nw::Kernel::triangular}) {
      CAPTURE(seed, nw::kernelName(k));
      const nw::Objective objective{k, true};
      const nw::BandwidthChoice choice = nw::selectBandwidth(data.xTrain, data.yTrain, objective);
      CHECK(choice.loss == nw::looLoss(data.xTrain, data.yTrain, choice.w, objective).loss);
      // A dense grid over the w that matter here (20,000 points from 0.01 to 200): none does better.
      double gridBest = INFINITY;
      double gridW = 0;
      for (int i = 0; i < 20000; ++i) {
        const double w = 0.01 * std::pow(2e4, i / 19999.0);
        const double l = nw::looLoss(data.xTrain, data.yTrain, w, objective).loss;
        if (l < gridBest) {
          gridBest = l;
          gridW = w;
        }
      }
      CAPTURE(choice.w, choice.loss, gridW, gridBest);
      CHECK(choice.loss <= gridBest + 1e-9 * gridBest);
      if (k == nw::Kernel::gaussian) CHECK(choice.w == approx(gridW, 1e-3));  // smooth: the same minimiser
    }
  }
}

TEST_CASE("training approaches the selected bandwidth", "[bandwidth][training]") {
  const nw::Dataset data = nw::generateData({});
  const nw::BandwidthChoice best = nw::selectBandwidth(data.xTrain, data.yTrain);
  nw::Trainer trainer(data.xTrain, data.yTrain, data.w0, nw::kDefaultLearningRate);
  double loss = 0;
  for (int epoch = 0; epoch < 2000; ++epoch) loss = trainer.step();
  CHECK(loss >= best.loss * (1 - 1e-12));  // nothing beats the minimiser beyond its tolerance
  CHECK(loss == approx(best.loss, 1e-6));
}

TEST_CASE("selectBandwidth with all inputs equal returns w = 1", "[bandwidth]") {
  const nw::BandwidthChoice choice = nw::selectBandwidth({2.0, 2.0, 2.0}, {1.0, 2.0, 3.0});
  CHECK(choice.w == 1.0);
  CHECK(std::isfinite(choice.loss));
}

TEST_CASE("selectBandwidth refuses kernels whose loss is piecewise constant", "[bandwidth][validation]") {
  CHECK_THROWS_WITH(nw::selectBandwidth({0.0, 1.0, 2.0}, {1.0, 2.0, 3.0}, {nw::Kernel::boxcar, true}),
                    Catch::StartsWith("kernel: boxcar has a loss that is piecewise constant in w"));
}

TEST_CASE("selectBandwidth validates its data before reading it (item 3)", "[bandwidth][validation]") {
  CHECK_THROWS_WITH(nw::selectBandwidth({}, {}), "xTrain must not be empty");
  CHECK_THROWS_WITH(nw::selectBandwidth({1.0}, {1.0}), Catch::StartsWith("xTrain must have at least 2 points"));
  CHECK_THROWS_WITH(nw::selectBandwidth({0.0, 1.0}, {1.0}), Catch::StartsWith("yTrain must have the same length"));
  CHECK_THROWS_AS(nw::selectBandwidth({0.0, NAN}, {1.0, 2.0}), nw::Error);
}
