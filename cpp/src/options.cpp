// The names of the choices, and the one rule for parsing them.
#include "nw/options.hpp"

#include <initializer_list>

#include "nw/error.hpp"

namespace nw {
namespace {

// The choice called `name`, or nw::Error "<parameter> must be one of a, b, got '<name>'".
template <class Choice>
Choice parseChoice(const std::string& name, const char* parameter, std::initializer_list<Choice> choices,
                   const char* (*nameOf)(Choice)) {
  std::string expected;
  for (Choice choice : choices) {
    if (name == nameOf(choice)) return choice;
    expected += (expected.empty() ? "" : ", ") + std::string(nameOf(choice));
  }
  throw Error(ErrorCode::unknownValue, parameter,
              std::string(parameter) + " must be one of " + expected + ", got '" + name.substr(0, kMaxEchoedNameLength) + "'");
}

}  // namespace

const std::vector<Kernel>& allKernels() {
  static const std::vector<Kernel> kernels{Kernel::gaussian, Kernel::boxcar, Kernel::constant,
                                           Kernel::epanechnikov, Kernel::triangular};
  return kernels;
}

const char* kernelName(Kernel kernel) {
  switch (kernel) {
    case Kernel::gaussian: return "gaussian";
    case Kernel::boxcar: return "boxcar";
    case Kernel::constant: return "constant";
    case Kernel::epanechnikov: return "epanechnikov";
    case Kernel::triangular: return "triangular";
  }
  return "gaussian";
}

Kernel parseKernel(const std::string& name) {
  return parseChoice(name, "kernel",
                     {Kernel::gaussian, Kernel::boxcar, Kernel::constant, Kernel::epanechnikov, Kernel::triangular},
                     kernelName);
}

const std::vector<Estimator>& allEstimators() {
  static const std::vector<Estimator> estimators{Estimator::nadarayaWatson, Estimator::localLinear};
  return estimators;
}

const char* estimatorName(Estimator estimator) {
  return estimator == Estimator::localLinear ? "localLinear" : "nadarayaWatson";
}

Estimator parseEstimator(const std::string& name) {
  return parseChoice(name, "estimator", {Estimator::nadarayaWatson, Estimator::localLinear}, estimatorName);
}

bool isTrainable(Kernel kernel, Estimator /*estimator: both train the same kernels*/) {
  return kernel == Kernel::gaussian || kernel == Kernel::epanechnikov || kernel == Kernel::triangular;
}

const char* lossName(Loss loss) { return loss == Loss::halfSquared ? "halfSquared" : "squared"; }

Loss parseLoss(const std::string& name) { return parseChoice(name, "loss", {Loss::squared, Loss::halfSquared}, lossName); }

const char* criterionName(Criterion criterion) { return criterion == Criterion::aic ? "aic" : "looCv"; }

Criterion parseCriterion(const std::string& name) {
  return parseChoice(name, "criterion", {Criterion::looCv, Criterion::aic}, criterionName);
}

const char* approximationName(Approximation approximation) {
  return approximation == Approximation::never ? "never" : "auto";
}

Approximation parseApproximation(const std::string& name) {
  return parseChoice(name, "approximate", {Approximation::automatic, Approximation::never}, approximationName);
}

const std::vector<Scoring>& allScorings() {
  static const std::vector<Scoring> scorings{Scoring::gaussian, Scoring::dotProduct, Scoring::additive};
  return scorings;
}

const char* scoringName(Scoring scoring) {
  switch (scoring) {
    case Scoring::gaussian: return "gaussian";
    case Scoring::dotProduct: return "dotProduct";
    case Scoring::additive: return "additive";
  }
  return "gaussian";
}

Scoring parseScoring(const std::string& name) {
  return parseChoice(name, "scoring", {Scoring::gaussian, Scoring::dotProduct, Scoring::additive}, scoringName);
}

const char* optimizerName(Optimizer optimizer) { return optimizer == Optimizer::adam ? "adam" : "sgd"; }

Optimizer parseOptimizer(const std::string& name) {
  return parseChoice(name, "optimizer", {Optimizer::sgd, Optimizer::adam}, optimizerName);
}

}  // namespace nw
