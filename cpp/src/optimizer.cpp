// Gradient descent and Adam. Adam follows PyTorch 1.13's _single_tensor_adam operation by operation,
// so that its steps match a float64 PyTorch run to the last bits, not only in exact arithmetic.
#include "nw/optimizer.hpp"

#include <cmath>

namespace nw {

Stepper::Stepper(Optimizer optimizer, double lr, std::size_t count)
    : optimizer_(optimizer), lr_(lr), m_(count), v_(count), proposedM_(count), proposedV_(count) {}

std::vector<double> Stepper::propose(const std::vector<double>& values, const std::vector<double>& grad) {
  std::vector<double> next(values.size());
  if (optimizer_ == Optimizer::sgd) {
    for (std::size_t i = 0; i < values.size(); ++i) next[i] = values[i] - lr_ * grad[i];
    return next;
  }
  const double step = static_cast<double>(steps_ + 1);
  const double biasCorrection1 = 1.0 - std::pow(kAdamBeta1, step);
  const double biasCorrection2 = 1.0 - std::pow(kAdamBeta2, step);
  const double stepSize = lr_ / biasCorrection1;
  const double biasCorrection2Sqrt = std::sqrt(biasCorrection2);
  for (std::size_t i = 0; i < values.size(); ++i) {
    proposedM_[i] = m_[i] * kAdamBeta1 + (1.0 - kAdamBeta1) * grad[i];
    proposedV_[i] = v_[i] * kAdamBeta2 + (1.0 - kAdamBeta2) * grad[i] * grad[i];
    const double denom = std::sqrt(proposedV_[i]) / biasCorrection2Sqrt + kAdamEpsilon;
    next[i] = values[i] + (-stepSize) * (proposedM_[i] / denom);
  }
  return next;
}

void Stepper::accept() {
  ++steps_;
  if (optimizer_ == Optimizer::adam) {
    m_ = proposedM_;
    v_ = proposedV_;
  }
}

}  // namespace nw
