// The steps a Trainer takes: the chapter's plain gradient descent, or Adam as PyTorch's torch.optim.Adam
// computes it (bias-corrected, no weight decay, not amsgrad).
#pragma once

#include <cstddef>
#include <vector>

#include "nw/options.hpp"

namespace nw {

inline constexpr double kAdamBeta1 = 0.9;
inline constexpr double kAdamBeta2 = 0.999;
inline constexpr double kAdamEpsilon = 1e-8;

class Stepper {
 public:
  // count: how many parameter values it steps.
  Stepper(Optimizer optimizer, double lr, std::size_t count);

  // The values after one step from `values` along the gradient. Nothing changes until accept(), so a
  // step found to diverge leaves the optimizer as it was.
  std::vector<double> propose(const std::vector<double>& values, const std::vector<double>& grad);
  void accept();

  Optimizer optimizer() const { return optimizer_; }

 private:
  Optimizer optimizer_;
  double lr_;
  std::size_t steps_ = 0;
  std::vector<double> m_, v_;                // Adam's first and second moments
  std::vector<double> proposedM_, proposedV_;  // after the step proposed last
};

}  // namespace nw
