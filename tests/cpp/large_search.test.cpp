// The pieces that make selectBandwidth fast at large n: searches that start from a hint, the lower bound
// of settled rows that stops the grid, and the search's result against a dense exact scan.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "../../cpp/src/fft.hpp"
#include "../../cpp/src/gaussian_rows.hpp"
#include "../../cpp/src/kernel_rows.hpp"
#include "../../cpp/src/linear_binning.hpp"
#include "../../cpp/src/settled_rows.hpp"
#include "approx.hpp"
#include "nw/bandwidth.hpp"
#include "nw/binned.hpp"
#include "nw/data.hpp"
#include "nw/training.hpp"

TEST_CASE("searches from a hint give std::lower_bound's and std::upper_bound's index for any hint", "[search]") {
  std::mt19937_64 random(7);
  for (std::size_t n : {0, 1, 2, 5, 64, 1000}) {
    std::vector<double> keys(n);
    for (double& k : keys) k = static_cast<double>(random() % 40);  // many ties
    std::sort(keys.begin(), keys.end());
    for (int trial = 0; trial < 400; ++trial) {
      const double value = static_cast<double>(random() % 44) - 2.0 + (trial % 3 == 0 ? 0.5 : 0.0);
      const std::size_t hint = static_cast<std::size_t>(random() % (n + 3));  // past the end too
      CAPTURE(n, value, hint);
      CHECK(nw::rows::lowerBound(keys.data(), n, value, &hint) ==
            static_cast<std::size_t>(std::lower_bound(keys.begin(), keys.end(), value) - keys.begin()));
      CHECK(nw::rows::upperBound(keys.data(), n, value, &hint) ==
            static_cast<std::size_t>(std::upper_bound(keys.begin(), keys.end(), value) - keys.begin()));
    }
  }
}

TEST_CASE("exactLooWork counts, for every row, the keys within the Gaussian's reach of it, itself included", "[search][binned]") {
  // Against the definition, pair by pair: sorted keys with ties and gaps, at w from the whole span to
  // none, and w = 0 (every key within reach of every row: n^2).
  std::mt19937_64 random(11);
  for (std::size_t n : {0, 1, 2, 7, 300}) {
    std::vector<double> keys(n);
    for (double& k : keys) k = static_cast<double>(random() % 50) * (random() % 5 == 0 ? 10.0 : 0.01);
    std::sort(keys.begin(), keys.end());
    const double reachTimesW = std::sqrt(nw::rows::windowExponent(n));
    for (double w : {0.0, 0.01, 1.0, 30.0, 1e3, 1e9}) {
      double pairs = 0.0;
      for (double row : keys) {
        for (double key : keys) pairs += std::fabs(row - key) <= reachTimesW / std::fabs(w) ? 1.0 : 0.0;
      }
      CAPTURE(n, w);
      CHECK(nw::exactLooWork(keys, w) == pairs);
    }
  }
}

TEST_CASE("exactLooWork with enough: a count above it where the full one is, else the full one", "[search][binned]") {
  // The full count checked above; enough from none to past it, at sizes where the count can stop early
  // (it looks every 256 steps of its four merges).
  std::mt19937_64 random(12);
  std::size_t stoppedEarly = 0;
  for (std::size_t n : {300, 5000, 40000}) {
    std::vector<double> keys(n);
    for (double& k : keys) k = static_cast<double>(random() % 100000) * 1e-4;
    std::sort(keys.begin(), keys.end());
    for (double w : {0.0, 1.0, 30.0, 1e3, 1e6}) {
      const double full = nw::exactLooWork(keys, w);
      for (double enough : {0.0, static_cast<double>(n), 0.01 * full, 0.5 * full, full - 1.0, full, 2.0 * full}) {
        CAPTURE(n, w, full, enough);
        const double count = nw::exactLooWork(keys, w, enough);
        if (full > enough) {
          CHECK(count > enough);
          CHECK(count <= full);
          stoppedEarly += count < full;
        } else {
          CHECK(count == full);
        }
      }
    }
  }
  CHECK(stoppedEarly > 10);
}

TEST_CASE("linear binning of sorted keys gives binAny's sums bit for bit", "[search][binned]") {
  // Ties, runs of keys in one cell, gaps of many cells, keys beyond both ends of the grid (clamped into
  // its end cells), values of both signs and of very different sizes.
  std::mt19937_64 random(5);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t n = 1 + static_cast<std::size_t>(random() % 400);
    const nw::binning::Cells cells{-1.0, 0.01 + 0.5 * static_cast<double>(random() % 5), 2 + static_cast<std::size_t>(random() % 40)};
    std::vector<double> keys(n), values(n);
    for (std::size_t j = 0; j < n; ++j) {
      const auto kind = random() % 4;
      keys[j] = kind == 0 ? static_cast<double>(random() % 8) : kind == 1 ? -5.0 + 30.0 * normal(random) : normal(random);
      values[j] = normal(random) * std::pow(10.0, static_cast<double>(random() % 9) - 4.0);
    }
    std::sort(keys.begin(), keys.end());
    std::vector<double> anyCounts(cells.points), anyWeighted(cells.points), anyMagnitudes(cells.points);
    std::vector<double> sortedCounts(cells.points), sortedWeighted(cells.points), sortedMagnitudes(cells.points);
    const std::size_t anyTerms = nw::binning::binAny(cells, keys, values, anyCounts, anyWeighted, anyMagnitudes);
    const std::size_t sortedTerms = nw::binning::binSorted(cells, keys, values, sortedCounts, sortedWeighted, sortedMagnitudes);
    CAPTURE(trial, n, cells.spacing, cells.points);
    CHECK(sortedTerms == anyTerms);
    for (std::size_t k = 0; k < cells.points; ++k) {
      CAPTURE(k);
      CHECK(std::memcmp(&sortedCounts[k], &anyCounts[k], sizeof(double)) == 0);
      CHECK(std::memcmp(&sortedWeighted[k], &anyWeighted[k], sizeof(double)) == 0);
      CHECK(std::memcmp(&sortedMagnitudes[k], &anyMagnitudes[k], sizeof(double)) == 0);
    }
  }
}

namespace {

std::size_t bitReversed(std::size_t k, std::size_t n) {
  std::size_t r = 0;
  for (std::size_t bit = 1; bit < n; bit <<= 1) r = (r << 1) | ((k & bit) ? 1 : 0);
  return r;
}

}  // namespace

TEST_CASE("the FFT matches a direct DFT in bit-reversed order and inverts to natural order", "[search][binned]") {
  // Longer than a block (2^11): 2^12 has one stage across the whole array (a lone stage), 2^13 two (one
  // two-stage pass), both after the blocks' 11 (five two-stage passes and a lone one); within a block,
  // 1024 has 10 stages (two-stage passes only), 8 three, 4 two, 2 one, 1 none.
  for (const std::size_t n : {std::size_t{1} << 13, std::size_t{1} << 12, std::size_t{1024}, std::size_t{8}, std::size_t{4},
                              std::size_t{2}, std::size_t{1}}) {
    CAPTURE(n);
    std::mt19937_64 random(3);
    std::normal_distribution<double> normal;
    std::vector<nw::fft::Complex> a(n);
    for (auto& v : a) v = {normal(random), normal(random)};
    std::vector<nw::fft::Complex> b = a;
    const nw::fft::Plan plan(n);
    plan.forward(b);
    for (std::size_t k : {std::size_t{0}, std::size_t{1}, std::size_t{777} % n, n - 1, n / 2 + 1}) {
      long double re = 0, im = 0;
      for (std::size_t j = 0; j < n; ++j) {
        const long double angle = -2.0L * 3.14159265358979323846264338L * static_cast<long double>((j * k) % n) / n;
        re += a[j].real() * std::cos(angle) - a[j].imag() * std::sin(angle);
        im += a[j].real() * std::sin(angle) + a[j].imag() * std::cos(angle);
      }
      CAPTURE(k);
      const nw::fft::Complex at = b[bitReversed(k, n)];
      CHECK(std::fabs(at.real() - static_cast<double>(re)) < 1e-10);
      CHECK(std::fabs(at.imag() - static_cast<double>(im)) < 1e-10);
    }
    plan.inverse(b);
    for (std::size_t j = 0; j < n; j += 1 + n / 97) CHECK(std::abs(b[j] / static_cast<double>(n) - a[j]) < 1e-12);
  }
}

namespace {

nw::Dataset clumped(std::size_t n, std::uint64_t seed) {
  // Keys in a few tight clumps with ties, values with outliers: rows settle at very different w.
  std::mt19937_64 random(seed);
  std::normal_distribution<double> normal;
  nw::Dataset d;
  for (std::size_t i = 0; i < n; ++i) {
    const double centre = static_cast<double>(random() % 5);
    const double x = i % 7 == 0 ? centre : centre + 1e-3 * normal(random);
    d.xTrain.push_back(x);
  }
  std::sort(d.xTrain.begin(), d.xTrain.end());
  for (std::size_t i = 0; i < n; ++i) d.yTrain.push_back(std::sin(d.xTrain[i]) + (i % 50 == 0 ? 30.0 : 0.3) * normal(random));
  return d;
}

}  // namespace

TEST_CASE("rows settled on their nearest keys bound the loss from below at every larger w", "[search][bandwidth]") {
  nw::DataSpec spec;
  spec.nTrain = 3000;
  const std::vector<nw::Dataset> sets = {nw::generateData(spec), clumped(3000, 5)};
  for (std::size_t s = 0; s < sets.size(); ++s) {
    const nw::Dataset& d = sets[s];
    for (bool leaveOneOut : {true, false}) {
      const nw::SettledRows settled(d.xTrain, d.yTrain, leaveOneOut);
      const double limit = nw::nearestNeighbourLoss(d.xTrain, d.yTrain, leaveOneOut);
      if (limit == 0.0) {  // in-sample rows predict themselves in the limit: no bound above 0, ever
        CHECK(settled.beyondWhichAbove(1e-300, 1.0) == INFINITY);
        continue;
      }
      const nw::Objective objective{nw::Kernel::gaussian, leaveOneOut, nw::Loss::squared};
      for (double fraction : {0.1, 0.5, 0.9, 0.99}) {
        const double loss = fraction * limit;
        const double beyond = settled.beyondWhichAbove(loss, 1.0);
        CAPTURE(s, leaveOneOut, fraction, loss, beyond, limit);
        REQUIRE(beyond < INFINITY);  // some w settles enough rows: the limit is above `loss`
        for (double factor : {1.0, 1.5, 4.0, 100.0, 1e6}) {
          const double at = nw::looLoss(d.xTrain, d.yTrain, beyond * factor, objective).loss;
          CAPTURE(factor, at);
          CHECK(at > loss);
        }
        // Not vacuous: the search's grid would have gone far beyond it.
        CHECK(beyond < 1e-3 * nw::bandwidthGrid(d.xTrain).back());
      }
      CHECK(settled.beyondWhichAbove(2.0 * limit, 1.0) == INFINITY);
    }
  }
}

TEST_CASE("the leave-one-out rows summed until they pass a limit: looLoss's sum when they do not, never above it", "[search][bandwidth]") {
  nw::DataSpec spec;
  spec.nTrain = 2000;
  const nw::Dataset generated = nw::generateData(spec);
  const nw::Dataset clumps = clumped(2000, 3);
  for (const nw::Dataset* d : {&generated, &clumps}) {
    const std::size_t n = d->xTrain.size();
    for (bool leaveOneOut : {true, false}) {
      for (double w : {0.3, 3.0, 40.0, 1e4, 1e9}) {
        const double full = nw::looLoss(d->xTrain, d->yTrain, w, {nw::Kernel::gaussian, leaveOneOut}).loss;
        CAPTURE(leaveOneOut, w, full);
        CHECK(nw::rows::gaussianLooSumUntil(d->xTrain.data(), d->yTrain.data(), n, w, leaveOneOut, true, INFINITY) == full);
        if (full == 0.0) continue;  // in-sample rows at huge w predict themselves: no limit below the sum
        for (double fraction : {0.0, 0.3, 0.99, 0.999999}) {
          const double limit = fraction * full;
          const double partial = nw::rows::gaussianLooSumUntil(d->xTrain.data(), d->yTrain.data(), n, w, leaveOneOut, true, limit);
          CAPTURE(fraction, partial);
          CHECK(partial > limit);   // the full sum passes it, so the partial one stops once past it
          CHECK(partial <= full);
          if (fraction <= 0.3) CHECK(partial < full);  // it stopped early
        }
      }
    }
  }
}

TEST_CASE("keys at the same rounded distance from a row weigh the same at every w: the row is not settled on one of them", "[search][bandwidth]") {
  // The fuzzer's find: keys 5e-299 and 2e-289 lie at the same rounded distance from 2.7e-212, so that
  // row predicts their mean at every w, while the settled rows took it for settled on the nearer one at
  // once and stopped the search at w = 1.4e212, above the plateau the grid reaches from 2.7e213.
  const std::vector<double> x = {5.1282927205243296e-299, 2.1324566718471474e-289, 2.6734893525304862e-212};
  const std::vector<double> y = {-6.1865315811123161e+20, 2.2793704818824098e-304, -1.9615413991113174e+23};
  REQUIRE(x[2] - x[0] == x[2] - x[1]);
  const nw::BandwidthChoice choice = nw::selectBandwidth(x, y);
  double gridBest = INFINITY;
  for (double w : nw::bandwidthGrid(x)) gridBest = std::min(gridBest, nw::looLoss(x, y, w).loss);
  CAPTURE(choice.w, choice.loss, gridBest);
  CHECK(choice.loss <= gridBest);

  // Longer ties: from 1e-100, the key at 1e-200 and twelve keys near 0 lie at the same rounded distance,
  // so that row predicts their mean (92, near its own 100) at every w, not the 1,200 of the nearest key.
  std::vector<double> keys, values;
  for (int i = 1; i <= 12; ++i) keys.push_back(i * 1e-300), values.push_back(0.0);
  keys.insert(keys.end(), {1e-200, 1e-100, 1.0, 2.0, 3.0});
  values.insert(values.end(), {1200.0, 100.0, 100.0, 100.0, 100.0});
  REQUIRE(keys[13] - keys[12] == keys[13] - keys[0]);
  for (bool leaveOneOut : {true, false}) {
    const nw::SettledRows settled(keys, values, leaveOneOut);
    const nw::Objective objective{nw::Kernel::gaussian, leaveOneOut, nw::Loss::squared};
    const std::vector<double> grid = nw::bandwidthGrid(keys);
    double gridLow = INFINITY, gridHigh = 0.0;
    for (double w : grid) {
      const double l = nw::looLoss(keys, values, w, objective).loss;
      gridLow = std::min(gridLow, l), gridHigh = std::max(gridHigh, l);
    }
    for (double fraction : {0.0, 0.25, 0.5, 0.75, 1.0}) {
      const double loss = gridLow + fraction * (gridHigh - gridLow);
      const double beyond = settled.beyondWhichAbove(loss, 1.0);
      for (double w : grid) {
        if (w < beyond) continue;
        CAPTURE(leaveOneOut, fraction, loss, beyond, w);
        CHECK(nw::looLoss(keys, values, w, objective).loss > loss);
      }
    }
    const nw::BandwidthChoice best = nw::selectBandwidth(keys, values, objective);
    CAPTURE(leaveOneOut, best.w, best.loss, gridLow);
    CHECK(best.loss <= gridLow);
  }
}

TEST_CASE("selectBandwidth at large n: its exact loss within its bound of a dense exact scan's minimum", "[search][bandwidth][binned]") {
  nw::DataSpec spec;
  spec.nTrain = 5000;  // above the size where binned losses and the settled rows' stop take part
  spec.seed = 4;
  const std::vector<nw::Dataset> sets = {nw::generateData(spec), clumped(5000, 9)};
  for (std::size_t s = 0; s < sets.size(); ++s) {
    const nw::Dataset& d = sets[s];
    const nw::BandwidthChoice choice = nw::selectBandwidth(d.xTrain, d.yTrain);
    double scanBest = INFINITY, scanW = 0.0;
    // Within a factor of 4 either way of the choice (the loss's only dip here: about w = 13 and 2.6).
    const double from = choice.w / 4.0, to = choice.w * 4.0;
    for (double w = from; w < to; w *= 1.04) {
      const double l = nw::looLoss(d.xTrain, d.yTrain, w).loss;
      if (l < scanBest) scanBest = l, scanW = w;
    }
    CHECK(scanW > from * 1.04);  // the scan's minimum is inside it
    CHECK(scanW < to / 1.04);
    const double exact = choice.atLimit == nw::BandwidthLimit::none ? nw::looLoss(d.xTrain, d.yTrain, choice.w).loss : choice.loss;
    CAPTURE(s, choice.w, choice.loss, choice.lossBound, exact, scanW, scanBest);
    CHECK(std::fabs(choice.loss - exact) <= choice.lossBound + 1e-12 * exact);
    CHECK(exact <= scanBest + choice.lossBound + 1e-9 * scanBest);
  }
}

TEST_CASE("selectBandwidth at n = 20,000, where grid points are screened by coarse binned losses, against a dense scan", "[search][bandwidth][binned]") {
  nw::DataSpec spec;
  spec.nTrain = 20000;
  spec.seed = 6;
  const nw::Dataset d = nw::generateData(spec);
  const nw::BandwidthChoice choice = nw::selectBandwidth(d.xTrain, d.yTrain);
  REQUIRE(choice.atLimit == nw::BandwidthLimit::none);
  double scanBest = INFINITY, scanW = 0.0;
  for (double w = 12.0; w < 50.0; w *= 1.04) {  // around the minimum (about w = 25 at this size)
    const double l = nw::looLoss(d.xTrain, d.yTrain, w).loss;
    if (l < scanBest) scanBest = l, scanW = w;
  }
  const double exact = nw::looLoss(d.xTrain, d.yTrain, choice.w).loss;
  CAPTURE(choice.w, choice.loss, choice.lossBound, exact, scanW, scanBest);
  CHECK(scanW > 12.0 * 1.04);  // the scan's minimum is inside it
  CHECK(scanW < 50.0 / 1.04);
  CHECK(std::fabs(choice.loss - exact) <= choice.lossBound + 1e-12 * exact);
  CHECK(exact <= scanBest + choice.lossBound + 1e-9 * scanBest);
}

// Hidden ("[.]": not in CTest's run, about two minutes natively; run it with nw_tests "[slow]"): the size
// where the pilot would start is where every exact loss visits 6e8 pairs.
TEST_CASE("selectBandwidth on keys whose span overflows, at a size where pilot losses would be cheap: no binned sums, no error", "[.][slow][search][bandwidth][binned]") {
  // A review's find: the pilot took its grid's work for cheap where the grid was capped (a span of 2e308
  // caps it at once), and binnedLooLoss refused the span. Keys from -1e308 to 1e308, n = 25,000.
  const std::size_t n = 25000;
  std::vector<double> x(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double t = static_cast<double>(i) / static_cast<double>(n - 1);
    x[i] = -1e308 * (1.0 - t) + 1e308 * t;
    y[i] = std::sin(static_cast<double>(i));
  }
  for (nw::Approximation approximation : {nw::Approximation::automatic, nw::Approximation::never}) {
    const nw::BandwidthChoice choice = nw::selectBandwidth(x, y, {}, nw::Criterion::looCv, approximation);
    CAPTURE(choice.w, choice.loss);
    CHECK(std::isfinite(choice.loss));
    CHECK_FALSE(choice.approximate);
    CHECK(choice.loss <= nw::looLoss(x, y, 0.0).loss);
  }
}

TEST_CASE("selectBandwidth where pilot losses screen the grid (n = 1,500): never above any grid point's exact loss", "[search][bandwidth][binned]") {
  // At this size every exact loss below the minimum visits all n^2 pairs and a pilot loss some n: the
  // pilot's lowest point is evaluated first and the points far from it screened by the pilot's bounds.
  nw::DataSpec spec;
  spec.nTrain = 1500;
  spec.seed = 8;
  const std::vector<nw::Dataset> sets = {nw::generateData(spec), clumped(1500, 11)};
  for (std::size_t s = 0; s < sets.size(); ++s) {
    const nw::Dataset& d = sets[s];
    for (bool leaveOneOut : {true, false}) {
      const nw::Objective objective{nw::Kernel::gaussian, leaveOneOut, nw::Loss::squared};
      const nw::BandwidthChoice choice = nw::selectBandwidth(d.xTrain, d.yTrain, objective);
      const nw::BandwidthChoice exactOnly =
          nw::selectBandwidth(d.xTrain, d.yTrain, objective, nw::Criterion::looCv, nw::Approximation::never);
      double gridBest = INFINITY;
      for (double w : nw::bandwidthGrid(d.xTrain)) gridBest = std::min(gridBest, nw::looLoss(d.xTrain, d.yTrain, w, objective).loss);
      CAPTURE(s, leaveOneOut, choice.w, choice.loss, gridBest);
      CHECK_FALSE(choice.approximate);  // a pilot's loss is never the one reported
      CHECK(choice.loss <= gridBest);
      CHECK(exactOnly.loss <= gridBest);
      if (choice.atLimit == nw::BandwidthLimit::none) CHECK(choice.loss == nw::looLoss(d.xTrain, d.yTrain, choice.w, objective).loss);
    }
  }
}
