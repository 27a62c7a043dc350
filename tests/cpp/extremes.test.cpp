// Numerical extremes: each has a defined, documented result and none gives NaN.
#include <algorithm>
#include <cmath>
#include <limits>

#include "approx.hpp"
#include "nw/attention.hpp"
#include "nw/data.hpp"
#include "nw/error.hpp"
#include "nw/training.hpp"

namespace {

bool allFinite(const std::vector<double>& v) {
  return std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); });
}

constexpr double kHuge = std::numeric_limits<double>::max();

}  // namespace

TEST_CASE("negative w behaves as |w|", "[extremes]") {
  const nw::Dataset data = nw::generateData({});
  CHECK(nw::predict(data.xTest, data.xTrain, data.yTrain, -3.0) == nw::predict(data.xTest, data.xTrain, data.yTrain, 3.0));
  const nw::LooResult plus = nw::looLoss(data.xTrain, data.yTrain, 3.0);
  const nw::LooResult minus = nw::looLoss(data.xTrain, data.yTrain, -3.0);
  CHECK(minus.loss == plus.loss);
  CHECK(minus.grad == -plus.grad);  // L(w) is even in w, so its slope is odd
}

TEST_CASE("inputs spread over 1e+-300 and distances that overflow give no NaN", "[extremes]") {
  const std::vector<double> spread{-1e300, -1.0, 0.0, 1e-300, 1e300};
  const std::vector<double> values{1, 2, 3, 4, 5};
  for (double w : {0.0, 1e-300, 1e-150, 1.0, 1e150, 1e300}) {
    CAPTURE(w);
    CHECK(allFinite(nw::predict(spread, spread, values, w)));
    CHECK(allFinite(nw::attentionWeights(spread, spread, w).data));
    const nw::LooResult r = nw::looLoss(spread, values, w);
    CHECK(std::isfinite(r.loss));
    CHECK(!std::isnan(r.grad));
  }
  // |q - k| = 2 * 1.6e308 overflows to infinity: such a key is infinitely far, and if every key is, all are
  // equally far, so the row is uniform.
  const nw::Matrix far = nw::attentionWeights({1.6e308}, {-1.6e308, -1.6e308}, 0.0);
  CHECK(far.data == std::vector<double>{0.5, 0.5});
  CHECK(nw::predict({1.6e308}, {-1.6e308, 1.6e308}, {1.0, 2.0}, 5.0) == std::vector<double>{2.0});
}

TEST_CASE("keys near 1e-163 with w = 1e150: the gradient is the scaled problem's", "[extremes][training]") {
  // Only x w matters: these are the keys 0.37 i^2 + i at w = 1e-13, scaled by 1e-163. Their squared
  // distances are subnormal, so each row's exponent must be formed from d w, not d^2 (which gave the
  // gradient the wrong sign).
  std::vector<double> tiny, plain;
  for (int i = 0; i < 8; ++i) {
    plain.push_back(0.37 * i * i + i);
    tiny.push_back(plain.back() * 1e-163);
  }
  const std::vector<double> y = {0.3, -1.2, 2.5, 0.7, -0.4, 1.9, -2.2, 0.1};
  const double scaled = nw::looLoss(tiny, y, 1e150).grad * 1e150;
  const double expected = nw::looLoss(plain, y, 1e-13).grad * 1e-13;
  INFO("grad * w: " << scaled << " for the tiny keys, " << expected << " for the plain ones");
  CHECK(expected != 0.0);
  CHECK(scaled / expected == approx(1.0, 1e-9, 0.0));
}

TEST_CASE("values near the largest double do not overflow the weighted sum", "[extremes]") {
  const std::vector<double> keys{0.0, 0.0, 1.0};
  const std::vector<double> values{kHuge, kHuge, -kHuge};
  const auto p = nw::predict({0.0, 0.5, 1.0}, keys, values, 0.0);
  for (double v : p) CHECK(v == approx(kHuge / 3, 1e-12));
  CHECK(nw::predict({0.0}, keys, values, 1e6) == std::vector<double>{kHuge});
}

TEST_CASE("predictions stay within the range of the values", "[extremes]") {
  const nw::Dataset data = nw::generateData({});
  const auto [lo, hi] = std::minmax_element(data.yTrain.begin(), data.yTrain.end());
  for (double w : {0.0, 0.1, 1.0, 10.0, 1e3}) {
    for (double p : nw::predict(data.xTest, data.xTrain, data.yTrain, w)) {
      CHECK(p >= *lo);
      CHECK(p <= *hi);
    }
  }
}

TEST_CASE("duplicate keys share their weight and a single key is the prediction", "[extremes]") {
  const nw::Matrix m = nw::attentionWeights({0.3}, {1.0, 1.0, 2.0}, 2.0);
  CHECK(m.data[0] == m.data[1]);
  CHECK(nw::predict({0.0}, {1.0, 1.0, 5.0}, {2.0, 4.0, 100.0}, 1e9) == std::vector<double>{3.0});
  CHECK(nw::predict({-7.0, 0.0, 9.0}, {1.0}, {42.0}, 3.0) == std::vector<double>{42.0, 42.0, 42.0});
}

TEST_CASE("two training points: each sees only the other, so the gradient is 0", "[extremes][training]") {
  const nw::LooResult r = nw::looLoss({0.0, 1.0}, {1.0, 4.0}, 2.0);
  CHECK(r.loss == 18.0);  // (4 - 1)^2 + (1 - 4)^2
  CHECK(r.grad == 0.0);
  nw::Trainer trainer({0.0, 1.0}, {1.0, 4.0}, 2.0, 0.5);
  CHECK(trainer.step() == 18.0);
  CHECK(trainer.w() == 2.0);
}

TEST_CASE("a huge learning rate never produces NaN: each step is finite or refused", "[extremes][training]") {
  const nw::Dataset data = nw::generateData({});
  for (double lr : {1e6, 1e150, 1e300}) {
    nw::Trainer trainer(data.xTrain, data.yTrain, data.w0, lr);
    for (int epoch = 0; epoch < 20; ++epoch) {
      try {
        CHECK(std::isfinite(trainer.step()));
      } catch (const nw::Error& e) {
        CHECK_THAT(e.what(), Catch::StartsWith("lr: training diverged"));
      }
      CHECK(std::isfinite(trainer.w()));
    }
  }
}

TEST_CASE("training values beyond 1e100 are refused", "[extremes][validation]") {
  CHECK_THROWS_WITH(nw::looLoss({0.0, 1.0}, {0.0, 1e101}, 1.0),
                    Catch::StartsWith("yTrain[1] must be at most 1e100 in magnitude"));
}

TEST_CASE("average pooling of values near the largest double (item 16)", "[extremes]") {
  CHECK(nw::averagePool({1.7e308, 1.7e308}) == 1.7e308);
  CHECK(nw::averagePool({kHuge, kHuge, -kHuge}) == approx(kHuge / 3, 1e-15));
  CHECK(nw::averagePool({3e-320, 5e-320}) == approx(4e-320, 0, 0x1p-1074));
  CHECK(nw::averagePool({1.0, 2.0, 4.0}) == 7.0 / 3.0);
  CHECK(nw::predict({0.0}, {0.0, 1.0}, {1.7e308, 1.7e308}, 1.0, nw::Kernel::constant)[0] == 1.7e308);
}

TEST_CASE("test grids whose span overflows (item 15)", "[extremes][data]") {
  SECTION("a span of 2e308") {
    const auto grid = nw::testGrid(-1e308, 1e308, 4);
    REQUIRE(grid.size() == 4);
    CHECK(grid[0] == -1e308);
    CHECK(grid[1] == approx(-0.5e308, 1e-15));
    CHECK(grid[2] == approx(0.0, 0, 1e292));
    CHECK(grid[3] == approx(0.5e308, 1e-15));
  }
  SECTION("i times the span overflows") {
    const auto grid = nw::testGrid(2, 1.797e308, 3);
    CHECK(grid[0] == 2.0);
    CHECK(grid[1] == approx(1.797e308 / 3, 1e-15));
    CHECK(grid[2] == approx(2 * (1.797e308 / 3), 1e-15));
  }
  SECTION("ordinary grids keep the chapter's formula bit for bit") {
    const auto grid = nw::testGrid(0, 5, 50);
    for (std::size_t i = 0; i < grid.size(); ++i) CHECK(grid[i] == 0.0 + static_cast<double>(i) * 5.0 / 50.0);
  }
}
