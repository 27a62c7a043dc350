#include <algorithm>
#include <cmath>
#include <vector>

#include "approx.hpp"
#include "nw/attention.hpp"
#include "nw/binned.hpp"
#include "nw/error.hpp"
#include "nw/random.hpp"

namespace {

// Sorted keys: uniform, or clumped with a lone far key (rows near it have tiny binned sums), and values.
void sample(bool clumped, std::size_t n, std::vector<double>& keys, std::vector<double>& values) {
  nw::Random rng(clumped ? 11 : 5);
  keys.clear();
  values.clear();
  for (std::size_t i = 0; i < n; ++i) keys.push_back(clumped ? (i % 2 ? 1.0 : 3.5) + 0.05 * rng.normal() : 5.0 * rng.uniform());
  if (clumped) keys.back() = 40.0;
  std::sort(keys.begin(), keys.end());
  for (double x : keys) values.push_back(2.0 * std::sin(x) + 0.5 * rng.normal());
}

}  // namespace

TEST_CASE("blocks from binned sums are within their bounds of attentionBlocks', block by block", "[binned][blocks]") {
  std::vector<double> keys, values;
  for (bool clumped : {false, true}) {
    sample(clumped, 3000, keys, values);
    std::vector<double> queries;
    for (int i = 0; i < 301; ++i) queries.push_back(-1.0 + 0.15 * i);  // -1 to 44: some far from every key
    for (double w : {0.5, 3.0, 40.0}) {
      for (bool withValues : {true, false}) {
        const std::vector<double> v = withValues ? values : std::vector<double>{};
        const nw::BlockWeights exact = nw::attentionBlocks(queries, keys, v, w, nw::Kernel::gaussian, 40, 70);
        const nw::BinnedBlocks binned = nw::binnedAttentionBlocks(queries, keys, v, w, 40, 70);
        const nw::BlockWeights& b = binned.blocks;
        REQUIRE(b.blockRows == exact.blockRows);
        REQUIRE(b.blockCols == exact.blockCols);
        REQUIRE(b.rowStep == exact.rowStep);
        REQUIRE(b.colStep == exact.colStep);
        std::size_t tight = 0;
        for (std::size_t k = 0; k < b.weight.size(); ++k) {
          INFO("clumped " << clumped << ", w " << w << ", block " << k);
          CHECK(std::fabs(b.weight[k] - exact.weight[k]) <= binned.weightBounds[k]);
          CHECK(binned.weightBounds[k] <= 1e-5 * std::max(b.weight[k], 1e-300) + 1e-300);  // honest and small
          // The cell named is in the block and its weight is the one reported, up to the bound.
          CHECK(b.row[k] / b.rowStep == k / b.blockCols);
          CHECK(b.col[k] / b.colStep == k % b.blockCols);
          if (binned.weightBounds[k] <= 1e-9 * b.weight[k]) ++tight;
        }
        CHECK(tight > 0);
        if (withValues) {
          for (std::size_t i = 0; i < queries.size(); ++i) {
            CHECK(std::fabs(b.predictions[i] - exact.predictions[i]) <= binned.predictionBounds[i] + 1e-12 * std::fabs(exact.predictions[i]));
          }
        } else {
          CHECK(b.predictions.empty());
        }
        // Queries beyond 40 + 38.6 / w of every key: their sums underflow, so they are computed exactly.
        if (w == 40.0) CHECK(binned.exactRows > 0);
      }
    }
  }
}

TEST_CASE("blocks from binned sums need sorted keys and check their inputs", "[binned][blocks][validation]") {
  CHECK_THROWS_WITH(nw::binnedAttentionBlocks({0.5}, {1.0, 0.0}, {}, 1.0, 10, 10), "keys must be sorted for blocks from binned sums");
  CHECK_THROWS_WITH(nw::binnedAttentionBlocks({0.5}, {0.0, 1.0}, {1.0}, 1.0, 10, 10), Catch::StartsWith("values must have the same length as keys"));
  CHECK_THROWS_AS(nw::binnedAttentionBlocks({0.5}, {0.0, 1.0}, {}, 0.0, 10, 10), nw::Error);
  CHECK_THROWS_AS(nw::binnedAttentionBlocks({0.5}, {0.0, 1.0}, {}, 1.0, 0, 10), nw::Error);
}

TEST_CASE("automatic approximation bins blocks beyond kExactBlockWork pairs of the Gaussian over sorted keys only", "[binned][blocks]") {
  std::vector<double> keys, values;
  sample(false, 100000, keys, values);
  const std::vector<double> few(100, 2.5), many(101, 2.5);
  using nw::Approximation;
  using nw::Kernel;
  CHECK_FALSE(nw::chooseAttentionBlocks(few, keys, values, 1.0, Kernel::gaussian, 10, 10, Approximation::automatic).approximate);
  const nw::ChosenBlocks binned = nw::chooseAttentionBlocks(many, keys, values, 1.0, Kernel::gaussian, 10, 10, Approximation::automatic);
  CHECK(binned.approximate);
  CHECK(binned.weightBounds.size() == binned.blocks.weight.size());
  CHECK(binned.predictionBounds.size() == 101);
  CHECK_FALSE(nw::chooseAttentionBlocks(many, keys, values, 1.0, Kernel::gaussian, 10, 10, Approximation::never).approximate);
  CHECK_FALSE(nw::chooseAttentionBlocks(many, keys, values, 1.0, Kernel::epanechnikov, 10, 10, Approximation::automatic).approximate);
  std::swap(keys.front(), keys.back());
  const nw::ChosenBlocks unsorted = nw::chooseAttentionBlocks(many, keys, values, 1.0, Kernel::gaussian, 10, 10, Approximation::automatic);
  CHECK_FALSE(unsorted.approximate);
  CHECK(unsorted.weightBounds.empty());
}

TEST_CASE("queries far from every key are computed exactly, in chunks, and equal attentionBlocks'", "[binned][blocks]") {
  std::vector<double> keys, values;
  sample(false, 3000, keys, values);
  std::vector<double> queries;
  for (int i = 0; i < 5000; ++i) queries.push_back(i % 2 ? 60.0 + 0.001 * i : 2.5);  // half far, half among the keys
  const nw::BinnedBlocks binned = nw::binnedAttentionBlocks(queries, keys, values, 3.0, 700, 50);
  const nw::BlockWeights exact = nw::attentionBlocks(queries, keys, values, 3.0, nw::Kernel::gaussian, 700, 50);
  CHECK(binned.exactRows == 2500);  // more than kMaxBlocksPerSide: two passes
  for (std::size_t k = 0; k < exact.weight.size(); ++k) CHECK(std::fabs(binned.blocks.weight[k] - exact.weight[k]) <= binned.weightBounds[k]);
  for (std::size_t i = 1; i < queries.size(); i += 2) CHECK(binned.blocks.predictions[i] == exact.predictions[i]);
  // Spread over so many kernel widths that the grid is capped, automatic approximation takes the exact blocks.
  CHECK(nw::chooseAttentionBlocks(queries, keys, values, 3.0, nw::Kernel::gaussian, 700, 50, nw::Approximation::automatic).approximate);
  queries.back() = 1e6;
  CHECK_FALSE(nw::chooseAttentionBlocks(queries, keys, values, 3.0, nw::Kernel::gaussian, 700, 50, nw::Approximation::automatic).approximate);
}
