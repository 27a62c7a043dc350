// The leave-one-out loss row by row (what a pool of workers computes): any split of the rows into
// consecutive ranges, summed, is looLoss bit for bit, and a Trainer stepped with them is step().
#include <algorithm>
#include <cstring>
#include <vector>

#include <catch2/catch.hpp>

#include "nw/data.hpp"
#include "nw/error.hpp"
#include "nw/training.hpp"

namespace {

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Rows [0, n) computed in `parts` consecutive ranges of uneven sizes and concatenated.
nw::LooRows rowsInParts(const nw::Dataset& d, double w, nw::Objective objective, std::size_t parts) {
  const std::size_t n = d.xTrain.size();
  nw::LooRows all;
  std::size_t begin = 0;
  for (std::size_t p = 1; p <= parts; ++p) {
    const std::size_t end = p == parts ? n : std::min(n, n * p * p / (parts * parts));  // uneven ranges
    const nw::LooRows part = nw::looLossRows(d.xTrain, d.yTrain, w, objective, begin, end);
    REQUIRE(part.loss.size() == end - begin);
    all.loss.insert(all.loss.end(), part.loss.begin(), part.loss.end());
    all.gradTimesW.insert(all.gradTimesW.end(), part.gradTimesW.begin(), part.gradTimesW.end());
    begin = end;
  }
  return all;
}

}  // namespace

TEST_CASE("the loss summed from rows in ranges is looLoss bit for bit", "[training][rows]") {
  nw::Dataset sorted = nw::generateData({300, 10, 0.5, 0.0, 5.0, 4});
  nw::Dataset unsorted = sorted;
  std::reverse(unsorted.xTrain.begin(), unsorted.xTrain.end());
  std::reverse(unsorted.yTrain.begin(), unsorted.yTrain.end());
  for (const nw::Dataset* d : {&sorted, &unsorted}) {
    for (nw::Kernel kernel : nw::allKernels()) {
      for (nw::Estimator estimator : {nw::Estimator::nadarayaWatson, nw::Estimator::localLinear}) {
        for (bool leaveOneOut : {true, false}) {
          for (nw::Loss loss : {nw::Loss::squared, nw::Loss::halfSquared}) {
            for (double w : {0.0, 0.4, 1.0, 7.0, 90.0}) {
              const nw::Objective objective{kernel, leaveOneOut, loss, estimator};
              const nw::LooResult whole = nw::looLoss(d->xTrain, d->yTrain, w, objective);
              for (std::size_t parts : {1, 2, 3, 7}) {
                const nw::LooResult summed = nw::sumLooRows(rowsInParts(*d, w, objective, parts), w, loss);
                INFO(nw::kernelName(kernel) << " w " << w << " parts " << parts << " leaveOneOut " << leaveOneOut);
                CHECK(sameBits(summed.loss, whole.loss));
                CHECK(sameBits(summed.grad, whole.grad));
              }
            }
          }
        }
      }
    }
  }
}

TEST_CASE("a Trainer stepped with rows computed elsewhere follows step() bit for bit", "[training][rows]") {
  const nw::Dataset d = nw::generateData({200, 10, 0.5, 0.0, 5.0, 2});
  for (nw::Estimator estimator : {nw::Estimator::nadarayaWatson, nw::Estimator::localLinear}) {
    const nw::Objective objective{nw::Kernel::gaussian, true, nw::Loss::squared, estimator};
    nw::Trainer alone(d.xTrain, d.yTrain, d.w0, 0.5, objective);
    nw::Trainer withRows(d.xTrain, d.yTrain, d.w0, 0.5, objective);
    for (int epoch = 0; epoch < 6; ++epoch) {
      const double loss = alone.step();
      CHECK(sameBits(withRows.stepWithRows(rowsInParts(d, withRows.w(), objective, 2)), loss));
      CHECK(sameBits(withRows.w(), alone.w()));
      CHECK(withRows.epoch() == alone.epoch());
    }
  }
}

TEST_CASE("rows and their sums are checked, naming the parameter", "[training][rows][validation]") {
  const std::vector<double> x{0, 1, 2, 3}, y{1, 0, 1, 0};
  CHECK_THROWS_WITH(nw::looLossRows(x, y, 1.0, {}, 3, 2),
                    "rowBegin and rowEnd must satisfy 0 <= rowBegin <= rowEnd <= xTrain.length (4), got 3 and 2");
  CHECK_THROWS_WITH(nw::looLossRows(x, y, 1.0, {}, 0, 5), Catch::StartsWith("rowBegin and rowEnd must satisfy"));
  CHECK(nw::looLossRows(x, y, 1.0, {}, 2, 2).loss.empty());
  CHECK_THROWS_WITH(nw::sumLooRows({{1.0, 2.0}, {1.0}}, 1.0, nw::Loss::squared),
                    "gradRows must have the same length as lossRows (2), got 1");
  CHECK_THROWS_WITH(nw::sumLooRows({{-1.0}, {0.0}}, 1.0, nw::Loss::squared), "lossRows[0] must be a finite number >= 0, got -1");
  CHECK_THROWS_WITH(nw::sumLooRows({{1.0, INFINITY}, {0.0, 0.0}}, 1.0, nw::Loss::squared), Catch::StartsWith("lossRows[1] must be a finite"));
  CHECK_THROWS_WITH(nw::sumLooRows({{1.0}, {NAN}}, 1.0, nw::Loss::squared), "gradRows[0] must not be NaN");
  CHECK_THROWS_WITH(nw::sumLooRows({{1.0}, {1.0}}, NAN, nw::Loss::squared), "w must be a finite number, got NaN");

  nw::Trainer trainer(x, y, 1.0, 0.5);
  CHECK_THROWS_WITH(trainer.stepWithRows({{1.0}, {1.0}}), "lossRows must have one row per training point (4), got 1");
  CHECK(trainer.w() == 1.0);
  CHECK(trainer.epoch() == 0);
}
