// Every choice a caller makes by name, in one place: the kernel, the estimator, the loss, the training
// objective (with leave-one-out), selectBandwidth's criterion and approximation. Each parse function
// throws nw::Error (ErrorCode::unknownValue) naming its parameter for a name that is not a choice.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace nw {

// A name that is not a choice is echoed in the message cut to this many characters.
inline constexpr std::size_t kMaxEchoedNameLength = 40;

// The attention kernels K(d), d = (query - key) w (see kernel.hpp for their values).
enum class Kernel {
  gaussian,      // exp(-d^2 / 2), the chapter's
  boxcar,        // 1 if |d| < 1, else 0
  constant,      // 1: exactly average pooling
  epanechnikov,  // max(0, 1 - d^2)
  triangular,    // max(0, 1 - |d|)
};

// Names as the API spells them; parse throws naming the parameter `kernel`.
Kernel parseKernel(const std::string& name);
const char* kernelName(Kernel kernel);
// Every kernel, in the order of the enum.
const std::vector<Kernel>& allKernels();

enum class Estimator {
  nadarayaWatson,  // sum_i alpha_i y_i: a weighted mean (the chapter's)
  localLinear,     // the intercept a of min_{a,b} sum_i K_i (y_i - a - b (x_i - x))^2 (statsmodels' reg_type='ll')
};

// "nadarayaWatson" or "localLinear"; throws naming the parameter `estimator` otherwise.
Estimator parseEstimator(const std::string& name);
const char* estimatorName(Estimator estimator);
const std::vector<Estimator>& allEstimators();

// Whether gradient descent can learn w for this kernel and estimator, so whether Trainer and
// selectBandwidth accept them: the kernels whose weights change smoothly with w (gaussian, epanechnikov,
// triangular). The boxcar and constant losses are piecewise constant in w. Both estimators train the
// same kernels; the estimator is asked so that every caller asks the question the Trainer asks.
bool isTrainable(Kernel kernel, Estimator estimator = Estimator::nadarayaWatson);

// How the squared errors add up. The chapter's PyTorch listing (from 2022) minimises their plain sum;
// its MXNet listing (gluon's L2Loss) and its PyTorch listing of mid-2021 (`loss(...) / 2`) minimise half
// of it, which halves the loss, its gradient and so each step for the same learning rate.
enum class Loss { squared, halfSquared };

// "squared" or "halfSquared"; throws naming the parameter `loss` otherwise.
Loss parseLoss(const std::string& name);
const char* lossName(Loss loss);
inline double lossScale(Loss loss) { return loss == Loss::halfSquared ? 0.5 : 1.0; }

// What training minimises: the kernel, whether each training query leaves its own key out (the
// chapter's leave-one-out; without it a query sees itself, and a sharper w always looks better),
// whether the summed squared error is halved, and which estimator predicts (local linear: each query's
// singular design falls back to its Nadaraya-Watson value and slope, see kSingularDesign).
struct Objective {
  Kernel kernel = Kernel::gaussian;
  bool leaveOneOut = true;
  Loss loss = Loss::squared;
  Estimator estimator = Estimator::nadarayaWatson;
};

// Attention scoring functions a(q, k), whose softmax over the keys gives the weights (scoring.hpp).
enum class Scoring {
  gaussian,    // -((q - k) w)^2 / 2: the chapter's (its loss and steps are looLoss's, bit for bit)
  dotProduct,  // s q k: the scaled dot product on the raw scalar positions
  additive,    // v . tanh(wq q + wk k + b), h hidden units: the book's additive attention with a bias
};

// "gaussian", "dotProduct" or "additive"; throws naming the parameter `scoring` otherwise.
Scoring parseScoring(const std::string& name);
const char* scoringName(Scoring scoring);
const std::vector<Scoring>& allScorings();

// How a Trainer steps: the chapter's plain gradient descent, or Adam (Kingma and Ba; PyTorch's
// defaults beta1 0.9, beta2 0.999, eps 1e-8, bias-corrected).
enum class Optimizer { sgd, adam };

// "sgd" or "adam"; throws naming the parameter `optimizer` otherwise.
Optimizer parseOptimizer(const std::string& name);
const char* optimizerName(Optimizer optimizer);

// What selectBandwidth minimises: the leave-one-out loss (looLoss; what training minimises too) or the
// corrected AIC (aicLoss; Hurvich, Simonoff and Tsai 1998, statsmodels' bw='aic').
enum class Criterion { looCv, aic };

// "looCv" or "aic"; throws naming the parameter `criterion` otherwise.
Criterion parseCriterion(const std::string& name);
const char* criterionName(Criterion criterion);

// Whether selectBandwidth may use the binned leave-one-out loss where the exact one is too slow.
enum class Approximation { automatic, never };

// "auto" or "never"; throws naming the parameter `approximate` otherwise.
Approximation parseApproximation(const std::string& name);
const char* approximationName(Approximation approximation);

}  // namespace nw
