// Scoring functions (dot product, additive attention), their trainer and optimizers. The gradients are
// checked against central finite differences of a loss computed independently in long double; the
// float64 PyTorch transcription is compared by the module's tests (tests/module/scoring_torch.test.mjs).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "approx.hpp"
#include "nw/data.hpp"
#include "nw/error.hpp"
#include "nw/scoring.hpp"
#include "nw/training.hpp"

namespace {

using Long = long double;

// a(q, k) in long double, written from the definitions (not from scoring.cpp).
Long scoreLong(const nw::ScoringParameters& p, const std::vector<Long>& theta, Long q, Long k) {
  if (p.scoring == nw::Scoring::dotProduct) return theta[0] * q * k;
  const std::size_t h = theta.size() / 4;
  Long a = 0;
  for (std::size_t m = 0; m < h; ++m) a += theta[3 * h + m] * std::tanh(theta[m] * q + theta[h + m] * k + theta[2 * h + m]);
  return a;
}

// The leave-one-out summed squared error of softmax attention, in long double.
Long looLossLong(const std::vector<double>& x, const std::vector<double>& y, const nw::ScoringParameters& p,
                 const std::vector<Long>& theta, bool leaveOneOut = true) {
  Long total = 0;
  const std::size_t n = x.size();
  for (std::size_t j = 0; j < n; ++j) {
    std::vector<Long> a(n);
    Long top = -INFINITY;
    for (std::size_t i = 0; i < n; ++i) {
      if (leaveOneOut && i == j) continue;
      a[i] = scoreLong(p, theta, x[j], x[i]);
      top = std::max(top, a[i]);
    }
    Long z = 0, weighted = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (leaveOneOut && i == j) continue;
      const Long e = std::exp(a[i] - top);
      z += e;
      weighted += e * y[i];
    }
    const Long r = weighted / z - y[j];
    total += r * r;
  }
  return total;
}

std::vector<Long> asLong(const std::vector<double>& values) { return {values.begin(), values.end()}; }

// The chapter's data, shorter (long double's exp is slow in wasm, where it is software).
nw::Dataset smallData(std::uint64_t seed, std::size_t n) {
  nw::DataSpec spec;
  spec.nTrain = n;
  spec.nTest = 5;
  spec.seed = seed;
  return nw::generateData(spec);
}

}  // namespace

TEST_CASE("scoring gradients match central finite differences of a long-double loss", "[scoring]") {
  for (std::uint64_t seed : {1, 2, 3}) {
    const nw::Dataset data = smallData(seed, 24);
    std::vector<nw::ScoringParameters> cases{nw::initialParameters(nw::Scoring::dotProduct, 0, seed, 1.0, 0.7),
                                             nw::initialParameters(nw::Scoring::dotProduct, 0, seed, 1.0, -1.3),
                                             nw::initialParameters(nw::Scoring::additive, 3, seed),
                                             nw::initialParameters(nw::Scoring::additive, 8, seed)};
    for (const nw::ScoringParameters& p : cases) {
      for (bool leaveOneOut : {true, false}) {
        INFO("seed " << seed << ", " << nw::scoringName(p.scoring) << " with " << p.values.size() << " values, leaveOneOut " << leaveOneOut);
        const nw::ScoringLoss got = nw::scoringLooLoss(data.xTrain, data.yTrain, p, leaveOneOut);
        const std::vector<Long> theta = asLong(p.values);
        CHECK(got.loss == approx(static_cast<double>(looLossLong(data.xTrain, data.yTrain, p, theta, leaveOneOut)), 1e-13));
        REQUIRE(got.grad.size() == p.values.size());
        double largest = 0;
        for (double g : got.grad) largest = std::max(largest, std::fabs(g));
        for (std::size_t i = 0; i < theta.size(); ++i) {
          const Long step = 1e-6L * std::max<Long>(1, std::fabs(theta[i]));
          std::vector<Long> up = theta, down = theta;
          up[i] += step;
          down[i] -= step;
          const Long numeric = (looLossLong(data.xTrain, data.yTrain, p, up, leaveOneOut) -
                                looLossLong(data.xTrain, data.yTrain, p, down, leaveOneOut)) / (2 * step);
          INFO("parameter " << i);
          // Relative to the gradient's largest entry: a tiny entry has no relative precision to test.
          CHECK(std::fabs(got.grad[i] - static_cast<double>(numeric)) <= 1e-7 * largest);
        }
      }
    }
  }
}

TEST_CASE("the gaussian scoring is the chapter's trainer, bit for bit", "[scoring]") {
  const nw::Dataset data = nw::generateData({});
  for (nw::Loss loss : {nw::Loss::squared, nw::Loss::halfSquared}) {
    nw::Objective objective;
    objective.loss = loss;
    nw::Trainer chapter(data.xTrain, data.yTrain, 0.47, 0.5, objective);
    nw::TrainerSetup setup;
    setup.initial = nw::initialParameters(nw::Scoring::gaussian, 0, 1, 0.47);
    setup.objective = objective;
    nw::Trainer scored(data.xTrain, data.yTrain, setup);
    for (int epoch = 0; epoch < 20; ++epoch) {
      CHECK(scored.step() == chapter.step());
      CHECK(scored.w() == chapter.w());
    }
    const nw::ScoringLoss viaScoring = nw::scoringLooLoss(data.xTrain, data.yTrain, {nw::Scoring::gaussian, {1.3}}, true, loss);
    const nw::LooResult viaLoo = nw::looLoss(data.xTrain, data.yTrain, 1.3, objective);
    CHECK(viaScoring.loss == viaLoo.loss);
    CHECK(viaScoring.grad == std::vector<double>{viaLoo.grad});
  }
}

TEST_CASE("half the squared loss halves the loss and the gradient exactly", "[scoring]") {
  const nw::Dataset data = smallData(4, 30);
  const nw::ScoringParameters p = nw::initialParameters(nw::Scoring::additive, 5, 4);
  const nw::ScoringLoss full = nw::scoringLooLoss(data.xTrain, data.yTrain, p, true, nw::Loss::squared);
  const nw::ScoringLoss half = nw::scoringLooLoss(data.xTrain, data.yTrain, p, true, nw::Loss::halfSquared);
  CHECK(half.loss == full.loss / 2);
  for (std::size_t i = 0; i < full.grad.size(); ++i) CHECK(half.grad[i] == full.grad[i] / 2);
}

TEST_CASE("Adam's first step moves every parameter by about lr against its gradient", "[scoring]") {
  const nw::Dataset data = smallData(5, 40);
  nw::TrainerSetup setup;
  setup.initial = nw::initialParameters(nw::Scoring::additive, 4, 5);
  setup.lr = 0.01;
  setup.optimizer = nw::Optimizer::adam;
  nw::Trainer trainer(data.xTrain, data.yTrain, setup);
  const std::vector<double> before = trainer.parameters().values;
  const nw::ScoringLoss at = nw::scoringLooLoss(data.xTrain, data.yTrain, setup.initial);
  CHECK(trainer.step() == at.loss);
  for (std::size_t i = 0; i < before.size(); ++i) {
    INFO("parameter " << i << ", gradient " << at.grad[i]);
    // After one bias-corrected step m / sqrt(v) is g / |g|: the step is lr g / (|g| + eps).
    const double g = at.grad[i];
    CHECK(trainer.parameters().values[i] - before[i] == approx(-0.01 * g / (std::fabs(g) + 1e-8), 1e-9));
    if (std::fabs(g) > 1e-4) CHECK(std::fabs(trainer.parameters().values[i] - before[i]) == approx(0.01, 1e-3));
  }
}

TEST_CASE("training lowers the loss of each scoring from its seeded start", "[scoring]") {
  const nw::Dataset data = nw::generateData({});
  for (nw::Scoring scoring : {nw::Scoring::dotProduct, nw::Scoring::additive}) {
    for (nw::Optimizer optimizer : {nw::Optimizer::sgd, nw::Optimizer::adam}) {
      INFO(nw::scoringName(scoring) << " with " << nw::optimizerName(optimizer));
      nw::TrainerSetup setup;
      setup.initial = nw::initialParameters(scoring, nw::kDefaultHidden, 1);
      setup.optimizer = optimizer;
      setup.lr = optimizer == nw::Optimizer::adam ? 0.05 : 0.001;
      nw::Trainer trainer(data.xTrain, data.yTrain, setup);
      const double first = trainer.step();
      double last = first;
      for (int epoch = 1; epoch < 30; ++epoch) last = trainer.step();
      CHECK(last < first);
      CHECK(trainer.epoch() == 30);
    }
  }
}

TEST_CASE("the scaled dot product piles the weights on the largest keys", "[scoring]") {
  // For q > 0 and s > 0, a = s q k grows with k: the largest key has the largest weight, whatever q.
  const nw::Dataset data = nw::generateData({});
  const nw::Matrix weights = nw::scoringWeights(data.xTest, data.xTrain, {nw::Scoring::dotProduct, {2.0}});
  const std::size_t largestKey = static_cast<std::size_t>(std::max_element(data.xTrain.begin(), data.xTrain.end()) - data.xTrain.begin());
  for (std::size_t r = 1; r < weights.rows; ++r) {  // (row 0 is q = 0: uniform)
    const double* row = &weights.data[r * weights.cols];
    CHECK(static_cast<std::size_t>(std::max_element(row, row + weights.cols) - row) == largestKey);
  }
  const double* first = &weights.data[0];
  for (std::size_t c = 0; c < weights.cols; ++c) CHECK(first[c] == approx(1.0 / weights.cols, 1e-12));
}

TEST_CASE("scoring weights are rows of a softmax, and predictions their weighted values", "[scoring]") {
  const nw::Dataset data = smallData(6, 40);
  const nw::ScoringParameters p = nw::initialParameters(nw::Scoring::additive, 8, 6);
  const nw::Matrix weights = nw::scoringWeights(data.xTest, data.xTrain, p);
  const std::vector<double> predicted = nw::scoringPredict(data.xTest, data.xTrain, data.yTrain, p);
  for (std::size_t r = 0; r < weights.rows; ++r) {
    double sum = 0, weighted = 0;
    for (std::size_t c = 0; c < weights.cols; ++c) {
      const double a = weights.data[r * weights.cols + c];
      CHECK(a >= 0);
      sum += a;
      weighted += a * data.yTrain[c];
    }
    CHECK(sum == approx(1.0, 1e-14));
    CHECK(predicted[r] == approx(weighted, 1e-13));
    // The weights are the softmax of the scores.
    const double ratio = weights.data[r * weights.cols + 1] / weights.data[r * weights.cols];
    CHECK(ratio == approx(std::exp(nw::score(p, data.xTest[r], data.xTrain[1]) - nw::score(p, data.xTest[r], data.xTrain[0])), 1e-12));
  }
}

TEST_CASE("scoring blocks keep each block's largest weight, the predictions and each query's peak", "[scoring]") {
  const nw::Dataset data = smallData(3, 37);
  for (const nw::ScoringParameters& p : {nw::initialParameters(nw::Scoring::additive, 5, 3), nw::ScoringParameters{nw::Scoring::dotProduct, {-0.7}},
                                         nw::ScoringParameters{nw::Scoring::gaussian, {3.0}}}) {
    const nw::Matrix weights = nw::scoringWeights(data.xTest, data.xTrain, p);
    const nw::ScoringBlocks b = nw::scoringBlocks(data.xTest, data.xTrain, data.yTrain, p, 2, 5);
    CHECK(b.rowStep == 3);  // 5 queries in at most 2 blocks
    CHECK(b.colStep == 8);  // 37 keys in at most 5
    REQUIRE(b.blockRows * b.blockCols == b.weight.size());
    for (std::size_t block = 0; block < b.weight.size(); ++block) {
      const std::size_t br = block / b.blockCols, bc = block % b.blockCols;
      double largest = 0;
      for (std::size_t r = br * b.rowStep; r < std::min(b.rows, (br + 1) * b.rowStep); ++r) {
        for (std::size_t c = bc * b.colStep; c < std::min(b.cols, (bc + 1) * b.colStep); ++c) largest = std::max(largest, weights.data[r * b.cols + c]);
      }
      CHECK(b.weight[block] == approx(largest, 1e-14));
      CHECK(b.weight[block] == approx(weights.data[b.row[block] * b.cols + b.col[block]], 1e-14));
    }
    const std::vector<double> predicted = nw::scoringPredict(data.xTest, data.xTrain, data.yTrain, p);
    REQUIRE(b.peaks.size() == b.rows);
    for (std::size_t r = 0; r < b.rows; ++r) {
      CHECK(b.predictions[r] == approx(predicted[r], 1e-14));
      for (std::size_t c = 0; c < b.cols; ++c) CHECK(nw::score(p, data.xTest[r], data.xTrain[c]) <= nw::score(p, data.xTest[r], data.xTrain[b.peaks[r]]));
    }
  }
  CHECK_THROWS_AS(nw::scoringBlocks(data.xTest, data.xTrain, {}, {nw::Scoring::dotProduct, {1.0}}, 0, 5), nw::Error);
}

TEST_CASE("scoring errors name the parameter at fault", "[scoring]") {
  const nw::Dataset data = smallData(7, 10);
  const auto throwsNaming = [](auto&& fn, const std::string& parameter) {
    try {
      fn();
    } catch (const nw::Error& error) {
      CHECK(error.parameter() == parameter);
      return;
    }
    FAIL("no nw::Error naming " << parameter);
  };
  throwsNaming([] { nw::initialParameters(nw::Scoring::additive, 0, 1); }, "hidden");
  throwsNaming([] { nw::initialParameters(nw::Scoring::additive, 65, 1); }, "hidden");
  throwsNaming([] { nw::initialParameters(nw::Scoring::dotProduct, 0, 1, 1.0, NAN); }, "s0");
  throwsNaming([&] { nw::scoringLooLoss(data.xTrain, data.yTrain, {nw::Scoring::additive, {1, 2, 3}}); }, "parameters");
  throwsNaming([&] { nw::scoringLooLoss(data.xTrain, data.yTrain, {nw::Scoring::dotProduct, {INFINITY}}); }, "parameters");
  throwsNaming([&] { nw::scoringLooLoss(data.xTrain, {1.0}, {nw::Scoring::dotProduct, {1.0}}); }, "yTrain");
  // s q k overflows: a clear error, not NaN weights.
  throwsNaming([&] { nw::scoringWeights({1e200}, {1e200, 1}, {nw::Scoring::dotProduct, {1.0}}); }, "parameters");
  nw::TrainerSetup setup;
  setup.initial = {nw::Scoring::dotProduct, {1.0}};
  setup.objective.kernel = nw::Kernel::epanechnikov;
  throwsNaming([&] { nw::Trainer(data.xTrain, data.yTrain, setup); }, "kernel");
  setup.objective = {};
  setup.objective.estimator = nw::Estimator::localLinear;
  throwsNaming([&] { nw::Trainer(data.xTrain, data.yTrain, setup); }, "estimator");
  setup.objective = {};
  nw::Trainer dot(data.xTrain, data.yTrain, setup);
  throwsNaming([&] { dot.stepWithRows(nw::looLossRows(data.xTrain, data.yTrain, 1.0, {}, 0, data.xTrain.size())); }, "lossRows");
  CHECK(dot.epoch() == 0);
}

TEST_CASE("a step that diverges keeps the parameters and the optimizer's state", "[scoring]") {
  // A huge learning rate sends s so far that s q k overflows on the next epoch.
  const nw::Dataset data = nw::generateData({});
  nw::TrainerSetup setup;
  setup.initial = {nw::Scoring::dotProduct, {1.0}};
  setup.lr = 1e306;
  nw::Trainer trainer(data.xTrain, data.yTrain, setup);
  try {
    for (int epoch = 0; epoch < 3; ++epoch) trainer.step();
    FAIL("training did not diverge");
  } catch (const nw::Error& error) {
    CHECK((error.parameter() == "lr" || error.parameter() == "parameters"));
  }
  for (double value : trainer.parameters().values) CHECK(std::isfinite(value));
}

TEST_CASE("gaussian pooling is the dot product of the features [q, 1] and [w^2 k, -w^2 k^2 / 2]", "[scoring]") {
  const nw::Dataset data = nw::generateData({});
  for (double w : {0.5, 1.0, 4.0, 16.15}) {
    const nw::Matrix gaussian = nw::attentionWeights(data.xTest, data.xTrain, w);
    const nw::Features features = nw::gaussianFeatures(data.xTest, data.xTrain, w);
    REQUIRE(features.dim == 2);
    CHECK(features.queries[1] == 1.0);
    CHECK(features.keys[0] == w * w * data.xTrain[0]);
    const nw::Matrix dot = nw::dotProductWeights(features);
    REQUIRE(dot.data.size() == gaussian.data.size());
    for (std::size_t i = 0; i < dot.data.size(); ++i) {
      INFO("w " << w << ", cell " << i);
      // Rounding of the larger terms (w^2 k^2 up to 6500 at w = 16): relative 1e-11 where weights matter.
      CHECK(dot.data[i] == approx(gaussian.data[i], 1e-10, 1e-300));
    }
  }
}

TEST_CASE("an epoch from sums added a range of rows at a time is step()'s, bit for bit", "[scoring]") {
  const nw::Dataset data = smallData(11, 23);
  const std::size_t n = data.xTrain.size();
  for (const nw::Scoring scoring : {nw::Scoring::dotProduct, nw::Scoring::additive}) {
    for (const nw::Loss loss : {nw::Loss::squared, nw::Loss::halfSquared}) {
      for (const bool leaveOneOut : {true, false}) {
        nw::TrainerSetup setup;
        setup.initial = nw::initialParameters(scoring, 5, 3);
        setup.optimizer = nw::Optimizer::adam;
        setup.lr = 0.05;
        setup.objective.loss = loss;
        setup.objective.leaveOneOut = leaveOneOut;
        nw::Trainer whole(data.xTrain, data.yTrain, setup), inRanges(data.xTrain, data.yTrain, setup);
        for (int epoch = 0; epoch < 3; ++epoch) {
          nw::ScoringLoss sums{0.0, std::vector<double>(setup.initial.values.size())};
          for (std::size_t begin = 0; begin < n; begin += 4) {
            nw::addScoringLooRows(data.xTrain, data.yTrain, inRanges.parameters(), leaveOneOut, begin, std::min(n, begin + 4), sums);
          }
          const nw::ScoringLoss finished = nw::finishScoringLoss(sums, inRanges.parameters(), loss);
          const nw::ScoringLoss direct = nw::scoringLooLoss(data.xTrain, data.yTrain, inRanges.parameters(), leaveOneOut, loss);
          CHECK(finished.loss == direct.loss);
          CHECK(finished.grad == direct.grad);
          CHECK(inRanges.stepWithSums(sums) == whole.step());
          CHECK(inRanges.parameters().values == whole.parameters().values);
        }
      }
    }
  }
}

TEST_CASE("scoring rows refuse the gaussian scoring, ranges past the data and sums of another shape", "[scoring]") {
  const nw::Dataset data = smallData(7, 10);
  const nw::ScoringParameters dot{nw::Scoring::dotProduct, {1.0}};
  const auto naming = [](auto&& fn) {
    try {
      fn();
    } catch (const nw::Error& error) {
      return error.parameter();
    }
    return std::string("(nothing thrown)");
  };
  nw::ScoringLoss sums{0.0, {0.0}};
  CHECK(naming([&] { nw::addScoringLooRows(data.xTrain, data.yTrain, {nw::Scoring::gaussian, {1.0}}, true, 0, 2, sums); }) == "parameters");
  CHECK(naming([&] { nw::addScoringLooRows(data.xTrain, data.yTrain, dot, true, 3, 2, sums); }) == "rowBegin");
  CHECK(naming([&] { nw::addScoringLooRows(data.xTrain, data.yTrain, dot, true, 0, data.xTrain.size() + 1, sums); }) == "rowBegin");
  nw::ScoringLoss wrongGrad{0.0, {0.0, 0.0}};
  CHECK(naming([&] { nw::addScoringLooRows(data.xTrain, data.yTrain, dot, true, 0, 2, wrongGrad); }) == "gradSum");
  nw::ScoringLoss negative{-1.0, {0.0}};
  CHECK(naming([&] { nw::addScoringLooRows(data.xTrain, data.yTrain, dot, true, 0, 2, negative); }) == "lossSum");
  CHECK(sums.loss == 0.0);  // (refused calls added nothing)
  nw::Trainer gaussian(data.xTrain, data.yTrain, 1.0, 0.5);
  CHECK(naming([&] { gaussian.stepWithSums(sums); }) == "lossSum");
  nw::TrainerSetup setup;
  setup.initial = dot;
  nw::Trainer dotTrainer(data.xTrain, data.yTrain, setup);
  CHECK(naming([&] { dotTrainer.stepWithSums(wrongGrad); }) == "gradSum");
  CHECK(dotTrainer.epoch() == 0);
}
