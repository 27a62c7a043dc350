// Every kind of invalid input the core refuses, with the code and the parameter its nw::Error carries
// (what the JavaScript API reports as NWError.code and .parameter), and isTrainable against the checks
// that use it.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "nw/aic.hpp"
#include "nw/attention.hpp"
#include "nw/bandwidth.hpp"
#include "nw/binned.hpp"
#include "nw/data.hpp"
#include "nw/error.hpp"
#include "nw/local_linear.hpp"
#include "nw/metrics.hpp"
#include "nw/options.hpp"
#include "nw/training.hpp"
#include "nw/validate.hpp"

namespace {

using nw::ErrorCode;

const std::vector<double> kX{0.0, 1.0, 2.0};
const std::vector<double> kY{1.0, 3.0, 2.0};

struct Refusal {
  const char* label;
  std::function<void()> call;
  ErrorCode code;
  const char* parameter;
  const char* messageStart;  // the message's first characters (the English stays as it was)
};

nw::DataSpec specWith(const std::function<void(nw::DataSpec&)>& change) {
  nw::DataSpec spec;
  change(spec);
  return spec;
}

const std::vector<Refusal>& refusals() {
  static const std::vector<Refusal> all{
      {"empty queries", [] { nw::predict({}, kX, kY, 1.0); }, ErrorCode::empty, "queries", "queries must not be empty"},
      {"empty values", [] { nw::averagePool({}); }, ErrorCode::empty, "values", "values must not be empty"},
      {"empty predicted", [] { nw::meanSquaredError({}, {}); }, ErrorCode::empty, "predicted", "predicted must not be empty"},
      {"NaN in keys", [] { nw::predict({1.0}, {1.0, NAN, 2.0}, kY, 1.0); }, ErrorCode::notFinite, "keys", "keys[1] must be a finite number, got NaN"},
      {"infinite query", [] { nw::localLinear({INFINITY}, kX, kY, 1.0); }, ErrorCode::notFinite, "queries", "queries[0] must be a finite number"},
      {"infinite w", [] { nw::predict({1.0}, kX, kY, INFINITY); }, ErrorCode::notFinite, "w", "w must be a finite number, got Infinity"},
      {"NaN w of aicLoss", [] { nw::aicLoss(kX, kY, NAN); }, ErrorCode::notFinite, "w", "w must be a finite number"},
      {"values shorter than keys", [] { nw::predict({1.0}, kX, {1.0, 2.0}, 1.0); }, ErrorCode::lengthMismatch, "values", "values must have the same length as keys (3), got 2"},
      {"yTrain shorter than xTrain", [] { nw::looLoss(kX, {1.0, 2.0}, 1.0); }, ErrorCode::lengthMismatch, "yTrain", "yTrain must have the same length as xTrain"},
      {"one training point", [] { nw::looLoss({1.0}, {1.0}, 1.0); }, ErrorCode::tooFewPoints, "xTrain", "xTrain must have at least 2 points"},
      {"four points for the AIC", [] { nw::selectBandwidth({0, 1, 2, 3}, {1, 0, 1, 0}, {}, nw::Criterion::aic); }, ErrorCode::tooFewPoints, "xTrain", "xTrain must have at least 5 points for criterion aic"},
      {"yTrain beyond 1e100", [] { nw::looLoss(kX, {1.0, 1e101, 2.0}, 1.0); }, ErrorCode::outOfRange, "yTrain", "yTrain[1] must be at most 1e100 in magnitude"},
      {"a matrix beyond 2^24 cells", [] { nw::attentionWeights(std::vector<double>(4097), std::vector<double>(4096), 1.0); }, ErrorCode::tooLarge, "queries", "queries.length x keys.length must be at most 16777216 cells"},
      {"no blocks", [] { nw::attentionBlocks({1.0}, kX, {}, 1.0, nw::Kernel::gaussian, 0, 10); }, ErrorCode::outOfRange, "maxBlockRows", "maxBlockRows must be an integer from 1 to 4096, got 0"},
      {"too many blocks", [] { nw::attentionBlocks({1.0}, kX, {}, 1.0, nw::Kernel::gaussian, 10, nw::kMaxBlocksPerSide + 1); }, ErrorCode::outOfRange, "maxBlockCols", "maxBlockCols must be an integer from 1 to 4096, got 4097"},
      {"rowBegin after rowEnd", [] { nw::looLossRows(kX, kY, 1.0, {}, 2, 1); }, ErrorCode::outOfRange, "rowBegin", "rowBegin and rowEnd must satisfy"},
      {"rowEnd past the data", [] { nw::looLossRows(kX, kY, 1.0, {}, 0, 4); }, ErrorCode::outOfRange, "rowEnd", "rowBegin and rowEnd must satisfy"},
      {"a negative loss row", [] { nw::sumLooRows({{-1.0}, {0.0}}, 1.0, nw::Loss::squared); }, ErrorCode::outOfRange, "lossRows", "lossRows[0] must be a finite number >= 0, got -1"},
      {"an infinite loss row", [] { nw::sumLooRows({{INFINITY}, {0.0}}, 1.0, nw::Loss::squared); }, ErrorCode::notFinite, "lossRows", "lossRows[0] must be a finite number >= 0, got Infinity"},
      {"a NaN gradient row", [] { nw::sumLooRows({{1.0}, {NAN}}, 1.0, nw::Loss::squared); }, ErrorCode::notFinite, "gradRows", "gradRows[0] must not be NaN"},
      {"rows of another length", [] { nw::sumLooRows({{1.0, 2.0}, {0.0}}, 1.0, nw::Loss::squared); }, ErrorCode::lengthMismatch, "gradRows", "gradRows must have the same length as lossRows"},
      {"a step from too few rows", [] { nw::Trainer(kX, kY, 1.0, 0.5).stepWithRows({{1.0}, {0.0}}); }, ErrorCode::lengthMismatch, "lossRows", "lossRows must have one row per training point (3), got 1"},
      {"lr of 0", [] { nw::Trainer(kX, kY, 1.0, 0.0); }, ErrorCode::outOfRange, "lr", "lr must be a finite number > 0, got 0"},
      {"NaN lr", [] { nw::Trainer(kX, kY, 1.0, NAN); }, ErrorCode::notFinite, "lr", "lr must be a finite number > 0, got NaN"},
      {"infinite w0", [] { nw::Trainer(kX, kY, INFINITY, 0.5); }, ErrorCode::notFinite, "w0", "w0 must be a finite number"},
      {"training boxcar", [] { nw::Trainer(kX, kY, 1.0, 0.5, {nw::Kernel::boxcar}); }, ErrorCode::notTrainable, "kernel", "kernel: boxcar cannot be trained"},
      {"selecting for constant", [] { nw::selectBandwidth(kX, kY, {nw::Kernel::constant}); }, ErrorCode::notTrainable, "kernel", "kernel: constant has a loss that is piecewise constant"},
      {"a diverging step", [] { nw::Trainer({0, 1, 2, 3}, {0, 5, -5, 0}, 1.0, 1e308).step(); }, ErrorCode::diverged, "lr", "lr: training diverged at epoch 1"},
      {"binned sums at w = 0", [] { nw::binnedPredict(kX, kY, kX, 0.0); }, ErrorCode::outOfRange, "w", "w must be nonzero for the binned sums"},
      {"binned sums over more than a double spans", [] { nw::binnedPredict({-1e308, 1e308}, {1.0, 2.0}, {0.0}, 1.0); }, ErrorCode::outOfRange, "keys", "keys and queries must span less than the largest double"},
      {"the binned loss of epanechnikov", [] { nw::binnedLooLoss(kX, kY, 1.0, {nw::Kernel::epanechnikov}); }, ErrorCode::notApplicable, "kernel", "the binned leave-one-out loss is only for"},
      {"the binned loss of the local line", [] { nw::Objective o; o.estimator = nw::Estimator::localLinear; nw::binnedLooLoss(kX, kY, 1.0, o); }, ErrorCode::notApplicable, "estimator", "the binned leave-one-out loss is only for"},
      {"target below 0", [] { nw::target(-1.0); }, ErrorCode::outOfRange, "x", "x must be a number from 0 to 1e6"},
      {"target of NaN", [] { nw::target(NAN); }, ErrorCode::notFinite, "x", "x must be a number from 0 to 1e6"},
      {"an empty grid range", [] { nw::testGrid(1.0, 1.0, 5); }, ErrorCode::outOfRange, "xMax", "xMax must be greater than xMin (1), got 1"},
      {"a grid of 0 points", [] { nw::testGrid(0.0, 1.0, 0); }, ErrorCode::outOfRange, "n", "n must be an integer from 1 to 1000000, got 0"},
      {"a NaN grid end", [] { nw::testGrid(NAN, 1.0, 5); }, ErrorCode::notFinite, "xMin", "xMin must be a finite number"},
      {"nTrain of 0", [] { nw::generateData(specWith([](nw::DataSpec& s) { s.nTrain = 0; })); }, ErrorCode::outOfRange, "nTrain", "nTrain must be an integer from 1 to 1000000, got 0"},
      {"nTest beyond the limit", [] { nw::generateData(specWith([](nw::DataSpec& s) { s.nTest = nw::kMaxSamples + 1; })); }, ErrorCode::outOfRange, "nTest", "nTest must be an integer from 1 to 1000000, got 1000001"},
      {"negative noise", [] { nw::generateData(specWith([](nw::DataSpec& s) { s.noiseSd = -1.0; })); }, ErrorCode::outOfRange, "noiseSd", "noiseSd must be a finite number >= 0, got -1"},
      {"infinite noise", [] { nw::generateData(specWith([](nw::DataSpec& s) { s.noiseSd = INFINITY; })); }, ErrorCode::notFinite, "noiseSd", "noiseSd must be a finite number >= 0, got Infinity"},
      {"xMin below 0", [] { nw::generateData(specWith([](nw::DataSpec& s) { s.xMin = -1.0; })); }, ErrorCode::outOfRange, "xMin", "xMin must be a number from 0 to 1e6"},
      {"NaN xMax", [] { nw::generateData(specWith([](nw::DataSpec& s) { s.xMax = NAN; })); }, ErrorCode::notFinite, "xMax", "xMax must be greater than xMin (0) and at most 1e6, got NaN"},
      {"xMax = xMin", [] { nw::generateData(specWith([](nw::DataSpec& s) { s.xMin = s.xMax = 2.0; })); }, ErrorCode::outOfRange, "xMax", "xMax must be greater than xMin (2)"},
      {"a kernel value at NaN", [] { nw::kernelValue(nw::Kernel::gaussian, NAN); }, ErrorCode::notFinite, "d", "d must be a finite number, got NaN"},
      {"unknown kernel", [] { nw::parseKernel("Gauss"); }, ErrorCode::unknownValue, "kernel", "kernel must be one of gaussian, boxcar, constant, epanechnikov, triangular, got 'Gauss'"},
      {"unknown estimator", [] { nw::parseEstimator("ll"); }, ErrorCode::unknownValue, "estimator", "estimator must be one of nadarayaWatson, localLinear, got 'll'"},
      {"unknown loss", [] { nw::parseLoss("mean"); }, ErrorCode::unknownValue, "loss", "loss must be one of squared, halfSquared, got 'mean'"},
      {"unknown criterion", [] { nw::parseCriterion("bic"); }, ErrorCode::unknownValue, "criterion", "criterion must be one of looCv, aic, got 'bic'"},
      {"unknown approximation", [] { nw::parseApproximation("sometimes"); }, ErrorCode::unknownValue, "approximate", "approximate must be one of auto, never, got 'sometimes'"},
  };
  return all;
}

}  // namespace

TEST_CASE("every refusal carries its code and the parameter it names", "[errors]") {
  for (const Refusal& r : refusals()) {
    CAPTURE(r.label);
    bool thrown = false;
    try {
      r.call();
    } catch (const nw::Error& e) {
      thrown = true;
      CHECK(std::string(nw::errorCodeName(e.code())) == nw::errorCodeName(r.code));
      CHECK(e.parameter() == r.parameter);
      CHECK(std::string(e.what()).rfind(r.messageStart, 0) == 0);
      CAPTURE(e.what());
    }
    CHECK(thrown);
  }
}

TEST_CASE("the codes' names are distinct, lower-case words joined by hyphens", "[errors]") {
  std::set<std::string> names;
  for (int c = static_cast<int>(ErrorCode::wrongType); c <= static_cast<int>(ErrorCode::internal); ++c) {
    const std::string name = nw::errorCodeName(static_cast<ErrorCode>(c));
    CAPTURE(c, name);
    CHECK(name.find_first_not_of("abcdefghijklmnopqrstuvwxyz-") == std::string::npos);
    CHECK(name.front() != '-');
    CHECK(name.back() != '-');
    names.insert(name);
  }
  CHECK(names.size() == static_cast<std::size_t>(ErrorCode::internal) + 1);
  CHECK(std::string(nw::errorCodeName(ErrorCode::notTrainable)) == "not-trainable");
}

TEST_CASE("countError says which rule a count broke: not-finite or out-of-range", "[errors]") {
  CHECK(nw::countError("n", 1, 5, NAN).code() == ErrorCode::notFinite);
  CHECK(nw::countError("n", 1, 5, -INFINITY).code() == ErrorCode::notFinite);
  CHECK(nw::countError("n", 1, 5, 2.5).code() == ErrorCode::outOfRange);
  CHECK(std::string(nw::countError("seed", 0, (std::uint64_t{1} << 53) - 1, 1.5).what()) ==
        "seed must be an integer from 0 to 9007199254740991, got 1.5");
  CHECK_NOTHROW(nw::requireCount(5, "n", 1, 5));
  CHECK_THROWS_AS(nw::requireCount(6, "n", 1, 5), nw::Error);
}

TEST_CASE("isTrainable is the Trainer's and selectBandwidth's own test, for every kernel and estimator", "[errors]") {
  const std::vector<double> x{0.0, 0.5, 1.0, 2.0, 3.5, 4.0};
  const std::vector<double> y{1.0, 2.0, 0.5, 1.5, 3.0, 2.0};
  int trainable = 0;
  for (nw::Kernel kernel : nw::allKernels()) {
    for (nw::Estimator estimator : nw::allEstimators()) {
      CAPTURE(nw::kernelName(kernel), nw::estimatorName(estimator));
      nw::Objective objective;
      objective.kernel = kernel;
      objective.estimator = estimator;
      const bool expected = nw::isTrainable(kernel, estimator);
      trainable += expected ? 1 : 0;
      for (const auto& attempt : std::vector<std::function<void()>>{
               [&] { nw::Trainer(x, y, 1.0, 0.5, objective).step(); },
               [&] { nw::selectBandwidth(x, y, objective); }}) {
        try {
          attempt();
          CHECK(expected);
        } catch (const nw::Error& e) {
          CHECK_FALSE(expected);
          CHECK(e.code() == ErrorCode::notTrainable);
          CHECK(e.parameter() == "kernel");
        }
      }
    }
    // The estimator does not change the answer: both estimators train the same kernels.
    CHECK(nw::isTrainable(kernel, nw::Estimator::localLinear) == nw::isTrainable(kernel));
  }
  CHECK(trainable == 6);  // gaussian, epanechnikov, triangular, with either estimator
  CHECK_FALSE(nw::isTrainable(nw::Kernel::boxcar, nw::Estimator::localLinear));
  CHECK(nw::isTrainable(nw::Kernel::triangular, nw::Estimator::localLinear));
}
