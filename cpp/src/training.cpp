// Leave-one-out loss with its analytic gradient, and the gradient-descent trainer.
#include "nw/training.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <utility>

#include "nw/error.hpp"
#include "gaussian_rows.hpp"
#include "kernel_rows.hpp"
#include "local_linear_rows.hpp"
#include "nw/validate.hpp"

namespace nw {

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

namespace {

// The Gaussian case, vectorised: one exp per pair (the scores are kept for the gradient's pass). With
// sorted inputs each row visits only the keys that count (rows::gaussianWindow).
LooResult gaussianLooLoss(const std::vector<double>& x, const std::vector<double>& y, double w, bool leaveOneOut) {
  const std::size_t n = x.size();
  const bool sorted = std::is_sorted(x.begin(), x.end());
  std::vector<double> scores(n), exponents(n);  // scratch for one row: O(n), not O(n^2)
  LooResult result;
  double gradTimesW = 0.0;
  for (std::size_t j = 0; j < n; ++j) {
    const rows::TrainingRow row =
        rows::gaussianTrainingRow(x.data(), y.data(), n, j, w, leaveOneOut, sorted, scores.data(), exponents.data());
    const rows::RowSums& sums = row.sums;
    const rows::KeyRange& window = row.window;
    const std::size_t skip = row.skip;
    const double f = sums.weighted / sums.weightSum;
    double slope = 0.0;  // sum_i (y_i - f) w dK_i/dw, with w dK/dw = -t K
    for (std::size_t i = window.begin; i < window.end; ++i) {
      if (i == skip || scores[i] == 0.0) continue;
      slope -= (y[i] - f) * (exponents[i] * scores[i]);
    }
    const double residual = f - y[j];
    result.loss += residual * residual;
    gradTimesW += 2.0 * residual * slope / sums.weightSum;
  }
  result.grad = gradTimesW / w;
  return result;
}

template <class Policy>
LooResult looLossFor(const std::vector<double>& x, const std::vector<double>& y, double w, bool leaveOneOut) {
  if constexpr (std::is_same_v<Policy, rows::Gaussian>) {
    if (w != 0.0) return gaussianLooLoss(x, y, w, leaveOneOut);
  }
  const std::size_t n = x.size();
  const bool sorted = std::is_sorted(x.begin(), x.end());
  LooResult result;
  // Sum of 2 r_j (df_j/dw) w: finite for any data, divided by w once at the end.
  double gradTimesW = 0.0;
  for (std::size_t j = 0; j < n; ++j) {
    const std::size_t skip = leaveOneOut ? j : n;
    const double dMin = rows::nearestDistance(x[j], x.data(), n, skip, sorted);
    const bool fallback = rows::fallsBack<Policy>(dMin, w);
    // Keys outside the window score exactly 0 and have no slope: they change no sum.
    const rows::KeyRange window =
        sorted ? rows::scoringKeys<Policy>(x[j], x.data(), n, dMin, w, fallback) : rows::KeyRange{0, n};
    double weightSum = 0.0;
    double weighted = 0.0;
    for (std::size_t i = window.begin; i < window.end; ++i) {
      if (i == skip) continue;
      const double score = rows::rowScore<Policy>(std::fabs(x[j] - x[i]), dMin, w, fallback);
      weightSum += score;
      weighted += score * y[i];
    }
    const double f = weighted / weightSum;

    // df/dw = sum_i (y_i - f) (dK_i/dw) / sum_i K_i: scores share a row factor, which cancels. A row
    // that fell back to its nearest key does not move with w.
    double slope = 0.0;
    if (!fallback) {
      for (std::size_t i = window.begin; i < window.end; ++i) {
        if (i == skip) continue;
        const double dist = std::fabs(x[j] - x[i]);
        const double score = Policy::score(dist, dMin, w);
        if (score == 0.0) continue;
        slope += (y[i] - f) * Policy::slopeTimesW(dist, dMin, w, score);
      }
    }

    const double residual = f - y[j];
    result.loss += residual * residual;
    gradTimesW += 2.0 * residual * slope / weightSum;
  }
  result.grad = w == 0.0 ? 0.0 : gradTimesW / w;
  return result;
}

// The local-linear loss: each row's line and its analytic w d(line)/dw (localLinearRow).
template <class Policy>
LooResult localLinearLooLossFor(const std::vector<double>& x, const std::vector<double>& y, double w, bool leaveOneOut) {
  const std::size_t n = x.size();
  const bool sorted = std::is_sorted(x.begin(), x.end());
  rows::LocalLinearScratch scratch(n);
  LooResult result;
  double gradTimesW = 0.0;
  for (std::size_t j = 0; j < n; ++j) {
    const rows::LocalLinearRow row =
        rows::localLinearRow<Policy>(x[j], x.data(), y.data(), n, leaveOneOut ? j : n, sorted, w, 1.0, true, scratch);
    const double residual = row.value - y[j];
    result.loss += residual * residual;
    gradTimesW += 2.0 * residual * row.slopeTimesW;
  }
  result.grad = w == 0.0 ? 0.0 : gradTimesW / w;
  return result;
}

}  // namespace

Loss parseLoss(const std::string& name) {
  if (name == "squared") return Loss::squared;
  if (name == "halfSquared") return Loss::halfSquared;
  throw Error("loss must be one of squared, halfSquared, got '" + name + "'");
}

const char* lossName(Loss loss) { return loss == Loss::halfSquared ? "halfSquared" : "squared"; }

LooResult looLoss(const std::vector<double>& x, const std::vector<double>& y, double w, Objective objective) {
  requireTrainingSet(x, y);
  requireFinite(w, "w");
  LooResult result = rows::withKernel(objective.kernel, [&](auto policy) {
    if (objective.estimator == Estimator::localLinear) {
      return localLinearLooLossFor<decltype(policy)>(x, y, w, objective.leaveOneOut);
    }
    return looLossFor<decltype(policy)>(x, y, w, objective.leaveOneOut);
  });
  // Halving is exact in binary floating point (short of the subnormal range).
  result.loss *= lossScale(objective.loss);
  result.grad *= lossScale(objective.loss);
  return result;
}

Trainer::Trainer(std::vector<double> x, std::vector<double> y, double w0, double lr, Objective objective)
    : x_(std::move(x)), y_(std::move(y)), w_(w0), lr_(lr), objective_(objective) {
  requireTrainingSet(x_, y_);
  requireFinite(w0, "w0");
  requirePositive(lr, "lr");
  if (!isTrainable(objective.kernel)) {
    throw Error(std::string("kernel: ") + kernelName(objective.kernel) +
                " cannot be trained (its weights do not change smoothly with w); use gaussian, epanechnikov or triangular");
  }
}

double Trainer::step() {
  const LooResult r = looLoss(x_, y_, w_, objective_);
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
