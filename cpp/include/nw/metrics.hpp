// How well an estimator did: the error of its predictions against the noise-free truth.
#pragma once

#include <vector>

namespace nw {

// mean_i (predicted_i - truth_i)^2
double meanSquaredError(const std::vector<double>& predicted, const std::vector<double>& truth);

}  // namespace nw
