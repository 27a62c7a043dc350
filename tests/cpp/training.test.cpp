#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "approx.hpp"
#include "nw/bandwidth.hpp"
#include "nw/binned.hpp"
#include "nw/data.hpp"
#include "nw/error.hpp"
#include "nw/training.hpp"

TEST_CASE("the leave-one-out gradient matches central finite differences", "[training]") {
  const nw::Dataset data = nw::generateData({});
  for (double w : {0.3, 1.0, 2.5, 8.0, -1.5}) {
    const double h = 1e-5 * std::max(1.0, std::fabs(w));
    const double numeric =
        (nw::looLoss(data.xTrain, data.yTrain, w + h).loss - nw::looLoss(data.xTrain, data.yTrain, w - h).loss) /
        (2 * h);
    const double analytic = nw::looLoss(data.xTrain, data.yTrain, w).grad;
    CHECK(std::fabs(analytic - numeric) <= 1e-6 * std::fabs(numeric));
  }
}

TEST_CASE("a hand-computed 3-point training step", "[training]") {
  // x = (0, 1, 2), y = (0, 1, 0), w = 1. Leaving out x = 0 keeps keys 1 (d = 1) and 2 (d = 2), so
  // f0 = e^-0.5 / (e^-0.5 + e^-2) = sigma(1.5 w^2) and likewise f2; leaving out x = 1 keeps two zeros: f1 = 0.
  // L = 2 sigma(1.5)^2 + 1, and with df0/dw = 3 w sigma(1.5 w^2) sigma(-1.5 w^2):
  // dL/dw = 2 * 2 f0 df0/dw = 12 sigma(1.5)^2 sigma(-1.5) = 1.463260..., so w1 = 1 - 0.5 dL/dw = 0.268370...
  const double s = 1 / (1 + std::exp(-1.5));
  const double expectedLoss = 2 * s * s + 1;
  const double expectedGrad = 12 * s * s * (1 - s);
  CHECK(expectedLoss == approx(2.3368560, 1e-7));
  CHECK(expectedGrad == approx(1.4632600, 1e-6));

  const nw::LooResult r = nw::looLoss({0, 1, 2}, {0, 1, 0}, 1.0);
  CHECK(r.loss == approx(expectedLoss, 1e-14));
  CHECK(r.grad == approx(expectedGrad, 1e-13));

  nw::Trainer trainer({0, 1, 2}, {0, 1, 0}, 1.0, 0.5);
  CHECK(trainer.step() == approx(expectedLoss, 1e-14));
  CHECK(trainer.w() == approx(1 - 0.5 * expectedGrad, 1e-13));
  CHECK(trainer.epoch() == 1);
}

TEST_CASE("training on the chapter's data lowers the loss every epoch", "[training]") {
  const nw::Dataset data = nw::generateData({});
  nw::Trainer trainer(data.xTrain, data.yTrain, data.w0, nw::kDefaultLearningRate);
  double previous = trainer.step();
  for (int epoch = 1; epoch < nw::kDefaultEpochs; ++epoch) {
    const double loss = trainer.step();
    CHECK(loss < previous);
    previous = loss;
  }
  CHECK(trainer.epoch() == 5);
  CHECK(trainer.w() > data.w0);  // the chapter's w grows from its random start towards a sharper kernel
}

TEST_CASE("a diverging step is refused and keeps the last finite w", "[training][validation]") {
  // lr * dL/dw overflows to infinity on the first step.
  nw::Trainer trainer({0, 1, 2, 3}, {0, 5, -5, 0}, 1.0, 1e308);
  CHECK_THROWS_WITH(trainer.step(), Catch::StartsWith("lr: training diverged at epoch 1"));
  CHECK(trainer.w() == 1.0);
  CHECK(trainer.epoch() == 0);
}

TEST_CASE("invalid training inputs are rejected with the parameter's name", "[training][validation]") {
  CHECK_THROWS_WITH(nw::looLoss({1.0}, {1.0}, 1.0), Catch::StartsWith("xTrain must have at least 2 points"));
  CHECK_THROWS_WITH(nw::looLoss({1.0, 2.0}, {1.0}, 1.0), "yTrain must have the same length as xTrain (2), got 1");
  CHECK_THROWS_WITH(nw::Trainer({1.0, 2.0}, {1.0, 2.0}, 1.0, 0.0), "lr must be a finite number > 0, got 0");
  CHECK_THROWS_WITH(nw::Trainer({1.0, 2.0}, {1.0, 2.0}, NAN, 0.5), "w0 must be a finite number, got NaN");
  CHECK_THROWS_WITH(nw::Trainer({1.0, 2.0}, {1.0, 2.0}, 1.0, -1.0), "lr must be a finite number > 0, got -1");
}

TEST_CASE("the halved loss (the MXNet listing's L2Loss) is half the sum, with half its gradient", "[training][loss]") {
  const nw::Dataset data = nw::generateData({});
  for (nw::Kernel kernel : {nw::Kernel::gaussian, nw::Kernel::epanechnikov, nw::Kernel::triangular}) {
    for (bool leaveOneOut : {true, false}) {
      for (double w : {0.0, 0.47, 1.0, 3.3, 40.0}) {
        const nw::LooResult sum = nw::looLoss(data.xTrain, data.yTrain, w, {kernel, leaveOneOut, nw::Loss::squared});
        const nw::LooResult half = nw::looLoss(data.xTrain, data.yTrain, w, {kernel, leaveOneOut, nw::Loss::halfSquared});
        CHECK(half.loss == 0.5 * sum.loss);
        CHECK(half.grad == 0.5 * sum.grad);
      }
    }
  }
  SECTION("so a step at lr is the summed loss's step at lr / 2, to the last bit") {
    nw::Trainer half(data.xTrain, data.yTrain, data.w0, 0.5, {nw::Kernel::gaussian, true, nw::Loss::halfSquared});
    nw::Trainer sum(data.xTrain, data.yTrain, data.w0, 0.25, {nw::Kernel::gaussian, true, nw::Loss::squared});
    for (int epoch = 0; epoch < 5; ++epoch) {
      CHECK(half.step() == 0.5 * sum.step());
      CHECK(half.w() == sum.w());
    }
  }
  SECTION("and selectBandwidth finds the same w at half the loss, limits included") {
    const nw::BandwidthChoice sum = nw::selectBandwidth(data.xTrain, data.yTrain);
    const nw::BandwidthChoice half = nw::selectBandwidth(data.xTrain, data.yTrain, {nw::Kernel::gaussian, true, nw::Loss::halfSquared});
    CHECK(half.w == sum.w);
    CHECK(half.loss == 0.5 * sum.loss);
    const nw::BandwidthChoice zero = nw::selectBandwidth({0.0, 1.0, 2.0, 3.0}, {1.0, -1.0, 1.0, -1.0}, {nw::Kernel::gaussian, true, nw::Loss::halfSquared});
    CHECK(zero.atLimit == nw::BandwidthLimit::zero);
    CHECK(zero.loss == approx(32.0 / 9.0, 1e-15));
  }
}

TEST_CASE("loss names", "[training][loss][validation]") {
  CHECK(nw::parseLoss("squared") == nw::Loss::squared);
  CHECK(nw::parseLoss("halfSquared") == nw::Loss::halfSquared);
  CHECK(std::string(nw::lossName(nw::Loss::halfSquared)) == "halfSquared");
  CHECK_THROWS_WITH(nw::parseLoss("mean"), "loss must be one of squared, halfSquared, got 'mean'");
}

TEST_CASE("an approximate trainer steps from the binned loss and gradient where that pays, within their bounds", "[training][binned]") {
  // 5000 points: an exact epoch at w = 1 would visit 2.5e7 key pairs, above kExactWorkLimit, so
  // 'automatic' bins there.
  nw::DataSpec options;
  options.nTrain = 5000;
  const nw::Dataset data = nw::generateData(options);
  nw::TrainerSetup setup;
  setup.initial = {nw::Scoring::gaussian, {1.0}};
  setup.lr = 1e-5;
  setup.approximation = nw::Approximation::automatic;
  nw::Trainer binned(data.xTrain, data.yTrain, setup);
  REQUIRE(binned.approximate());
  CHECK(binned.lastLossBound() == 0.0);
  for (int epoch = 0; epoch < 3; ++epoch) {
    const double w = binned.w();
    const nw::BinnedLoss expected = nw::binnedLooLoss(data.xTrain, data.yTrain, w, {}, true);
    const nw::LooResult exact = nw::looLoss(data.xTrain, data.yTrain, w);
    const double loss = binned.step();
    CHECK(loss == expected.loss);  // the binned loss, bit for bit
    CHECK(binned.w() == w - setup.lr * expected.grad);
    CHECK(binned.lastLossBound() == expected.bound);
    CHECK(binned.lastLossBound() > 0.0);
    CHECK(std::fabs(loss - exact.loss) <= binned.lastLossBound());
    CHECK(std::fabs(expected.grad - exact.grad) <= expected.gradBound);
  }
  CHECK_THROWS_WITH(binned.stepWithRows(nw::looLossRows(data.xTrain, data.yTrain, binned.w(), {}, 0, 5000)),
                    Catch::StartsWith("lossRows: this trainer steps from binned sums"));

  // Where the exact epoch is cheap (a narrow kernel: few keys in each window; keys spread far apart,
  // which also make the grid large), or at w = 0, the same trainer steps exactly, bit for bit looLoss.
  std::vector<double> spread = data.xTrain;
  for (double& x : spread) x *= 200.0;
  for (const auto& [x, w0] : {std::pair{data.xTrain, 30.0}, std::pair{spread, 1.0}, std::pair{data.xTrain, 0.0}}) {
    setup.initial = {nw::Scoring::gaussian, {w0}};
    nw::Trainer trainer(x, data.yTrain, setup);
    REQUIRE(trainer.approximate());
    const nw::LooResult exact = nw::looLoss(x, data.yTrain, w0);
    CHECK(trainer.step() == exact.loss);
    CHECK(trainer.w() == w0 - setup.lr * exact.grad);
    CHECK(trainer.lastLossBound() == 0.0);
  }

  // Below the limit, another kernel, or 'never': never binned.
  setup.initial = {nw::Scoring::gaussian, {1.0}};
  options.nTrain = 4000;
  const nw::Dataset small = nw::generateData(options);
  CHECK_FALSE(nw::Trainer(small.xTrain, small.yTrain, setup).approximate());
  setup.objective.kernel = nw::Kernel::epanechnikov;
  CHECK_FALSE(nw::Trainer(data.xTrain, data.yTrain, setup).approximate());
  setup.objective.kernel = nw::Kernel::gaussian;
  setup.approximation = nw::Approximation::never;
  CHECK_FALSE(nw::Trainer(data.xTrain, data.yTrain, setup).approximate());
}
