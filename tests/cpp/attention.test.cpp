#include <algorithm>
#include <cmath>
#include <numeric>

#include "approx.hpp"
#include "nw/attention.hpp"
#include "nw/data.hpp"
#include "nw/error.hpp"

namespace {

// The chapter's formula written out directly: softmax of -((q - k) w)^2 / 2 in two passes.
std::vector<double> twoPassReference(const std::vector<double>& queries, const std::vector<double>& keys,
                                     const std::vector<double>& values, double w) {
  std::vector<double> out;
  for (double q : queries) {
    std::vector<double> s;
    for (double k : keys) s.push_back(-((q - k) * w) * ((q - k) * w) / 2);
    const double m = *std::max_element(s.begin(), s.end());
    double z = 0, acc = 0;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      z += std::exp(s[i] - m);
      acc += std::exp(s[i] - m) * values[i];
    }
    out.push_back(acc / z);
  }
  return out;
}

bool allFinite(const std::vector<double>& v) {
  return std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); });
}

}  // namespace

TEST_CASE("average pooling predicts the mean of the values", "[attention]") {
  CHECK(nw::averagePool({1.0, 2.0, 6.0}) == 3.0);
  CHECK_THROWS_WITH(nw::averagePool({}), "values must not be empty");
}

TEST_CASE("attention weights are probability distributions over the keys", "[attention]") {
  const nw::Dataset data = nw::generateData({});
  for (double w : {0.0, 0.3, 1.0, 7.0, 1e6}) {
    const nw::Matrix m = nw::attentionWeights(data.xTest, data.xTrain, w);
    REQUIRE(m.rows == 50);
    REQUIRE(m.cols == 50);
    for (std::size_t r = 0; r < m.rows; ++r) {
      const auto row = m.data.begin() + r * m.cols;
      CHECK(std::accumulate(row, row + m.cols, 0.0) == approx(1.0, 1e-12));
      CHECK(std::all_of(row, row + m.cols, [](double a) { return a >= 0.0 && std::isfinite(a); }));
    }
  }
}

TEST_CASE("symmetric placements get equal weights", "[attention]") {
  SECTION("a query halfway between two keys") {
    const nw::Matrix m = nw::attentionWeights({1.5}, {1.0, 2.0}, 3.0);
    CHECK(m.data[0] == approx(0.5, 1e-15));
    CHECK(m.data[1] == approx(0.5, 1e-15));
  }
  SECTION("keys mirrored around the query") {
    const nw::Matrix m = nw::attentionWeights({0.0}, {-2.0, -1.0, 0.0, 1.0, 2.0}, 1.0);
    CHECK(m.data[0] == approx(m.data[4], 1e-15));
    CHECK(m.data[1] == approx(m.data[3], 1e-15));
    CHECK(m.data[2] > m.data[1]);
    CHECK(m.data[1] > m.data[0]);
  }
  SECTION("w and -w give the same weights") {
    CHECK(nw::attentionWeights({0.3}, {0.0, 1.0, 2.0}, 2.0).data ==
          nw::attentionWeights({0.3}, {0.0, 1.0, 2.0}, -2.0).data);
  }
}

TEST_CASE("a known two-key case", "[attention]") {
  // Keys at distance 0 and 1 with w = 2: scores 0 and -2, so weights 1/(1+e^-2) and e^-2/(1+e^-2).
  const nw::Matrix m = nw::attentionWeights({0.0}, {0.0, 1.0}, 2.0);
  CHECK(m.data[0] == approx(1 / (1 + std::exp(-2.0)), 1e-15));
  CHECK(m.data[1] == approx(std::exp(-2.0) / (1 + std::exp(-2.0)), 1e-15));
}

TEST_CASE("limits of the bandwidth", "[attention]") {
  const std::vector<double> keys{0.0, 1.0, 2.5, 4.0};
  const std::vector<double> values{3.0, -1.0, 2.0, 8.0};
  const std::vector<double> queries{0.2, 1.9, 3.0, 5.0};
  SECTION("w -> 0 gives average pooling") {
    for (double w : {0.0, 1e-9, 1e-300}) {
      for (double p : nw::predict(queries, keys, values, w)) CHECK(p == approx(nw::averagePool(values), 1e-12));
    }
  }
  SECTION("huge w gives the nearest key's value") {
    for (double w : {1e3, 1e6, 1e300}) {
      CHECK(nw::predict(queries, keys, values, w) == std::vector<double>{3.0, 2.0, 2.0, 8.0});
    }
  }
  SECTION("no NaN for w = 1e6 or for inputs spread over 1e+-300") {
    CHECK(allFinite(nw::predict(queries, keys, values, 1e6)));
    const std::vector<double> spread{-1e300, -1e-300, 0.0, 1e-300, 1e300};
    CHECK(allFinite(nw::predict(spread, spread, {1, 2, 3, 4, 5}, 1.0)));
    CHECK(allFinite(nw::attentionWeights(spread, spread, 1e6).data));
  }
}

TEST_CASE("predict matches the two-pass reference and the weight matrix", "[attention]") {
  const nw::Dataset data = nw::generateData({});
  for (double w : {0.5, 1.0, 4.0, 30.0}) {
    const auto predicted = nw::predict(data.xTest, data.xTrain, data.yTrain, w);
    const auto reference = twoPassReference(data.xTest, data.xTrain, data.yTrain, w);
    const nw::Matrix m = nw::attentionWeights(data.xTest, data.xTrain, w);
    for (std::size_t q = 0; q < predicted.size(); ++q) {
      CHECK(predicted[q] == approx(reference[q], 1e-13, 1e-14));
      double viaMatrix = 0;
      for (std::size_t i = 0; i < m.cols; ++i) viaMatrix += m.data[q * m.cols + i] * data.yTrain[i];
      CHECK(predicted[q] == approx(viaMatrix, 1e-13, 1e-14));
    }
  }
}

TEST_CASE("invalid attention inputs are rejected with the parameter's name", "[attention][validation]") {
  CHECK_THROWS_WITH(nw::predict({}, {1.0}, {1.0}, 1.0), "queries must not be empty");
  CHECK_THROWS_WITH(nw::predict({1.0}, {1.0, 2.0}, {1.0}, 1.0),
                    "values must have the same length as keys (2), got 1");
  CHECK_THROWS_WITH(nw::predict({1.0}, {1.0, NAN}, {1.0, 2.0}, 1.0), "keys[1] must be a finite number, got NaN");
  CHECK_THROWS_WITH(nw::predict({1.0}, {1.0}, {1.0}, INFINITY), "w must be a finite number, got Infinity");
  CHECK_THROWS_WITH(nw::attentionWeights(std::vector<double>(5000, 1.0), std::vector<double>(5000, 1.0), 1.0),
                    Catch::StartsWith("queries.length x keys.length must be at most"));
}

namespace {

// Checks attentionBlocks against the full matrix: each block holds its largest weight (up to the vector
// exp's last bit) as the exact weight of the cell it names, and the predictions equal predict's.
void checkBlocks(const std::vector<double>& queries, const std::vector<double>& keys, const std::vector<double>& values,
                 double w, nw::Kernel kernel, std::size_t maxRows, std::size_t maxCols) {
  const nw::Matrix full = nw::attentionWeights(queries, keys, w, kernel);
  const nw::BlockWeights b = nw::attentionBlocks(queries, keys, values, w, kernel, maxRows, maxCols);
  const std::size_t rows = queries.size(), cols = keys.size();
  CHECK(b.rowStep == (rows + maxRows - 1) / maxRows);
  CHECK(b.colStep == (cols + maxCols - 1) / maxCols);
  CHECK(b.blockRows == (rows + b.rowStep - 1) / b.rowStep);
  CHECK(b.blockCols == (cols + b.colStep - 1) / b.colStep);
  for (std::size_t br = 0; br < b.blockRows; ++br) {
    for (std::size_t bc = 0; bc < b.blockCols; ++bc) {
      double largest = -1;
      for (std::size_t r = br * b.rowStep; r < std::min(rows, (br + 1) * b.rowStep); ++r) {
        for (std::size_t c = bc * b.colStep; c < std::min(cols, (bc + 1) * b.colStep); ++c) {
          largest = std::max(largest, full.data[r * cols + c]);
        }
      }
      const std::size_t block = br * b.blockCols + bc;
      CHECK(b.weight[block] == approx(largest, 1e-15, 0.0));
      CHECK(b.row[block] / b.rowStep == br);
      CHECK(b.col[block] / b.colStep == bc);
      CHECK(full.data[b.row[block] * cols + b.col[block]] == b.weight[block]);
    }
  }
  CHECK(b.fallbackRows == full.fallbackRows);
  if (!values.empty()) CHECK(b.predictions == nw::predict(queries, keys, values, w, kernel));
}

}  // namespace

TEST_CASE("attentionBlocks keeps each block's largest exact weight and the predictions", "[attention]") {
  nw::DataSpec spec;
  spec.nTrain = 97;  // not a multiple of the four keys the vector loop takes at once
  spec.nTest = 45;
  const nw::Dataset data = nw::generateData(spec);
  // Reversed keys are unsorted, so the blocks' nearest keys are found by scanning, not by bisection.
  const std::vector<double> reversedKeys(data.xTrain.rbegin(), data.xTrain.rend());
  const std::vector<double> reversedValues(data.yTrain.rbegin(), data.yTrain.rend());
  const std::vector<double> duplicateKeys = {0.5, 0.5, 0.5, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 3.5, 4.0};
  const std::vector<double> duplicateValues = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  for (nw::Kernel kernel : nw::allKernels()) {
    DYNAMIC_SECTION(nw::kernelName(kernel)) {
      for (double w : {3.0, 0.0, -0.7, 40.0, 1e6}) {
        checkBlocks(data.xTest, data.xTrain, data.yTrain, w, kernel, 10, 20);
        checkBlocks(data.xTest, reversedKeys, reversedValues, w, kernel, 9, 13);
        checkBlocks(data.xTest, duplicateKeys, duplicateValues, w, kernel, 45, 4);
        checkBlocks(data.xTest, data.xTrain, {}, w, kernel, 200, 200);
      }
    }
  }
  SECTION("a large w, where most blocks' nearest keys score exactly 0 and are not scored") {
    nw::DataSpec dense;
    dense.nTrain = 400;
    dense.nTest = 100;
    const nw::Dataset many = nw::generateData(dense);
    // At w = 200 a row's nonzero weights reach about 0.19 either side (15 keys), so block columns of 2
    // keys fall on both sides of the underflow's edge in every row.
    for (double w : {200.0, 812.8, -3000.0}) checkBlocks(many.xTest, many.xTrain, many.yTrain, w, nw::Kernel::gaussian, 50, 200);
    for (nw::Kernel kernel : nw::allKernels()) checkBlocks(many.xTest, many.xTrain, {}, 150.0, kernel, 100, 400);
  }
  CHECK(nw::attentionBlocks({1.0}, {1.0, 2.0}, {}, 1.0, nw::Kernel::gaussian, 5, 5).predictions.empty());
  CHECK_THROWS_WITH(nw::attentionBlocks({1.0}, {1.0}, {}, 1.0, nw::Kernel::gaussian, 0, 5),
                    Catch::StartsWith("maxBlockRows must be an integer from 1 to 4096"));
}
