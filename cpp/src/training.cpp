// Leave-one-out loss with its analytic gradient, and the gradient-descent trainer.
#include "nw/training.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "nw/error.hpp"
#include "nw/gaussian_score.hpp"
#include "nw/validate.hpp"

namespace nw {
namespace {

void requireTrainingSet(const std::vector<double>& x, const std::vector<double>& y) {
  requireNonEmptyFiniteArray(x, "xTrain");
  requireNonEmptyFiniteArray(y, "yTrain");
  requireSameLength(x, "xTrain", y, "yTrain");
  if (x.size() < 2) {
    throw Error("xTrain must have at least 2 points (leave-one-out keeps one key per query), got 1");
  }
}

}  // namespace

LooResult looLoss(const std::vector<double>& x, const std::vector<double>& y, double w) {
  requireTrainingSet(x, y);
  requireFinite(w, "w");

  LooResult result;
  for (std::size_t j = 0; j < x.size(); ++j) {
    const double dMin = nearestDistance(x[j], x, j);
    double weightSum = 0.0;
    double weighted = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (i == j) continue;
      const double score = gaussianScore(std::fabs(x[j] - x[i]), dMin, w);
      weightSum += score;
      weighted += score * y[i];
    }
    const double f = weighted / weightSum;

    // df/dw = -w sum_i alpha_i (y_i - f) d_i^2; replacing d_i^2 by d_i^2 - dMin^2 changes nothing
    // (sum_i alpha_i (y_i - f) = 0) and keeps the terms small.
    double covariance = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (i == j) continue;
      const double d = std::fabs(x[j] - x[i]);
      const double score = gaussianScore(d, dMin, w);
      if (score == 0.0) continue;
      covariance += score * (y[i] - f) * ((d - dMin) * (d + dMin));
    }
    const double dfdw = -w * covariance / weightSum;

    const double residual = f - y[j];
    result.loss += residual * residual;
    result.grad += 2.0 * residual * dfdw;
  }
  return result;
}

Trainer::Trainer(std::vector<double> x, std::vector<double> y, double w0, double lr)
    : x_(std::move(x)), y_(std::move(y)), w_(w0), lr_(lr) {
  requireTrainingSet(x_, y_);
  requireFinite(w0, "w0");
  requirePositive(lr, "lr");
}

double Trainer::step() {
  const LooResult r = looLoss(x_, y_, w_);
  const double next = w_ - lr_ * r.grad;
  if (!std::isfinite(r.loss) || !std::isfinite(next)) {
    throw Error("lr: training diverged at epoch " + std::to_string(epoch_ + 1) + " (the step from w = " +
                describeNumber(w_) + " is not finite); w is kept, try a smaller lr");
  }
  w_ = next;
  ++epoch_;
  return r.loss;
}

}  // namespace nw
