// Learning the bandwidth w as the chapter does: full-batch gradient descent on the leave-one-out error.
#pragma once

#include <cstddef>
#include <vector>

#include "nw/kernel.hpp"

namespace nw {

// The chapter's settings: SGD with lr 0.5 for 5 epochs. (It starts from a random w0 in [0, 1);
// a Trainer given no w0 starts from the nonparametric bandwidth 1.)
inline constexpr double kDefaultLearningRate = 0.5;
inline constexpr double kDefaultW0 = 1.0;
inline constexpr int kDefaultEpochs = 5;

// Training values above this magnitude are refused: the summed squared error of up to kMaxSamples
// points, and its gradient before the final division by w, then always fit in a double.
inline constexpr double kMaxTrainingValue = 1e100;

struct LooResult {
  double loss = 0.0;  // sum_j (f_j - y_j)^2, f_j predicted from every training point but j
  double grad = 0.0;  // dLoss/dw
};

// What training minimises: the kernel, and whether each training query leaves its own key out (the
// chapter's leave-one-out; without it a query sees itself, and a sharper w always looks better).
struct Objective {
  Kernel kernel = Kernel::gaussian;
  bool leaveOneOut = true;
};

// Needs at least 2 points (each query must keep one key). The loss is always finite; the gradient is
// finite or, for a w so small that dLoss/dw exceeds the double range, +-infinity (never NaN). For the
// boxcar and constant kernels the loss is piecewise constant in w and the gradient is 0.
// Throws nw::Error unless x and y are a valid training set: finite, the same length, at least 2 points,
// |y| <= kMaxTrainingValue.
void requireTrainingSet(const std::vector<double>& x, const std::vector<double>& y);

LooResult looLoss(const std::vector<double>& x, const std::vector<double>& y, double w, Objective objective = {});

class Trainer {
 public:
  // Throws nw::Error on invalid data, w0 or lr, or a kernel that cannot be trained.
  Trainer(std::vector<double> x, std::vector<double> y, double w0, double lr, Objective objective = {});

  // One epoch: returns the loss before the step, then moves w by -lr * dLoss/dw.
  // If the step would make w or the loss non-finite it throws nw::Error and keeps w as it was.
  double step();

  double w() const { return w_; }
  std::size_t epoch() const { return epoch_; }

 private:
  std::vector<double> x_;
  std::vector<double> y_;
  double w_;
  double lr_;
  Objective objective_;
  std::size_t epoch_ = 0;
};

}  // namespace nw
