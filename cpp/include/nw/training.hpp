// Learning the bandwidth w as the chapter does: full-batch gradient descent on the leave-one-out error.
#pragma once

#include <cstddef>
#include <vector>

#include "nw/optimizer.hpp"
#include "nw/options.hpp"
#include "nw/scoring.hpp"

namespace nw {

// The chapter's settings: SGD with lr 0.5 for 5 epochs. (It starts from a random w0 in [0, 1);
// a Trainer given no w0 starts from the nonparametric bandwidth 1.)
inline constexpr double kDefaultLearningRate = 0.5;
inline constexpr double kDefaultW0 = 1.0;
inline constexpr int kDefaultEpochs = 5;

// Training values above this magnitude are refused: the summed squared error of up to kMaxSamples
// points, and its gradient before the final division by w, then always fit in a double.
inline constexpr double kMaxTrainingValue = 1e100;
// Leave-one-out keeps one key per training query.
inline constexpr std::size_t kMinTrainingPoints = 2;

struct LooResult {
  double loss = 0.0;  // sum_j (f_j - y_j)^2 (halved for Loss::halfSquared), f_j predicted from every training point but j
  double grad = 0.0;  // dLoss/dw
};

// Needs at least 2 points (each query must keep one key). The loss is always finite; the gradient is
// finite or, for a w so small that dLoss/dw exceeds the double range, +-infinity (never NaN). For the
// boxcar and constant kernels the loss is piecewise constant in w and the gradient is 0.
// Throws nw::Error unless x and y are a valid training set: finite, the same length, at least 2 points,
// |y| <= kMaxTrainingValue.
void requireTrainingSet(const std::vector<double>& x, const std::vector<double>& y);

LooResult looLoss(const std::vector<double>& x, const std::vector<double>& y, double w, Objective objective = {});

// The leave-one-out loss row by row, so that rows can be computed apart (a pool of workers, each a
// range of rows) and summed into exactly the result looLoss gives: looLoss is sumLooRows of all rows.
struct LooRows {
  std::vector<double> loss;        // (f_j - y_j)^2 for each row j, unscaled
  std::vector<double> gradTimesW;  // 2 (f_j - y_j) w df_j/dw
};

// Rows [rowBegin, rowEnd) of the loss for the same inputs as looLoss (objective.loss is not used: the
// sum scales). Throws nw::Error as looLoss does, and unless 0 <= rowBegin <= rowEnd <= x.size().
LooRows looLossRows(const std::vector<double>& x, const std::vector<double>& y, double w, Objective objective,
                    std::size_t rowBegin, std::size_t rowEnd);

// Sums rows in order: for every row of one looLossRows call (or of consecutive ranges, concatenated)
// the result equals looLoss's bit for bit. Throws nw::Error naming lossRows or gradRows for rows
// looLossRows cannot give (different lengths, a negative or non-finite loss, a NaN gradient term).
LooResult sumLooRows(const LooRows& rows, double w, Loss loss);

// What a Trainer learns and how: the scoring function and where it starts, the learning rate, the
// objective (its kernel and estimator apply to the gaussian scoring only) and the optimizer.
struct TrainerSetup {
  ScoringParameters initial;  // e.g. initialParameters(...)
  double lr = kDefaultLearningRate;
  Objective objective;
  Optimizer optimizer = Optimizer::sgd;
  // automatic: an epoch's loss and gradient come from binned sums (binnedLooLoss, within its bounds of
  // looLoss's) where the exact epoch would visit more than kExactWorkLimit key pairs and binning is
  // estimated kBinnedAdvantage times cheaper, as selectBandwidth decides each w; the gaussian scoring,
  // kernel and nadarayaWatson estimator only, and n^2 above kExactWorkLimit (others train exactly).
  Approximation approximation = Approximation::never;
};

class Trainer {
 public:
  // The chapter's: the gaussian scoring (or another kernel) from w0, plain gradient descent.
  // Throws nw::Error on invalid data, w0 or lr, or a kernel that cannot be trained.
  Trainer(std::vector<double> x, std::vector<double> y, double w0, double lr, Objective objective = {});
  // Any scoring and optimizer. Throws as above, naming `parameters` for invalid initial values, and
  // `kernel` or `estimator` where a scoring other than gaussian is given another than the defaults.
  Trainer(std::vector<double> x, std::vector<double> y, TrainerSetup setup);

  // One epoch: returns the loss before the step, then steps the parameters along -dLoss/dtheta.
  // If the step would make a parameter or the loss non-finite it throws nw::Error and keeps the
  // parameters (and the optimizer's state) as they were.
  double step();

  // The same epoch from its rows computed elsewhere (looLossRows over all rows at w(), with this
  // trainer's data and objective, e.g. by a pool of workers): equal to step() bit for bit. The gaussian
  // scoring only (throws nw::Error naming `lossRows` otherwise).
  double stepWithRows(const LooRows& rows);

  // The same epoch from scoringLooLoss's sums computed in ranges of rows (addScoringLooRows over every
  // row at parameters(), with this trainer's data and objective): equal to step() bit for bit. Another
  // scoring than gaussian only (throws nw::Error naming `lossSum` otherwise, `gradSum` for a gradient of
  // another length, and as finishScoringLoss does).
  double stepWithSums(const ScoringLoss& sums);

  // The gaussian scoring's w (for another scoring, its first parameter value).
  double w() const { return parameters_.values[0]; }
  const ScoringParameters& parameters() const { return parameters_; }
  std::size_t epoch() const { return epoch_; }
  // Whether step() may sum binned rows (see TrainerSetup::approximation; each step decides by its w),
  // and the last step's loss bound: |the loss it returned - looLoss's| <= lastLossBound() (0 for an
  // exact step or before any).
  bool approximate() const { return approximate_; }
  double lastLossBound() const { return lastLossBound_; }

 private:
  double apply(double loss, const std::vector<double>& grad);
  bool binsAt(double w) const;

  std::vector<double> x_;
  std::vector<double> y_;
  ScoringParameters parameters_;
  Objective objective_;
  Stepper stepper_;
  std::size_t epoch_ = 0;
  bool approximate_ = false;
  bool sorted_ = false;
  double lastLossBound_ = 0.0;
};

}  // namespace nw
