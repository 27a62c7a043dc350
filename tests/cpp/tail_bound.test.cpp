// TailBound: one pass that bounds the Gaussian leave-one-out loss from below at every w beyond a given
// one, so that selectBandwidth stops its grid long before the rows settle.
#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "../../cpp/src/settled_rows.hpp"
#include "../../cpp/src/tail_bound.hpp"
#include "approx.hpp"
#include "nw/bandwidth.hpp"
#include "nw/data.hpp"
#include "nw/training.hpp"

namespace {

struct Keyed {
  const char* name;
  std::vector<double> x, y;
};

// Data the bound must hold on: the chapter's; keys rounded onto a coarse lattice (many ties, so rows
// have several nearest keys) with outlying values; a lone far key; values near the largest the loss
// takes; keys a few ulps apart.
std::vector<Keyed> dataSets() {
  std::vector<Keyed> sets;
  nw::DataSpec spec;
  spec.nTrain = 3000;
  spec.seed = 8;
  const nw::Dataset chapter = nw::generateData(spec);
  sets.push_back({"chapter", chapter.xTrain, chapter.yTrain});
  std::mt19937_64 random(17);
  std::uniform_real_distribution<double> uniform(0.0, 5.0);
  std::normal_distribution<double> normal;
  Keyed lattice{"lattice with outliers", {}, {}};
  for (int i = 0; i < 2000; ++i) lattice.x.push_back(std::round(uniform(random) * 40.0) / 40.0);
  std::sort(lattice.x.begin(), lattice.x.end());
  for (std::size_t i = 0; i < lattice.x.size(); ++i) lattice.y.push_back(std::cos(lattice.x[i]) + (i % 97 == 0 ? 50.0 : 0.4) * normal(random));
  sets.push_back(lattice);
  Keyed far{"a lone far key", {}, {}};
  for (int i = 0; i < 500; ++i) far.x.push_back(i * 1e-3), far.y.push_back(std::sin(i * 0.1) + 0.2 * normal(random));
  far.x.push_back(1e6), far.y.push_back(-3.0);
  sets.push_back(far);
  Keyed huge{"values near 1e99 (the largest the loss takes)", {}, {}};
  for (int i = 0; i < 400; ++i) huge.x.push_back(i * 0.01), huge.y.push_back((i % 2 ? 9e99 : -9e99) * (1.0 + 0.01 * normal(random)));
  sets.push_back(huge);
  Keyed ulps{"keys a few ulps apart", {}, {}};
  double key = 1.0;
  for (int i = 0; i < 300; ++i) {
    for (int step = 0; step < 1 + i % 3; ++step) key = std::nextafter(key, 2.0);
    ulps.x.push_back(key), ulps.y.push_back(normal(random));
  }
  sets.push_back(ulps);
  return sets;
}

double fullBound(const nw::TailBound& tail, double w1) {
  double bound = NAN;
  REQUIRE_FALSE(tail.above(w1, INFINITY, bound));
  return bound;
}

}  // namespace

TEST_CASE("a tail bound at w1 lies below the loss at every w >= w1, and passes the best loss well before the grid's end", "[search][bandwidth]") {
  for (const Keyed& d : dataSets()) {
    for (bool leaveOneOut : {true, false}) {
      const nw::TailBound tail(d.x, d.y, leaveOneOut);
      const nw::Objective objective{nw::Kernel::gaussian, leaveOneOut, nw::Loss::squared};
      const std::vector<double> grid = nw::bandwidthGrid(d.x);
      double best = INFINITY;
      for (double w : grid) best = std::min(best, nw::looLoss(d.x, d.y, w, objective).loss);
      double passesAt = INFINITY;  // the smallest grid w whose bound passes the grid's best loss
      for (std::size_t i = 0; i < grid.size(); ++i) {
        const double w1 = grid[i];
        const double bound = fullBound(tail, w1);
        CAPTURE(d.name, leaveOneOut, w1, bound, best);
        REQUIRE(bound >= 0.0);  // (never NaN)
        if (bound > best) passesAt = std::min(passesAt, w1);
        if (i % 3 != 0) continue;  // (the losses at every third grid point)
        for (double factor : {1.0, 1.001, 1.3, 2.0, 10.0, 1e3, 1e8}) {
          const double loss = nw::looLoss(d.x, d.y, w1 * factor, objective).loss;
          CAPTURE(factor, loss);
          CHECK(bound <= loss);
        }
      }
      // Not vacuous: where the nearest-neighbour limit lies above the best, the bound passes the best
      // no later than the settled rows (which stopped the search before it), on the chapter's data at
      // a quarter of their w or less.
      const double limit = nw::nearestNeighbourLoss(d.x, d.y, leaveOneOut);
      const double settledCut = nw::SettledRows(d.x, d.y, leaveOneOut).beyondWhichAbove(best, 1.0);
      CAPTURE(d.name, leaveOneOut, passesAt, settledCut, limit, best);
      if (limit > 1.5 * best) {
        CHECK(passesAt <= settledCut * grid[1] / grid[0]);  // (within a grid step)
        if (d.name == std::string("chapter")) CHECK(passesAt < 0.25 * settledCut);
      }
    }
  }
}

TEST_CASE("a tail bound sums its rows only until they pass the limit, and its estimate is near it", "[search][bandwidth]") {
  nw::DataSpec spec;
  spec.nTrain = 20000;
  const nw::Dataset d = nw::generateData(spec);
  const nw::TailBound tail(d.xTrain, d.yTrain, true);
  for (double w1 : {300.0, 3000.0, 3e4, 3e5}) {
    const double full = fullBound(tail, w1);
    CAPTURE(w1, full);
    REQUIRE(full > 0.0);
    double partial = NAN;
    CHECK(tail.above(w1, 0.5 * full, partial));
    CHECK(partial > 0.5 * full);
    CHECK(partial < full);  // it stopped before the last row
    CHECK_FALSE(tail.above(w1, full, partial));  // not above itself
    CHECK(partial == full);
    // A guess from every fifth row (n / 4,096), for deciding whether the pass may pay: within 10%.
    CHECK(tail.estimate(w1) == Approx(full).epsilon(0.1));
  }
}
