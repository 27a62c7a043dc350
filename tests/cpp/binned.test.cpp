#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "approx.hpp"
#include "binned_samples.hpp"
#include "nw/attention.hpp"
#include "nw/bandwidth.hpp"
#include "nw/binned.hpp"
#include "nw/data.hpp"
#include "nw/error.hpp"
#include "nw/random.hpp"
#include "nw/training.hpp"

namespace {

using binned_samples::Sample;
using binned_samples::sample;

using binned_samples::ReferenceSums;
using binned_samples::referenceSums;

std::vector<double> queriesFor(const Sample& s, std::uint64_t seed) {
  nw::Random rng(seed);
  std::vector<double> q(s.x);
  for (int i = 0; i < 200; ++i) q.push_back(-1.0 + 7.0 * rng.uniform());  // beyond the keys on both sides too
  return q;
}

}  // namespace

TEST_CASE("binned Gaussian sums stay within their stated bounds of the exact sums", "[binned]") {
  for (int kind : {0, 1, 2}) {
    for (double w : {0.3, 3.0, 14.0, 60.0}) {
      const Sample s = sample(kind, 1500, 7 + kind);
      const std::vector<double> queries = queriesFor(s, 11);
      const nw::BinnedSums sums = nw::binnedGaussianSums(s.x, s.y, queries, w);
      double worstRatio = 0.0, largestError = 0.0;
      for (std::size_t i = 0; i < queries.size(); ++i) {
        const ReferenceSums r = referenceSums(queries[i], s, w, sums.shift);
        const double weightSumError = static_cast<double>(std::fabs(sums.weightSum[i] - r.weightSum));
        const double weightedError = static_cast<double>(std::fabs(sums.weighted[i] - std::ldexp(r.weighted, sums.valueExponent)));
        INFO("kind " << kind << " w " << w << " query " << queries[i]);
        REQUIRE(weightSumError <= sums.weightSumBound[i]);
        REQUIRE(weightedError <= sums.weightedBound[i]);
        worstRatio = std::max(worstRatio, weightSumError / sums.weightSumBound[i]);
        largestError = std::max(largestError, weightSumError);
      }
      INFO("kind " << kind << " w " << w);
      CHECK(largestError > 0.0);  // the sums are approximate: the bound has something to hold
      CHECK(worstRatio > 1e-4);   // and it is not vacuously loose
    }
  }
}

TEST_CASE("binned sums are accurate to about 1e-6 where keys are dense", "[binned]") {
  const Sample s = sample(0, 20000, 3);
  for (double w : {1.0, 14.0}) {
    const nw::BinnedSums sums = nw::binnedGaussianSums(s.x, s.y, s.x, w);
    for (std::size_t i = 0; i < s.x.size(); i += 97) {
      if (s.x[i] < 0.5 || s.x[i] > 4.5) continue;
      CHECK(sums.weightSumBound[i] / sums.weightSum[i] < 2e-6);
    }
  }
}

TEST_CASE("binned predictions are within their bounds of predict's", "[binned]") {
  for (int kind : {0, 1, 2}) {
    const Sample s = sample(kind, 3000, 21 + kind);
    const std::vector<double> queries = queriesFor(s, 5);
    for (double w : {0.5, 5.0, 25.0}) {
      const nw::BinnedPrediction binned = nw::binnedPredict(s.x, s.y, queries, w);
      const std::vector<double> exact = nw::predict(queries, s.x, s.y, w);
      for (std::size_t i = 0; i < queries.size(); ++i) {
        INFO("kind " << kind << " w " << w << " query " << queries[i]);
        // predict's own rounding and its 2^-60 window, beside the bound
        REQUIRE(std::fabs(binned.predictions[i] - exact[i]) <= binned.bounds[i] + 1e-13 * std::fabs(exact[i]));
      }
    }
  }
}

TEST_CASE("the binned leave-one-out loss is within its bound of looLoss; lone keys are summed exactly", "[binned]") {
  for (int kind : {0, 1, 2}) {
    const Sample s = sample(kind, 2500, 31 + kind);
    for (double w : {0.5, 4.0, 20.0}) {
      for (bool leaveOneOut : {true, false}) {
        nw::Objective objective;
        objective.leaveOneOut = leaveOneOut;
        objective.loss = leaveOneOut ? nw::Loss::squared : nw::Loss::halfSquared;
        const nw::BinnedLoss binned = nw::binnedLooLoss(s.x, s.y, w, objective);
        const double exact = nw::looLoss(s.x, s.y, w, objective).loss;
        INFO("kind " << kind << " w " << w << " leaveOneOut " << leaveOneOut);
        CHECK(std::fabs(binned.loss - exact) <= binned.bound + 1e-12 * exact);
        CHECK(binned.bound <= 1e-5 * exact);
        if (kind == 1 && leaveOneOut) CHECK(binned.exactRows >= 1);  // the key at 40 has no neighbour in reach
        if (kind == 0) CHECK(binned.exactRows == 0);
      }
    }
  }
}

TEST_CASE("a coarser binned loss with no row summed exactly stays within its (larger) bound", "[binned][search]") {
  // selectBandwidth screens grid points with these: their bound must hold whatever the spacing.
  for (int kind : {0, 1, 2}) {
    const Sample s = sample(kind, 1500, 51 + kind);
    for (double w : {0.5, 20.0, 80.0}) {
      const double exact = nw::looLoss(s.x, s.y, w).loss;
      double previousBound = 0.0;
      for (double factor : {1.0, 4.0, 16.0, 64.0}) {
        const nw::BinnedLoss coarse = nw::binnedLooLoss(s.x, s.y, w, {}, false, {factor * nw::kBinnedSpacing, INFINITY});
        INFO("kind " << kind << " w " << w << " factor " << factor << " loss " << coarse.loss << " bound " << coarse.bound << " exact " << exact);
        CHECK(coarse.exactRows == 0);
        CHECK(std::fabs(coarse.loss - exact) <= coarse.bound + 1e-12 * exact);
        if (kind == 0 && w == 20.0) CHECK(coarse.bound >= previousBound);  // coarser: a larger bound
        previousBound = coarse.bound;
      }
    }
  }
}

TEST_CASE("a binned loss told to stop above a value sums rows until its lower bound passes it", "[binned][search]") {
  // selectBandwidth screens grid points far from the best so far with these: loss - bound of the rows
  // summed must stay below the exact loss, and pass the value when the rows stop.
  for (int kind : {0, 1, 2}) {
    const Sample s = sample(kind, 2500, 61 + kind);
    for (double w : {0.5, 20.0}) {
      for (bool leaveOneOut : {true, false}) {
        nw::Objective objective;
        objective.leaveOneOut = leaveOneOut;
        objective.loss = leaveOneOut ? nw::Loss::squared : nw::Loss::halfSquared;
        const double exact = nw::looLoss(s.x, s.y, w, objective).loss;
        const nw::BinnedLoss full = nw::binnedLooLoss(s.x, s.y, w, objective);
        CAPTURE(kind, w, leaveOneOut, exact, full.loss);
        CHECK(full.rowsSummed == s.x.size());
        const nw::BinnedLoss stopped = nw::binnedLooLoss(s.x, s.y, w, objective, false, {nw::kBinnedSpacing, nw::kBinnedRowTolerance, false, 0.3 * exact});
        CAPTURE(stopped.rowsSummed, stopped.loss, stopped.bound);
        CHECK(stopped.rowsSummed < s.x.size());
        CHECK(stopped.loss - stopped.bound > 0.3 * exact);
        CHECK(stopped.loss - stopped.bound <= exact);
        // Never passed: every row, the same loss and bound to the last bit.
        const nw::BinnedLoss unstopped = nw::binnedLooLoss(s.x, s.y, w, objective, false, {nw::kBinnedSpacing, nw::kBinnedRowTolerance, false, 2.0 * exact});
        CHECK(unstopped.rowsSummed == s.x.size());
        CHECK(unstopped.loss == full.loss);
        CHECK(unstopped.bound == full.bound);
      }
    }
  }
}

TEST_CASE("the binned paths refuse what they cannot do, naming the parameter", "[binned][validation]") {
  const Sample s = sample(0, 100, 1);
  using Catch::Matchers::Contains;
  CHECK_THROWS_WITH(nw::binnedPredict(s.x, s.y, s.x, 0.0), Contains("w must be nonzero"));
  CHECK_THROWS_WITH(nw::binnedPredict(s.x, s.y, s.x, NAN), Contains("w"));
  CHECK_THROWS_WITH(nw::binnedPredict(s.x, s.y, {}, 1.0), Contains("queries"));
  CHECK_THROWS_WITH(nw::binnedPredict(s.x, s.y, {1.0, INFINITY}, 1.0), Contains("queries"));
  CHECK_THROWS_WITH(nw::binnedPredict({-1e308, 1e308}, {1.0, 2.0}, {0.0}, 1.0), Contains("span"));
  nw::Objective epanechnikov;
  epanechnikov.kernel = nw::Kernel::epanechnikov;
  CHECK_THROWS_WITH(nw::binnedLooLoss(s.x, s.y, 1.0, epanechnikov), Contains("gaussian"));
  nw::Objective localLinear;
  localLinear.estimator = nw::Estimator::localLinear;
  CHECK_THROWS_WITH(nw::binnedLooLoss(s.x, s.y, 1.0, localLinear), Contains("nadarayaWatson"));
  CHECK_THROWS_WITH(nw::binnedLooLoss(s.x, s.y, 1.0, {}, true, {nw::kBinnedSpacing, nw::kBinnedRowTolerance, false, 1.0}), Contains("stopAbove"));
}

TEST_CASE("a huge w gets a coarser grid, not a huge one, and bounds that say so", "[binned][extremes]") {
  const Sample s = sample(0, 200, 2);
  const nw::BinnedPrediction p = nw::binnedPredict(s.x, s.y, s.x, 1e9);
  CHECK(p.gridPoints <= nw::kMaxBinnedGrid);
  for (double b : p.bounds) CHECK(!(b < 1e-3));  // nothing claimed at a grid far coarser than the kernel
}

TEST_CASE("selectBandwidth at large n uses the binned loss within its bound, and w grows with n", "[binned][bandwidth]") {
  nw::DataSpec spec;
  spec.nTrain = 12000;
  spec.seed = 2;
  const nw::Dataset data = nw::generateData(spec);
  const nw::BandwidthChoice choice =
      nw::selectBandwidth(data.xTrain, data.yTrain, {}, nw::Criterion::looCv, nw::Approximation::automatic);
  const double exact = nw::looLoss(data.xTrain, data.yTrain, choice.w).loss;
  CAPTURE(choice.w, choice.loss, choice.lossBound, exact);
  CHECK(choice.approximate);
  CHECK(choice.atLimit == nw::BandwidthLimit::none);
  CHECK(choice.lossBound > 0.0);
  CHECK(std::fabs(choice.loss - exact) <= choice.lossBound);

  // More data supports a narrower kernel: the selected w (an inverse bandwidth) grows with n.
  double previous = 0.0;
  for (std::size_t n : {200, 2000, 20000}) {
    nw::DataSpec growing;
    growing.nTrain = n;
    growing.seed = 1;
    const nw::Dataset d = nw::generateData(growing);
    const nw::BandwidthChoice c = nw::selectBandwidth(d.xTrain, d.yTrain);
    CAPTURE(n, c.w, previous);
    CHECK(c.atLimit == nw::BandwidthLimit::none);
    CHECK(c.w > previous);
    previous = c.w;
  }
}

TEST_CASE("binned slope sums (u^2 K) stay within their bounds of the exact sums", "[binned][gradient]") {
  for (int kind : {0, 1, 2}) {
    for (double w : {0.3, 3.0, 25.0}) {
      const Sample s = sample(kind, 1200, 41 + kind);
      const std::vector<double> queries = queriesFor(s, 13);
      const nw::BinnedSums sums = nw::binnedGaussianSums(s.x, s.y, queries, w, true);
      REQUIRE(sums.slopeSum.size() == queries.size());
      double worstRatio = 0.0;
      for (std::size_t i = 0; i < queries.size(); ++i) {
        long double slopeSum = 0, slopeWeighted = 0;
        for (std::size_t j = 0; j < s.x.size(); ++j) {
          const long double u = (static_cast<long double>(queries[i]) - s.x[j]) * w;
          const long double g = u * u * std::exp(-u * u / 2);
          slopeSum += g;
          slopeWeighted += g * (static_cast<long double>(s.y[j]) - sums.shift);
        }
        slopeWeighted = std::ldexp(slopeWeighted, sums.valueExponent);
        INFO("kind " << kind << " w " << w << " query " << queries[i]);
        const double sumError = static_cast<double>(std::fabs(sums.slopeSum[i] - slopeSum));
        REQUIRE(sumError <= sums.slopeSumBound[i]);
        REQUIRE(static_cast<double>(std::fabs(sums.slopeWeighted[i] - slopeWeighted)) <= sums.slopeWeightedBound[i]);
        worstRatio = std::max(worstRatio, sumError / sums.slopeSumBound[i]);
      }
      INFO("kind " << kind << " w " << w);
      CHECK(worstRatio > 1e-4);  // not vacuously loose
    }
  }
}

TEST_CASE("the binned leave-one-out gradient is within its bound of looLoss's", "[binned][gradient]") {
  for (int kind : {0, 1, 2}) {
    const Sample s = sample(kind, 1500, 51 + kind);
    for (double w : {0.5, 4.0, 20.0}) {
      for (bool leaveOneOut : {true, false}) {
        nw::Objective objective;
        objective.leaveOneOut = leaveOneOut;
        objective.loss = leaveOneOut ? nw::Loss::squared : nw::Loss::halfSquared;
        const nw::BinnedLoss binned = nw::binnedLooLoss(s.x, s.y, w, objective, true);
        const nw::LooResult exact = nw::looLoss(s.x, s.y, w, objective);
        INFO("kind " << kind << " w " << w << " leaveOneOut " << leaveOneOut << " grad " << binned.grad << " exact "
                     << exact.grad << " bound " << binned.gradBound);
        CHECK(std::fabs(binned.grad - exact.grad) <= binned.gradBound + 1e-12 * std::fabs(exact.grad));
        // Not vacuous: the slope in log w (w grad) known to 1e-4 of the loss.
        CHECK(binned.gradBound * w <= 1e-4 * exact.loss);
        CHECK(binned.loss == nw::binnedLooLoss(s.x, s.y, w, objective).loss);  // the same loss with or without it
      }
    }
  }
  // Without the gradient, none is claimed.
  const Sample s = sample(0, 300, 1);
  const nw::BinnedLoss lossOnly = nw::binnedLooLoss(s.x, s.y, 2.0);
  CHECK(lossOnly.grad == 0.0);
  CHECK(lossOnly.gradBound == 0.0);
}
