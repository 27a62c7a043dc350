// Attention pooling by Nadaraya-Watson kernel regression: weights K((q - k_i) w) / sum_j K((q - k_j) w).
#pragma once

#include <cstddef>
#include <vector>

#include "nw/kernel.hpp"

namespace nw {

// Largest attention matrix attentionWeights will build (rows x cols doubles: 128 MiB).
inline constexpr std::size_t kMaxWeightCells = std::size_t{1} << 24;
// Largest maxBlockRows and maxBlockCols of attentionBlocks (its result then has at most 2^24 blocks).
inline constexpr std::size_t kMaxBlocksPerSide = 4096;

struct Matrix {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<double> data;  // row-major
  // 1 for a row whose query has no key inside a compact kernel's support: its weight goes to the
  // nearest key (shared equally between keys at the same distance).
  std::vector<unsigned char> fallbackRows;
};

// The mean of the values: what every query predicts under average pooling.
double averagePool(const std::vector<double>& values);

// sum_i alpha(q, k_i) v_i for each query; O(1) memory per query, no weight matrix. A compact kernel's
// query with no key in its support predicts the nearest key's value (the mean of tied nearest keys).
std::vector<double> predict(const std::vector<double>& queries, const std::vector<double>& keys,
                            const std::vector<double>& values, double w, Kernel kernel = Kernel::gaussian);

// The weight matrix seen through blocks of rowStep x colStep cells, for drawing a large matrix: each
// block keeps its largest weight and where that cell is, so every value reported is an exact weight.
// "Largest" up to the exp's last bit: a block takes its nearest key's weight, and the vector exp can
// give a key 1 ulp farther away a value 1 ulp larger.
struct BlockWeights {
  std::size_t rows = 0, cols = 0;            // of the full matrix
  std::size_t rowStep = 1, colStep = 1;      // cells per block
  std::size_t blockRows = 0, blockCols = 0;  // blocks
  std::vector<double> weight;                // the largest weight in each block (see above), row-major
  std::vector<std::size_t> row, col;         // the full-matrix cell it comes from
  std::vector<unsigned char> fallbackRows;   // as in Matrix, one per full row
  std::vector<double> predictions;           // sum_i alpha(q, k_i) v_i per query, if values were given
};

// Blocks for a rows x cols matrix seen through at most maxBlockRows x maxBlockCols blocks, every weight
// -1 (below any weight) until a row is reduced into them; predictions sized when asked for. Throws
// nw::Error naming maxBlockRows or maxBlockCols outside [1, kMaxBlocksPerSide].
BlockWeights emptyBlocks(std::size_t rows, std::size_t cols, std::size_t maxBlockRows, std::size_t maxBlockCols,
                         bool withPredictions);

// attentionWeights reduced to at most maxBlockRows x maxBlockCols blocks (and, given values, the
// predictions too), in O(keys) memory: the full matrix is never built.
BlockWeights attentionBlocks(const std::vector<double>& queries, const std::vector<double>& keys,
                             const std::vector<double>& values, double w, Kernel kernel, std::size_t maxBlockRows,
                             std::size_t maxBlockCols);

// Throws nw::Error (too-large, naming `queries`) unless queries.size() x keys.size() <= kMaxWeightCells;
// keys must not be empty.
void requireWeightCells(const std::vector<double>& queries, const std::vector<double>& keys);

// The full weight matrix, rows = queries, cols = keys; each row is a probability distribution.
Matrix attentionWeights(const std::vector<double>& queries, const std::vector<double>& keys, double w,
                        Kernel kernel = Kernel::gaussian);

}  // namespace nw
