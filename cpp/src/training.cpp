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
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (std::fabs(y[i]) > kMaxTrainingValue) {
      throw Error("yTrain[" + std::to_string(i) + "] must be at most 1e100 in magnitude (so the loss cannot overflow), got " +
                  describeNumber(y[i]));
    }
  }
}

}  // namespace

LooResult looLoss(const std::vector<double>& x, const std::vector<double>& y, double w) {
  requireTrainingSet(x, y);
  requireFinite(w, "w");

  LooResult result;
  // Sum of 2 r_j (df_j/dw) w: finite for any data, divided by w once at the end.
  double gradTimesW = 0.0;
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

    // df/dw = -w sum_i alpha_i (y_i - f) d_i^2 = -(1/w) sum_i alpha_i (y_i - f) t_i, with t_i the score's
    // exponent w^2 (d_i^2 - dMin^2): the dMin^2 part adds nothing (sum_i alpha_i (y_i - f) = 0), and t_i
    // is finite wherever alpha_i > 0, however spread out the inputs.
    double covariance = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (i == j) continue;
      const double t = scoreExponent(std::fabs(x[j] - x[i]), dMin, w);
      const double score = std::exp(-0.5 * t);
      if (score == 0.0) continue;
      covariance += score * (y[i] - f) * t;
    }

    const double residual = f - y[j];
    result.loss += residual * residual;
    gradTimesW -= 2.0 * residual * covariance / weightSum;
  }
  result.grad = w == 0.0 ? 0.0 : gradTimesW / w;
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
