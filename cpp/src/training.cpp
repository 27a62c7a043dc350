// Leave-one-out loss with its analytic gradient, and the gradient-descent trainer.
#include "nw/training.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "nw/bandwidth.hpp"
#include "nw/binned.hpp"
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
  if (x.size() < kMinTrainingPoints) {
    throw Error(ErrorCode::tooFewPoints, "xTrain",
                "xTrain must have at least " + std::to_string(kMinTrainingPoints) +
                    " points (leave-one-out keeps one key per query), got " + std::to_string(x.size()));
  }
  static_assert(kMaxTrainingValue == 1e100, "the message below says 1e100");
  // The largest magnitude first, without a branch per value (every loss checks its data on each call);
  // the value to name is looked for only when there is one.
  double largest = 0.0;
  for (const double value : y) largest = std::max(largest, std::fabs(value));
  if (largest <= kMaxTrainingValue) return;
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (std::fabs(y[i]) > kMaxTrainingValue) {
      throw Error(ErrorCode::outOfRange, "yTrain",
                  "yTrain[" + std::to_string(i) + "] must be at most 1e100 in magnitude (so the loss cannot overflow), got " +
                  describeNumber(y[i]));
    }
  }
}

namespace {

// The Gaussian case, vectorised: one exp per pair (the scores are kept for the gradient's pass). With
// sorted inputs each row visits only the keys that count (rows::gaussianWindow).
void gaussianLooRows(const std::vector<double>& x, const std::vector<double>& y, double w, bool leaveOneOut,
                     LooRows& out, std::size_t rowBegin) {
  const std::size_t n = x.size();
  const bool sorted = std::is_sorted(x.begin(), x.end());
  // Scratch for one row, O(n) rather than O(n^2), left unset: a row writes its window's before reading them.
  const std::unique_ptr<double[]> scores(new double[n]), exponents(new double[n]);
  rows::SortedHint hint;  // each row's window lies near the last one's
  for (std::size_t j = rowBegin; j < rowBegin + out.loss.size(); ++j) {
    const rows::TrainingRow row = rows::gaussianTrainingRow(x.data(), y.data(), n, j, w, leaveOneOut, sorted, scores.get(),
                                                            exponents.get(), &hint);
    const double f = row.sums.weighted / row.sums.weightSum;
    const double slope = rows::rowSlopeTimesW(row, y.data(), f, scores.get(), exponents.get());
    const double residual = f - y[j];
    out.loss[j - rowBegin] = residual * residual;
    out.gradTimesW[j - rowBegin] = 2.0 * residual * slope / row.sums.weightSum;
  }
}

template <class Policy>
void looRowsFor(const std::vector<double>& x, const std::vector<double>& y, double w, bool leaveOneOut, LooRows& out,
                std::size_t rowBegin) {
  if constexpr (std::is_same_v<Policy, rows::Gaussian>) {
    if (w != 0.0) return gaussianLooRows(x, y, w, leaveOneOut, out, rowBegin);
  }
  const std::size_t n = x.size();
  const bool sorted = std::is_sorted(x.begin(), x.end());
  for (std::size_t j = rowBegin; j < rowBegin + out.loss.size(); ++j) {
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
    out.loss[j - rowBegin] = residual * residual;
    out.gradTimesW[j - rowBegin] = 2.0 * residual * slope / weightSum;
  }
}

// The local-linear loss: each row's line and its analytic w d(line)/dw (localLinearRow).
template <class Policy>
void localLinearLooRowsFor(const std::vector<double>& x, const std::vector<double>& y, double w, bool leaveOneOut,
                           LooRows& out, std::size_t rowBegin) {
  const std::size_t n = x.size();
  const bool sorted = std::is_sorted(x.begin(), x.end());
  rows::LocalLinearScratch scratch(n);
  for (std::size_t j = rowBegin; j < rowBegin + out.loss.size(); ++j) {
    const rows::LocalLinearRow row =
        rows::localLinearRow<Policy>(x[j], x.data(), y.data(), n, leaveOneOut ? j : n, sorted, w, 1.0, true, scratch);
    const double residual = row.value - y[j];
    out.loss[j - rowBegin] = residual * residual;
    out.gradTimesW[j - rowBegin] = 2.0 * residual * row.slopeTimesW;
  }
}

}  // namespace

LooRows looLossRows(const std::vector<double>& x, const std::vector<double>& y, double w, Objective objective,
                    std::size_t rowBegin, std::size_t rowEnd) {
  requireTrainingSet(x, y);
  requireFinite(w, "w");
  if (rowBegin > rowEnd || rowEnd > x.size()) {
    throw Error(ErrorCode::outOfRange, rowEnd > x.size() ? "rowEnd" : "rowBegin",
                "rowBegin and rowEnd must satisfy 0 <= rowBegin <= rowEnd <= xTrain.length (" +
                std::to_string(x.size()) + "), got " + std::to_string(rowBegin) + " and " + std::to_string(rowEnd));
  }
  LooRows out{std::vector<double>(rowEnd - rowBegin), std::vector<double>(rowEnd - rowBegin)};
  rows::withKernel(objective.kernel, [&](auto policy) {
    if (objective.estimator == Estimator::localLinear) {
      localLinearLooRowsFor<decltype(policy)>(x, y, w, objective.leaveOneOut, out, rowBegin);
    } else {
      looRowsFor<decltype(policy)>(x, y, w, objective.leaveOneOut, out, rowBegin);
    }
  });
  return out;
}

LooResult sumLooRows(const LooRows& rows, double w, Loss loss) {
  requireFinite(w, "w");
  requireSameLength(rows.loss, "lossRows", rows.gradTimesW, "gradRows");
  for (std::size_t j = 0; j < rows.loss.size(); ++j) {
    // What looLossRows gives: a finite square, and a finite or infinite (never NaN) gradient term.
    if (!(rows.loss[j] >= 0.0) || !std::isfinite(rows.loss[j])) {
      throw Error(codeForNumber(rows.loss[j]), "lossRows",
                  "lossRows[" + std::to_string(j) + "] must be a finite number >= 0, got " + describeNumber(rows.loss[j]));
    }
    if (std::isnan(rows.gradTimesW[j])) {
      throw Error(ErrorCode::notFinite, "gradRows", "gradRows[" + std::to_string(j) + "] must not be NaN");
    }
  }
  LooResult result;
  double gradTimesW = 0.0;  // finite for any data, divided by w once at the end
  for (std::size_t j = 0; j < rows.loss.size(); ++j) {
    result.loss += rows.loss[j];
    gradTimesW += rows.gradTimesW[j];
  }
  result.grad = w == 0.0 ? 0.0 : gradTimesW / w;
  // Halving is exact in binary floating point (short of the subnormal range).
  result.loss *= lossScale(loss);
  result.grad *= lossScale(loss);
  return result;
}

LooResult looLoss(const std::vector<double>& x, const std::vector<double>& y, double w, Objective objective) {
  return sumLooRows(looLossRows(x, y, w, objective, 0, x.size()), w, objective.loss);
}

Trainer::Trainer(std::vector<double> x, std::vector<double> y, double w0, double lr, Objective objective)
    : Trainer(std::move(x), std::move(y), [&] {
        requireFinite(w0, "w0");
        TrainerSetup setup;
        setup.initial = {Scoring::gaussian, {w0}};
        setup.lr = lr;
        setup.objective = objective;
        return setup;
      }()) {}

Trainer::Trainer(std::vector<double> x, std::vector<double> y, TrainerSetup setup)
    : x_(std::move(x)),
      y_(std::move(y)),
      parameters_(std::move(setup.initial)),
      objective_(setup.objective),
      stepper_(setup.optimizer, setup.lr, parameters_.values.size()) {
  requireTrainingSet(x_, y_);
  requireParameters(parameters_);
  requirePositive(setup.lr, "lr");
  if (parameters_.scoring != Scoring::gaussian) {
    const std::string which = std::string(" applies to the gaussian scoring only; ") + scoringName(parameters_.scoring) +
                              " scores every key itself";
    if (objective_.kernel != Kernel::gaussian) throw Error(ErrorCode::notApplicable, "kernel", "kernel" + which);
    if (objective_.estimator != Estimator::nadarayaWatson) {
      throw Error(ErrorCode::notApplicable, "estimator", "estimator" + which + " (a weighted mean)");
    }
  } else if (!isTrainable(objective_.kernel, objective_.estimator)) {
    throw Error(ErrorCode::notTrainable, "kernel", std::string("kernel: ") + kernelName(objective_.kernel) +
                " cannot be trained (its weights do not change smoothly with w); use gaussian, epanechnikov or triangular");
  }
  const double n = static_cast<double>(x_.size());
  approximate_ = setup.approximation == Approximation::automatic && parameters_.scoring == Scoring::gaussian &&
                 objective_.kernel == Kernel::gaussian && objective_.estimator == Estimator::nadarayaWatson &&
                 n * n > kExactWorkLimit;
  sorted_ = std::is_sorted(x_.begin(), x_.end());
}

// As selectBandwidth decides each w's path: binned where an exact epoch would visit more than
// kExactWorkLimit key pairs and binning is estimated kBinnedAdvantage times cheaper (keys spread far apart
// have small exact windows but a large grid), never at w = 0 (every key weighs the same there).
bool Trainer::binsAt(double w) const {
  if (!approximate_ || w == 0.0) return false;
  const double n = static_cast<double>(x_.size());
  const double exactWork = sorted_ ? exactLooWork(x_, w) : n * n;
  return exactWork > kExactWorkLimit && binningPays(exactWork, binnedLooWork(x_, w));
}

double Trainer::step() {
  if (binsAt(w())) {
    const BinnedLoss r = binnedLooLoss(x_, y_, w(), objective_, true);
    const double loss = apply(r.loss, {r.grad});
    lastLossBound_ = r.bound;
    return loss;
  }
  if (approximate_) {  // (an exact step of a trainer that may bin: stepWithRows refuses rows for it)
    const LooResult r = looLoss(x_, y_, w(), objective_);
    const double loss = apply(r.loss, {r.grad});
    lastLossBound_ = 0.0;
    return loss;
  }
  if (parameters_.scoring == Scoring::gaussian) return stepWithRows(looLossRows(x_, y_, w(), objective_, 0, x_.size()));
  const ScoringLoss r = scoringLooLoss(x_, y_, parameters_, objective_.leaveOneOut, objective_.loss);
  return apply(r.loss, r.grad);
}

double Trainer::stepWithRows(const LooRows& rows) {
  if (approximate_) {
    throw Error(ErrorCode::notApplicable, "lossRows", "lossRows: this trainer steps from binned sums (approximate), not from exact rows");
  }
  if (parameters_.scoring != Scoring::gaussian) {
    throw Error(ErrorCode::notApplicable, "lossRows", std::string("lossRows: only the gaussian scoring trains from rows, not ") +
                scoringName(parameters_.scoring));
  }
  if (rows.loss.size() != x_.size()) {
    throw Error(ErrorCode::lengthMismatch, "lossRows", "lossRows must have one row per training point (" + std::to_string(x_.size()) + "), got " +
                std::to_string(rows.loss.size()));
  }
  const LooResult r = sumLooRows(rows, w(), objective_.loss);
  return apply(r.loss, {r.grad});
}

double Trainer::stepWithSums(const ScoringLoss& sums) {
  if (parameters_.scoring == Scoring::gaussian) {
    throw Error(ErrorCode::notApplicable, "lossSum", "lossSum: the gaussian scoring trains from looLossRows' rows (stepWithRows), not from sums");
  }
  if (sums.grad.size() != parameters_.values.size()) {
    throw Error(ErrorCode::lengthMismatch, "gradSum", "gradSum must have one value per parameter (" + std::to_string(parameters_.values.size()) +
                "), got " + std::to_string(sums.grad.size()));
  }
  const ScoringLoss r = finishScoringLoss(sums, parameters_, objective_.loss);
  return apply(r.loss, r.grad);
}

double Trainer::apply(double loss, const std::vector<double>& grad) {
  std::vector<double> next = stepper_.propose(parameters_.values, grad);
  bool finite = std::isfinite(loss);
  for (double value : next) finite = finite && std::isfinite(value);
  if (!finite) {
    const std::string from = parameters_.scoring == Scoring::gaussian ? "w = " + describeNumber(w()) : "these parameters";
    const std::string kept = parameters_.scoring == Scoring::gaussian ? "w is kept" : "the parameters are kept";
    throw Error(ErrorCode::diverged, "lr", "lr: training diverged at epoch " + std::to_string(epoch_ + 1) + " (the step from " +
                from + " is not finite); " + kept + ", try a smaller lr");
  }
  stepper_.accept();
  parameters_.values = std::move(next);
  ++epoch_;
  return loss;
}

}  // namespace nw
