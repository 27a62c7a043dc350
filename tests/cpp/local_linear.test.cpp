#include <cmath>
#include <cstdint>
#include <vector>

#include "approx.hpp"
#include "nw/attention.hpp"
#include "nw/bandwidth.hpp"
#include "nw/data.hpp"
#include "nw/error.hpp"
#include "nw/local_linear.hpp"
#include "nw/training.hpp"

namespace {

// The kernels written out again from their definitions, unshifted, in long double.
long double referenceKernel(nw::Kernel kernel, long double d) {
  d = std::fabs(d);
  switch (kernel) {
    case nw::Kernel::gaussian: return std::exp(-d * d / 2);
    case nw::Kernel::boxcar: return d < 1 ? 1 : 0;
    case nw::Kernel::constant: return 1;
    case nw::Kernel::epanechnikov: return d < 1 ? 1 - d * d : 0;
    case nw::Kernel::triangular: return d < 1 ? 1 - d : 0;
  }
  return 0;
}

// A straightforward weighted least-squares fit of a + b (x_i - x), read at x: the 2 x 2 normal equations
// solved by Cramer's rule, a = (S2 T0 - S1 T1) / (S0 S2 - S1^2), skipping key `skip`. Also the design's
// relative determinant (S0 S2 - S1^2) / (S0 S2), to tell the singular rows.
struct ReferenceFit {
  long double a = 0, relativeDeterminant = 0;
};

ReferenceFit referenceFit(double query, const std::vector<double>& x, const std::vector<double>& y, double w,
                          nw::Kernel kernel, std::size_t skip = SIZE_MAX) {
  long double s0 = 0, s1 = 0, s2 = 0, t0 = 0, t1 = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (i == skip) continue;
    const long double d = static_cast<long double>(x[i]) - query;
    const long double k = referenceKernel(kernel, d * w);
    s0 += k;
    s1 += k * d;
    s2 += k * d * d;
    t0 += k * y[i];
    t1 += k * d * y[i];
  }
  const long double det = s0 * s2 - s1 * s1;
  return {(s2 * t0 - s1 * t1) / det, s0 * s2 > 0 ? det / (s0 * s2) : 0};
}

class Uniform {
 public:
  explicit Uniform(std::uint64_t seed) : state_(seed) {}
  double operator()(double lo, double hi) {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (hi - lo) * (static_cast<double>(state_ >> 11) * 0x1p-53);
  }

 private:
  std::uint64_t state_;
};

const nw::Objective localLinearObjective(nw::Kernel kernel, bool leaveOneOut = true) {
  return {kernel, leaveOneOut, nw::Loss::squared, nw::Estimator::localLinear};
}

}  // namespace

TEST_CASE("local-linear predictions match a direct weighted least-squares fit on random data", "[localLinear]") {
  Uniform uniform(7);
  int compared = 0, singular = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const std::size_t n = 3 + trial * 7;
    std::vector<double> keys(n), values(n), queries(40);
    for (std::size_t i = 0; i < n; ++i) {
      keys[i] = uniform(0, 5);
      values[i] = 2 * std::sin(keys[i]) + uniform(-1, 1);
    }
    if (trial % 2 == 0) std::sort(keys.begin(), keys.end());  // the windowed path, and the full one
    for (double& q : queries) q = uniform(-0.5, 5.5);
    double largest = 0;
    for (double v : values) largest = std::max(largest, std::fabs(v));
    for (nw::Kernel kernel : nw::allKernels()) {
      for (double w : {0.0, 0.3, 1.0, 2.5, 7.0}) {
        CAPTURE(trial, nw::kernelName(kernel), w);
        const nw::LocalLinearFit fit = nw::localLinear(queries, keys, values, w, kernel);
        const std::vector<double> nadarayaWatson = nw::predict(queries, keys, values, w, kernel);
        for (std::size_t q = 0; q < queries.size(); ++q) {
          const ReferenceFit ref = referenceFit(queries[q], keys, values, w, kernel);
          CAPTURE(queries[q], ref.relativeDeterminant);
          if (ref.relativeDeterminant > 1e-8) {
            CHECK(fit.fallbackRows[q] == 0);
            CHECK(fit.predictions[q] == approx(static_cast<double>(ref.a), 1e-10, 1e-10 * largest));
            ++compared;
          } else if (ref.relativeDeterminant < 1e-12) {  // a single key (or place) in reach, or none
            CHECK(fit.fallbackRows[q] == 1);
            CHECK(fit.predictions[q] == nadarayaWatson[q]);
            ++singular;
          }
        }
      }
    }
  }
  CHECK(compared > 5000);
  CHECK(singular > 100);
}

TEST_CASE("local-linear pooling reproduces a line exactly, which Nadaraya-Watson does not", "[localLinear]") {
  const std::vector<double> keys{0.0, 0.4, 1.1, 2.0, 2.2, 3.7, 4.9};
  std::vector<double> values;
  for (double k : keys) values.push_back(3.0 * k - 2.0);
  const std::vector<double> queries{-1.0, 0.0, 0.5, 2.1, 4.9, 6.0};
  for (nw::Kernel kernel : {nw::Kernel::gaussian, nw::Kernel::epanechnikov, nw::Kernel::triangular, nw::Kernel::constant}) {
    const nw::LocalLinearFit fit = nw::localLinear(queries, keys, values, 0.4, kernel);
    for (std::size_t q = 0; q < queries.size(); ++q) {
      CAPTURE(nw::kernelName(kernel), queries[q]);
      CHECK(fit.fallbackRows[q] == 0);
      CHECK(fit.predictions[q] == approx(3.0 * queries[q] - 2.0, 1e-13, 1e-13));
    }
  }
  // At the ends Nadaraya-Watson is pulled towards the inside (its boundary bias).
  CHECK(nw::predict({0.0}, keys, values, 0.4)[0] > -2.0 + 0.5);
}

TEST_CASE("the constant kernel's local line is the ordinary least-squares line", "[localLinear]") {
  // x = 0, 1, 2, 3 and y = 1, 3, 2, 5: slope 1.1, intercept 1.1 (by hand: xbar 1.5, ybar 2.75,
  // Sxy = 5.5, Sxx = 5), so the line at 10 is 12.1, for every w.
  const nw::LocalLinearFit fit = nw::localLinear({10.0, -1.0}, {0.0, 1.0, 2.0, 3.0}, {1.0, 3.0, 2.0, 5.0}, 123.0, nw::Kernel::constant);
  CHECK(fit.predictions[0] == approx(12.1, 1e-14));
  CHECK(fit.predictions[1] == approx(0.0, 0.0, 1e-14));
}

TEST_CASE("a singular local design falls back to the Nadaraya-Watson value and is flagged", "[localLinear][extremes]") {
  const std::vector<double> keys{0.0, 1.0, 1.0, 5.0};
  const std::vector<double> values{2.0, 4.0, 6.0, -3.0};
  SECTION("one key in a compact kernel's reach") {
    // At 0.2 with w = 2 the epanechnikov kernel reaches (|d| < 0.5) only the key at 0.
    const nw::LocalLinearFit fit = nw::localLinear({0.2}, keys, values, 2.0, nw::Kernel::epanechnikov);
    CHECK(fit.fallbackRows[0] == 1);
    CHECK(fit.predictions[0] == 2.0);
  }
  SECTION("only duplicates of one key in reach: their mean") {
    const nw::LocalLinearFit fit = nw::localLinear({1.3}, keys, values, 2.0, nw::Kernel::triangular);
    CHECK(fit.fallbackRows[0] == 1);
    CHECK(fit.predictions[0] == 5.0);
  }
  SECTION("no key in reach: Nadaraya-Watson's own fallback, the nearest key") {
    const nw::LocalLinearFit fit = nw::localLinear({3.5}, keys, values, 1.0, nw::Kernel::boxcar);
    CHECK(fit.fallbackRows[0] == 1);
    CHECK(fit.predictions[0] == -3.0);
  }
  SECTION("a Gaussian so narrow that one key takes all the weight") {
    const nw::LocalLinearFit fit = nw::localLinear({0.1, 4.0}, keys, values, 1e3, nw::Kernel::gaussian);
    CHECK(fit.fallbackRows == std::vector<unsigned char>{1, 1});
    CHECK(fit.predictions == nw::predict({0.1, 4.0}, keys, values, 1e3));
  }
  SECTION("a single key") {
    const nw::LocalLinearFit fit = nw::localLinear({-7.0, 9.0}, {1.0}, {42.0}, 1.0);
    CHECK(fit.predictions == std::vector<double>{42.0, 42.0});
    CHECK(fit.fallbackRows == std::vector<unsigned char>{1, 1});
  }
  SECTION("two keys in reach on either side: the line through them") {
    // At 0.75 (w = 0.5, epanechnikov) the keys 0, 1 and 1 are in reach: the line through (0, 2) and (1, 5).
    const nw::LocalLinearFit fit = nw::localLinear({0.75}, keys, values, 0.5, nw::Kernel::epanechnikov);
    CHECK(fit.fallbackRows[0] == 0);
    CHECK(fit.predictions[0] == approx(2.0 + 3.0 * 0.75, 1e-14));
  }
}

TEST_CASE("local-linear predictions stay finite at numerical extremes", "[localLinear][extremes]") {
  const std::vector<double> spread{-1e300, -1.0, 0.0, 1e-300, 1e300};
  for (double w : {0.0, 1e-300, 1.0, 1e300}) {
    for (nw::Kernel kernel : nw::allKernels()) {
      CAPTURE(w, nw::kernelName(kernel));
      const nw::LocalLinearFit fit = nw::localLinear(spread, spread, {1, 2, 3, 4, 5}, w, kernel);
      for (double p : fit.predictions) CHECK(std::isfinite(p));
      const nw::LooResult loo = nw::looLoss(spread, {1, 2, 3, 4, 5}, w, localLinearObjective(kernel));
      CHECK(std::isfinite(loo.loss));
      CHECK(!std::isnan(loo.grad));
    }
  }
  // Keys whose differences overflow, values near the largest double: finite, or the flagged fallback.
  const nw::LocalLinearFit fit = nw::localLinear({0.0, 1.7e308}, {-1.7e308, -1e308, 1e308, 1.7e308},
                                                 {1.7e308, -1.7e308, 1.7e308, -1.7e308}, 1e-308);
  for (double p : fit.predictions) CHECK(std::isfinite(p));
}

TEST_CASE("the local-linear leave-one-out loss is the sum of squared errors of the reference fits", "[localLinear][training]") {
  const nw::Dataset data = nw::generateData({});
  for (nw::Kernel kernel : {nw::Kernel::gaussian, nw::Kernel::epanechnikov, nw::Kernel::triangular}) {
    for (bool leaveOneOut : {true, false}) {
      for (double w : {0.0, 0.5, 1.0, 3.0}) {
        long double expected = 0;
        const std::size_t n = data.xTrain.size();
        for (std::size_t j = 0; j < n; ++j) {
          const ReferenceFit ref = referenceFit(data.xTrain[j], data.xTrain, data.yTrain, w, kernel, leaveOneOut ? j : SIZE_MAX);
          // Rows the reference finds singular are Nadaraya-Watson's: none on the chapter's data here.
          REQUIRE(ref.relativeDeterminant > 1e-8);
          expected += (ref.a - data.yTrain[j]) * (ref.a - data.yTrain[j]);
        }
        CAPTURE(nw::kernelName(kernel), leaveOneOut, w);
        CHECK(nw::looLoss(data.xTrain, data.yTrain, w, localLinearObjective(kernel, leaveOneOut)).loss ==
              approx(static_cast<double>(expected), 1e-10));
      }
    }
  }
}

TEST_CASE("the local-linear leave-one-out gradient matches central finite differences", "[localLinear][training]") {
  const nw::Dataset data = nw::generateData({});
  Uniform uniform(3);
  std::vector<double> x(30), y(30);
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = uniform(-2, 2);
    y[i] = x[i] * x[i] + uniform(-0.3, 0.3);
  }
  int checked = 0;
  for (const auto* set : {&data, static_cast<const nw::Dataset*>(nullptr)}) {
    const std::vector<double>& xs = set ? set->xTrain : x;
    const std::vector<double>& ys = set ? set->yTrain : y;
    for (nw::Kernel kernel : {nw::Kernel::gaussian, nw::Kernel::epanechnikov, nw::Kernel::triangular}) {
      for (bool leaveOneOut : {true, false}) {
        for (double w : {0.3, 0.8, 1.7, 4.0, -1.2}) {
          const double h = 1e-6 * std::fabs(w);
          // The compact kernels' loss has kinks where a key enters or leaves a support (|x_i - x_j| w = 1):
          // differences across one say nothing about the derivative, so such w are skipped.
          bool kink = false;
          for (double a : xs) {
            for (double b : xs) {
              const double reach = std::fabs(a - b);
              kink = kink || (kernel != nw::Kernel::gaussian && reach * (std::fabs(w) - h) < 1 && reach * (std::fabs(w) + h) >= 1);
            }
          }
          if (kink) continue;
          const nw::Objective objective = localLinearObjective(kernel, leaveOneOut);
          const nw::LooResult at = nw::looLoss(xs, ys, w, objective);
          const double numeric = (nw::looLoss(xs, ys, w + h, objective).loss - nw::looLoss(xs, ys, w - h, objective).loss) / (2 * h);
          CAPTURE(set != nullptr, nw::kernelName(kernel), leaveOneOut, w, at.loss, at.grad, numeric);
          CHECK(std::fabs(at.grad - numeric) <= 1e-6 * std::fabs(numeric) + 1e-8 * at.loss);
          ++checked;
        }
      }
    }
  }
  CHECK(checked >= 40);
}

TEST_CASE("training the local-linear estimator lowers its loss and approaches its selected bandwidth", "[localLinear][training][bandwidth]") {
  const nw::Dataset data = nw::generateData({});
  for (nw::Kernel kernel : {nw::Kernel::gaussian, nw::Kernel::epanechnikov, nw::Kernel::triangular}) {
    CAPTURE(nw::kernelName(kernel));
    const nw::Objective objective = localLinearObjective(kernel);
    const nw::BandwidthChoice best = nw::selectBandwidth(data.xTrain, data.yTrain, objective);
    CHECK(best.loss == nw::looLoss(data.xTrain, data.yTrain, best.w, objective).loss);
    double gridBest = INFINITY;
    for (int i = 0; i < 4000; ++i) {
      gridBest = std::min(gridBest, nw::looLoss(data.xTrain, data.yTrain, 0.01 * std::pow(2e4, i / 3999.0), objective).loss);
    }
    CHECK(best.loss <= gridBest * (1 + 1e-9));
    if (kernel == nw::Kernel::gaussian) {
      nw::Trainer trainer(data.xTrain, data.yTrain, 1.0, 0.05, objective);
      double previous = trainer.step(), loss = previous;
      for (int epoch = 0; epoch < 300; ++epoch) {
        loss = trainer.step();
        CHECK(loss <= previous * (1 + 1e-12));
        previous = loss;
      }
      CHECK(loss >= best.loss * (1 - 1e-12));
      CHECK(loss == approx(best.loss, 1e-4));
    }
  }
}

TEST_CASE("estimator names", "[localLinear][validation]") {
  CHECK(nw::parseEstimator("nadarayaWatson") == nw::Estimator::nadarayaWatson);
  CHECK(nw::parseEstimator("localLinear") == nw::Estimator::localLinear);
  CHECK(std::string(nw::estimatorName(nw::Estimator::localLinear)) == "localLinear");
  CHECK_THROWS_WITH(nw::parseEstimator("ll"), "estimator must be one of nadarayaWatson, localLinear, got 'll'");
  CHECK_THROWS_WITH(nw::localLinear({1.0}, {}, {}, 1.0), "keys must not be empty");
  CHECK_THROWS_WITH(nw::localLinear({1.0}, {1.0, 2.0}, {1.0}, 1.0), "values must have the same length as keys (2), got 1");
  CHECK_THROWS_WITH(nw::localLinear({1.0}, {1.0}, {1.0}, NAN), "w must be a finite number, got NaN");
}
