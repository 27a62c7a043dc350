// Cubic binning (binnedGaussianSums and binnedLooLoss with cubic): the Lagrange weights' properties its
// bound rests on, the fourth derivative's envelope, and every sum and loss within its bound of a
// long-double reference, for dense, clumped and gapped keys, a lone far key, large offsets, values of any
// scale, a huge w and coarse spacings; and the bound far tighter than linear binning's at one spacing.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "../../cpp/src/cubic_binning.hpp"
#include "../../cpp/src/gaussian_envelopes.hpp"
#include "binned_samples.hpp"
#include "nw/binned.hpp"
#include "nw/error.hpp"
#include "nw/random.hpp"
#include "nw/training.hpp"

using Catch::Matchers::Contains;

namespace {

using Data = binned_samples::Sample;

// binned_samples' data (kind 0 uniform, 1 clumped with a lone far key, 2 gapped), values scaled by
// `scale` and moved by `offset`.
Data data(int kind, std::size_t n, std::uint64_t seed, double scale = 1.0, double offset = 0.0) {
  Data d = binned_samples::sample(kind, n, seed);
  for (double& y : d.y) y = offset + scale * y;
  return d;
}

// The leave-one-out loss in long double: weights relative to the nearest other key's (a lone far key's
// would all underflow).
long double referenceLoss(const Data& d, double w) {
  long double loss = 0;
  for (std::size_t i = 0; i < d.x.size(); ++i) {
    long double nearest = INFINITY;
    for (std::size_t j = 0; j < d.x.size(); ++j) {
      const long double u = (static_cast<long double>(d.x[i]) - d.x[j]) * w;
      if (j != i) nearest = std::min(nearest, u * u);
    }
    long double weightSum = 0, weighted = 0;
    for (std::size_t j = 0; j < d.x.size(); ++j) {
      if (j == i) continue;
      const long double u = (static_cast<long double>(d.x[i]) - d.x[j]) * w;
      const long double k = std::exp(-(u * u - nearest) / 2);
      weightSum += k;
      weighted += k * d.y[j];
    }
    const long double r = weighted / weightSum - d.y[i];
    loss += r * r;
  }
  return loss * nw::lossScale(nw::Objective{}.loss);
}

// The largest error / bound of both sums at every query (REQUIREd <= 1) and the largest weight-sum
// bound relative to the weight sum at keys.
struct Worst {
  double ratio = 0.0, relativeBound = 0.0;
};

Worst checkSums(const Data& d, const std::vector<double>& queries, double w, double spacing, bool cubic) {
  const nw::BinnedSums sums = nw::binnedGaussianSums(d.x, d.y, queries, w, false, spacing, cubic);
  const long double unscale = std::ldexp(1.0L, -sums.valueExponent);
  Worst worst;
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const binned_samples::ReferenceSums r = binned_samples::referenceSums(queries[i], d, w, sums.shift);
    const long double countError = std::fabs(sums.weightSum[i] - r.weightSum);
    const long double valueError = std::fabs(sums.weighted[i] * unscale - r.weighted);
    INFO("query " << queries[i] << " w " << w << " spacing " << spacing << " cubic " << cubic);
    REQUIRE(countError <= sums.weightSumBound[i]);
    REQUIRE(valueError <= sums.weightedBound[i] * unscale);
    worst.ratio = std::max({worst.ratio, static_cast<double>(countError / sums.weightSumBound[i]),
                            static_cast<double>(valueError / (sums.weightedBound[i] * unscale))});
    if (r.weightSum > 1) worst.relativeBound = std::max(worst.relativeBound, static_cast<double>(sums.weightSumBound[i] / r.weightSum));
  }
  return worst;
}

std::vector<double> queriesFor(const Data& d, std::uint64_t seed) {
  nw::Random rng(seed);
  std::vector<double> q(d.x);
  for (int i = 0; i < 100; ++i) q.push_back(-1.0 + 7.0 * rng.uniform());
  return q;
}

}  // namespace

TEST_CASE("cubic Lagrange weights: sum 1, magnitudes at most 1.25, slopes' magnitudes at most 2.5, cubics exact", "[binned][cubic]") {
  for (int step = 0; step <= 1000; ++step) {
    const double f = step / 1000.0;
    const nw::binning::CubicWeights l = nw::binning::cubicWeights(f);
    double sum = 0.0, magnitudes = 0.0, cubic = 0.0;
    for (int i = 0; i < 4; ++i) {
      sum += l.w[i];
      magnitudes += std::fabs(l.w[i]);
      const double node = i - 1.0;
      cubic += l.w[i] * (node * node * node - 2.0 * node + 0.5);
    }
    CHECK(std::fabs(sum - 1.0) <= 1e-15);
    CHECK(magnitudes <= 1.25 + 1e-15);
    CHECK(std::fabs(magnitudes - (1.0 + f * (1.0 - f))) <= 1e-15);
    CHECK(std::fabs(cubic - (f * f * f - 2.0 * f + 0.5)) <= 1e-14);
    // The slopes by central differences (the weights are cubics: exact up to rounding).
    const double h = 1e-6;
    const nw::binning::CubicWeights up = nw::binning::cubicWeights(f + h), down = nw::binning::cubicWeights(f - h);
    double slopes = 0.0;
    for (int i = 0; i < 4; ++i) slopes += std::fabs((up.w[i] - down.w[i]) / (2.0 * h));
    CHECK(slopes <= 2.5);
  }
}

TEST_CASE("the fourth derivative's envelope covers |K''''| on its interval and beyond", "[binned][cubic]") {
  using namespace nw::envelopes;
  for (double center : {0.0, 0.3, 1.0, 1.3556, 2.0, 2.857, 4.0, 9.0, 39.0, 1e100}) {
    for (double margin : {0.01, 0.2, 1.0, 4.0}) {
      const double envelope = fourthDerivativeEnvelope(center, margin);
      for (int step = 0; step <= 400; ++step) {
        const double u = std::max(0.0, center - margin) + (center + margin - std::max(0.0, center - margin)) * step / 400.0;
        CHECK(fourthDerivativeMagnitude(u) <= envelope * (1.0 + 1e-12));
      }
      const double beyond = fourthDerivativeBeyond(center);
      for (int step = 0; step <= 400; ++step) CHECK(fourthDerivativeMagnitude(center + step * 0.05) <= beyond * (1.0 + 1e-12));
    }
  }
  CHECK(fourthDerivativeEnvelope(0.0, 0.1) == 3.0);  // the largest, at 0
  CHECK(fourthDerivativeMagnitude(1e200) == 0.0);    // no infinity times 0
}

TEST_CASE("cubic binned sums stay within their bounds of the exact sums", "[binned][cubic]") {
  for (int kind = 0; kind < 3; ++kind) {
    const Data d = data(kind, 400, 11 + kind);
    const std::vector<double> queries = queriesFor(d, 5 + kind);
    for (double w : {0.5, 3.0, 20.0, 300.0}) {
      for (double spacing : {0.002, 0.05, 0.2, 0.5, 1.0}) {
        const Worst worst = checkSums(d, queries, w, spacing, true);
        CHECK(worst.ratio <= 1.0);
      }
    }
  }
}

TEST_CASE("cubic binning: large offsets, any scale, an outlier and a huge w stay within their bounds", "[binned][cubic][bounds]") {
  for (double scale : {1e-20, 1.0, 1e16}) {
    for (double offset : {0.0, 1e12}) {
      const Data d = data(0, 300, 7, scale, offset * scale);
      checkSums(d, queriesFor(d, 3), 4.0, 0.2, true);
    }
  }
  Data outlier = data(0, 300, 9);
  outlier.y[150] = 1e12;
  checkSums(outlier, queriesFor(outlier, 4), 4.0, 0.2, true);
  const Data d = data(0, 300, 10);
  checkSums(d, queriesFor(d, 6), 1e9, 0.2, true);  // a capped grid: coarser, with bounds that say so
  checkSums(d, queriesFor(d, 6), 1e-300, 0.2, true);
  // Keys within a spacing of the largest double: the grid point beyond them need not be a double.
  Data huge;
  for (int i = 0; i < 8; ++i) huge.x.push_back(1.79e308 + i * 1e305), huge.y.push_back(std::sin(i));
  checkSums(huge, huge.x, 2.5e-307, 0.25, true);
}

TEST_CASE("cubic binning: keys at an offset of 1e12, a few ulps apart, stay within their bounds", "[binned][cubic][bounds]") {
  // (A review's find: a grid whose first point was lo - spacing, rounded, moved the end keys by a cell.)
  Data d;
  for (int i = 0; i < 3; ++i) d.x.push_back(1e12 + i * 0x1p-13), d.y.push_back(i);
  checkSums(d, d.x, 1e4, 0.5, true);
  d.y = {10.0, 1.0, 0.0};
  const nw::BinnedLoss binned = nw::binnedLooLoss(d.x, d.y, 1e4, {}, false, {0.5, INFINITY, true});
  CHECK(std::fabs(binned.loss - referenceLoss(d, 1e4)) <= binned.bound);
  // 2,000 keys in [1e12, 1e12 + 100].
  Data wide = data(0, 2000, 41);
  for (double& x : wide.x) x = 1e12 + 20.0 * x;
  for (double w : {1.1, 4.0, 13.0}) {
    for (double spacing : {0.0625, 0.125, 0.5}) checkSums(wide, queriesFor(wide, 42), w, spacing, true);
  }
}

TEST_CASE("at one coarse spacing cubic binning's bound is tens to hundreds of times tighter than linear binning's", "[binned][cubic]") {
  const Data d = data(0, 2000, 21);
  // (The ratio grows as the spacing shrinks: s^2 against s^4.)
  for (const auto [spacing, ratio] : {std::pair(0.05, 300.0), std::pair(0.1, 100.0), std::pair(0.2, 25.0)}) {
    const Worst linear = checkSums(d, d.x, 10.0, spacing, false);
    const Worst cubic = checkSums(d, d.x, 10.0, spacing, true);
    INFO("spacing " << spacing << ": linear " << linear.relativeBound << ", cubic " << cubic.relativeBound);
    CHECK(cubic.relativeBound * ratio < linear.relativeBound);
  }
  // And a cubic grid 10 times coarser than the default linear one is still tighter than it.
  const Worst fine = checkSums(d, d.x, 10.0, nw::kBinnedSpacing, false);
  const Worst coarse = checkSums(d, d.x, 10.0, 10.0 * nw::kBinnedSpacing, true);
  CHECK(coarse.relativeBound < fine.relativeBound);
}

TEST_CASE("the cubic binned leave-one-out loss is within its bound of the exact loss", "[binned][cubic]") {
  for (int kind = 0; kind < 3; ++kind) {
    const Data d = data(kind, 300, 31 + kind);
    for (double w : {1.0, 8.0, 60.0}) {
      for (double spacing : {0.05, 0.3, 1.0}) {
        const nw::BinnedLoss binned = nw::binnedLooLoss(d.x, d.y, w, {}, false, {spacing, INFINITY, true});
        const long double exact = referenceLoss(d, w);
        INFO("kind " << kind << " w " << w << " spacing " << spacing << ": " << binned.loss << " bound " << binned.bound << " exact "
                     << static_cast<double>(exact));
        CHECK(std::fabs(binned.loss - exact) <= binned.bound);
        CHECK(binned.exactRows == 0);
      }
    }
  }
}

TEST_CASE("cubic binning refuses slopes and the gradient, naming cubic", "[binned][cubic][validation]") {
  const Data d = data(0, 50, 1);
  CHECK_THROWS_WITH(nw::binnedGaussianSums(d.x, d.y, d.x, 1.0, true, 0.1, true), Contains("cubic"));
  CHECK_THROWS_WITH(nw::binnedLooLoss(d.x, d.y, 1.0, {}, true, {0.1, INFINITY, true}), Contains("cubic"));
  CHECK_THROWS_WITH(nw::binnedGaussianSums({-1e308, 1e308}, {1.0, 2.0}, {0.0}, 1.0, false, 0.1, true), Contains("span"));
}
