// Attention pooling by Nadaraya-Watson kernel regression with the Gaussian kernel and bandwidth w.
#pragma once

#include <cstddef>
#include <vector>

namespace nw {

// Largest attention matrix attentionWeights will build (rows x cols doubles: 128 MiB).
inline constexpr std::size_t kMaxWeightCells = std::size_t{1} << 24;

struct Matrix {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<double> data;  // row-major
};

// The mean of the values: what every query predicts under average pooling.
double averagePool(const std::vector<double>& values);

// sum_i softmax_i(-((q - k_i) w)^2 / 2) v_i for each query; O(1) memory per query, no weight matrix.
std::vector<double> predict(const std::vector<double>& queries, const std::vector<double>& keys,
                            const std::vector<double>& values, double w);

// The full weight matrix, rows = queries, cols = keys; each row is a probability distribution.
Matrix attentionWeights(const std::vector<double>& queries, const std::vector<double>& keys, double w);

}  // namespace nw
