// Embind glue: the raw functions that api.js wraps. No estimator math here, and no conversion toolkit
// (convert.hpp). Every raw function returns { value } or { error: message, code, parameter }; api.js
// turns the latter into a thrown NWError. Exceptions never cross into JS, because in Emscripten 3.1.6
// each one that does leaks wasm stack and the heap its frames held. api.js passes these functions only
// fresh Float64Arrays and option objects of plain data, so no user code (getter, Proxy trap, valueOf)
// runs, and throws, while a C++ frame is live; reading a val here never calls user code.
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <cstdint>
#include <string>
#include <vector>

#include "convert.hpp"
#include "scoring_bindings.hpp"
#include "nw/aic.hpp"
#include "nw/attention.hpp"
#include "nw/bandwidth.hpp"
#include "nw/binned.hpp"
#include "nw/data.hpp"
#include "nw/error.hpp"
#include "nw/local_linear.hpp"
#include "nw/metrics.hpp"
#include "nw/options.hpp"
#include "nw/scoring.hpp"
#include "nw/training.hpp"

using emscripten::val;
using namespace nw::js;

namespace {

struct KernelOptions {
  double w = 1.0;
  nw::Kernel kernel = nw::Kernel::gaussian;
  nw::Estimator estimator = nw::Estimator::nadarayaWatson;
};

// w and kernel, and the estimator where the function takes one (the weights' functions do not).
KernelOptions readKernelOptions(const val& options, bool withEstimator = false) {
  KernelOptions out;
  OptionReader reader(options);
  reader.read("w", out.w);
  reader.read("kernel", out.kernel);
  if (withEstimator) reader.read("estimator", out.estimator);
  reader.rejectUnknown();
  return out;
}

val generateData(val options) {
  return guarded("nTrain", "nTrain and nTest", [&] {
    const nw::DataSpec defaults;
    double nTrain = static_cast<double>(defaults.nTrain);
    double nTest = static_cast<double>(defaults.nTest);
    double seed = static_cast<double>(defaults.seed);
    nw::DataSpec spec;
    OptionReader reader(options);
    reader.read("nTrain", nTrain);
    reader.read("nTest", nTest);
    reader.read("noiseSd", spec.noiseSd);
    reader.read("xMin", spec.xMin);
    reader.read("xMax", spec.xMax);
    reader.read("seed", seed);
    reader.rejectUnknown();
    spec.nTrain = toCount(nTrain, "nTrain", 1, nw::kMaxSamples);
    spec.nTest = toCount(nTest, "nTest", 1, nw::kMaxSamples);
    spec.seed = toSeed(seed, "seed");

    const nw::Dataset data = nw::generateData(spec);
    val out = val::object();
    out.set("xTrain", toFloat64Array(data.xTrain));
    out.set("yTrain", toFloat64Array(data.yTrain));
    out.set("xTest", toFloat64Array(data.xTest));
    out.set("yTruth", toFloat64Array(data.yTruth));
    out.set("w0", data.w0);
    return out;
  });
}

val target(val x) {
  return guarded("x", "x", [&] { return val(nw::target(toNumber(x, "x"))); });
}

val averagePool(val values) {
  return guarded("values", "values", [&] { return val(nw::averagePool(toVector(values, "values"))); });
}

val meanSquaredError(val predicted, val truth) {
  return guarded("predicted", "predicted and truth", [&] {
    return val(nw::meanSquaredError(toVector(predicted, "predicted"), toVector(truth, "truth")));
  });
}

val predict(val queries, val keys, val values, val options) {
  return guarded("queries", "queries, keys and values", [&] {
    const KernelOptions o = readKernelOptions(options, true);
    const std::vector<double> q = toVector(queries, "queries"), k = toVector(keys, "keys"), v = toVector(values, "values");
    return toFloat64Array(o.estimator == nw::Estimator::localLinear ? nw::localLinear(q, k, v, o.w, o.kernel).predictions
                                                                    : nw::predict(q, k, v, o.w, o.kernel));
  });
}

val localLinear(val queries, val keys, val values, val options) {
  return guarded("queries", "queries, keys and values", [&] {
    const KernelOptions o = readKernelOptions(options);
    const nw::LocalLinearFit fit = nw::localLinear(toVector(queries, "queries"), toVector(keys, "keys"),
                                                   toVector(values, "values"), o.w, o.kernel);
    val out = val::object();
    out.set("predictions", toFloat64Array(fit.predictions));
    out.set("fallbackRows", toTypedArray(fit.fallbackRows));
    return out;
  });
}

// Only w: the binned sums are the Gaussian kernel's.
val binnedPredict(val queries, val keys, val values, val options) {
  return guarded("queries", "queries, keys and values", [&] {
    double w = 1.0;
    OptionReader reader(options);
    reader.read("w", w);
    reader.rejectUnknown();
    const nw::BinnedPrediction p = nw::binnedPredict(toVector(keys, "keys"), toVector(values, "values"),
                                                     toVector(queries, "queries"), w);
    val out = val::object();
    out.set("predictions", toFloat64Array(p.predictions));
    out.set("bounds", toFloat64Array(p.bounds));
    out.set("gridPoints", static_cast<double>(p.gridPoints));
    return out;
  });
}

val attentionWeights(val queries, val keys, val options) {
  return guarded("queries", "queries x keys", [&] {
    const KernelOptions o = readKernelOptions(options);
    const nw::Matrix m = nw::attentionWeights(toVector(queries, "queries"), toVector(keys, "keys"), o.w, o.kernel);
    val out = val::object();
    out.set("rows", m.rows);
    out.set("cols", m.cols);
    out.set("data", toFloat64Array(m.data));
    out.set("fallbackRows", toTypedArray(m.fallbackRows));
    return out;
  });
}

val attentionBlocks(val queries, val keys, val values, val options) {
  return guarded("queries", "queries, keys and values", [&] {
    double w = 1.0, maxRows = kDefaultBlocksPerSide, maxCols = kDefaultBlocksPerSide;
    nw::Kernel kernel = nw::Kernel::gaussian;
    OptionReader reader(options);
    reader.read("w", w);
    reader.read("kernel", kernel);
    reader.read("maxBlockRows", maxRows);
    reader.read("maxBlockCols", maxCols);
    nw::Approximation approximation = nw::Approximation::never;
    reader.read("approximate", approximation);
    reader.rejectUnknown();
    const nw::ChosenBlocks b = nw::chooseAttentionBlocks(
        toVector(queries, "queries"), toVector(keys, "keys"), toOptionalValues(values), w, kernel,
        toCount(maxRows, "maxBlockRows", 1, nw::kMaxBlocksPerSide), toCount(maxCols, "maxBlockCols", 1, nw::kMaxBlocksPerSide),
        approximation);
    val out = fromBlockWeights(b.blocks);
    out.set("approximate", b.approximate);
    if (b.approximate) {
      out.set("weightBounds", toFloat64Array(b.weightBounds));
      if (!b.predictionBounds.empty()) out.set("predictionBounds", toFloat64Array(b.predictionBounds));
    }
    return out;
  });
}

val looResult(const nw::LooResult& r) {
  val out = val::object();
  out.set("loss", r.loss);
  out.set("grad", r.grad);
  return out;
}

val looLoss(val xTrain, val yTrain, val options) {
  return guarded("xTrain", "xTrain and yTrain", [&] {
    double w = 1.0;
    nw::Objective objective;
    OptionReader reader(options);
    reader.read("w", w);
    reader.readObjective(objective);
    reader.rejectUnknown();
    return looResult(nw::looLoss(toVector(xTrain, "xTrain"), toVector(yTrain, "yTrain"), w, objective));
  });
}

// The Gaussian leave-one-out loss and its gradient from binned sums, each with its bound.
val binnedLooLoss(val xTrain, val yTrain, val options) {
  return guarded("xTrain", "xTrain and yTrain", [&] {
    double w = 1.0;
    nw::Objective objective;
    OptionReader reader(options);
    reader.read("w", w);
    reader.read("leaveOneOut", objective.leaveOneOut);
    reader.read("loss", objective.loss);
    reader.rejectUnknown();
    const nw::BinnedLoss b = nw::binnedLooLoss(toVector(xTrain, "xTrain"), toVector(yTrain, "yTrain"), w, objective, true);
    val out = val::object();
    out.set("loss", b.loss);
    out.set("grad", b.grad);
    out.set("lossBound", b.bound);
    out.set("gradBound", b.gradBound);
    out.set("exactRows", static_cast<double>(b.exactRows));
    out.set("gridPoints", static_cast<double>(b.gridPoints));
    return out;
  });
}

// Rows [rowBegin, rowEnd) of the loss (default: all), for a pool of workers; sumLooRows adds them up.
val looLossRows(val xTrain, val yTrain, val options) {
  return guarded("xTrain", "xTrain and yTrain", [&] {
    double w = 1.0;
    double rowBegin = 0, rowEnd = 0;
    nw::Objective objective;
    OptionReader reader(options);
    reader.read("w", w);
    reader.read("kernel", objective.kernel);
    reader.read("leaveOneOut", objective.leaveOneOut);
    reader.read("estimator", objective.estimator);
    reader.read("rowBegin", rowBegin);
    reader.read("rowEnd", rowEnd);
    reader.rejectUnknown();
    const std::vector<double> x = toVector(xTrain, "xTrain"), y = toVector(yTrain, "yTrain");
    const std::size_t begin = toCount(rowBegin, "rowBegin", 0, x.size());
    const std::size_t end = reader.has("rowEnd") ? toCount(rowEnd, "rowEnd", 0, x.size()) : x.size();
    const nw::LooRows rows = nw::looLossRows(x, y, w, objective, begin, end);
    val out = val::object();
    out.set("lossRows", toFloat64Array(rows.loss));
    out.set("gradRows", toFloat64Array(rows.gradTimesW));
    return out;
  });
}

nw::LooRows toLooRows(const val& lossRows, const val& gradRows) {
  return {toVector(lossRows, "lossRows"), toVector(gradRows, "gradRows")};
}

val sumLooRows(val lossRows, val gradRows, val options) {
  return guarded("lossRows", "lossRows and gradRows", [&] {
    double w = 1.0;
    nw::Loss loss = nw::Loss::squared;
    OptionReader reader(options);
    reader.read("w", w);
    reader.read("loss", loss);
    reader.rejectUnknown();
    return looResult(nw::sumLooRows(toLooRows(lossRows, gradRows), w, loss));
  });
}

val aicLoss(val xTrain, val yTrain, val options) {
  return guarded("xTrain", "xTrain and yTrain", [&] {
    const KernelOptions o = readKernelOptions(options, true);
    const nw::AicResult r = nw::aicLoss(toVector(xTrain, "xTrain"), toVector(yTrain, "yTrain"), o.w, o.kernel, o.estimator);
    val out = val::object();
    out.set("loss", r.aic);
    out.set("grad", r.grad);
    out.set("sigma2", r.sigma2);
    out.set("trace", r.trace);
    return out;
  });
}

val selectBandwidth(val xTrain, val yTrain, val options) {
  return guarded("xTrain", "xTrain and yTrain", [&] {
    nw::Objective objective;
    nw::Criterion criterion = nw::Criterion::looCv;
    OptionReader reader(options);
    reader.readObjective(objective);
    reader.read("criterion", criterion);
    nw::Approximation approximation = nw::Approximation::automatic;
    reader.read("approximate", approximation);
    reader.rejectUnknown();
    // The AIC fits each point with its own key: an option of the leave-one-out loss would be ignored.
    for (const char* key : {"leaveOneOut", "loss"}) {
      if (criterion == nw::Criterion::aic && reader.has(key)) {
        throw nw::Error(nw::ErrorCode::notApplicable, key, std::string(key) + " applies only to criterion looCv (the AIC fits each point with its own key and has no loss option)");
      }
    }
    const nw::BandwidthChoice choice =
        nw::selectBandwidth(toVector(xTrain, "xTrain"), toVector(yTrain, "yTrain"), objective, criterion, approximation);
    val out = val::object();
    out.set("w", choice.w);
    out.set("loss", choice.loss);
    out.set("atLimit", std::string(choice.atLimit == nw::BandwidthLimit::zero       ? "zero"
                                   : choice.atLimit == nw::BandwidthLimit::infinity ? "infinity"
                                                                                    : "none"));
    out.set("approximate", choice.approximate);
    out.set("lossBound", choice.lossBound);
    return out;
  });
}

val testGrid(val xMin, val xMax, val n) {
  return guarded("n", "n", [&] {
    const double count = toNumber(n, "n");
    return toFloat64Array(nw::testGrid(toNumber(xMin, "xMin"), toNumber(xMax, "xMax"),
                                       toCount(count, "n", 1, nw::kMaxSamples)));
  });
}

val kernelValue(val kernel, val d) {
  return guarded("d", "d", [&] {
    const nw::Kernel k = toKernel(kernel);
    return val(nw::kernelValue(k, toNumber(d, "d")));
  });
}

// Whether a Trainer (and selectBandwidth) accepts the kernel with the estimator (default nadarayaWatson).
val isTrainable(val kernel, val estimator) {
  return guarded("kernel", "kernel", [&] {
    const nw::Kernel k = toKernel(kernel);
    const nw::Estimator e = estimator.isUndefined() ? nw::Estimator::nadarayaWatson : toEstimator(estimator);
    return val(nw::isTrainable(k, e));
  });
}

val kernelNames() {
  val names = val::array();
  for (nw::Kernel k : nw::allKernels()) names.call<void>("push", std::string(nw::kernelName(k)));
  return names;
}

// Where a Trainer starts: the parameters given, or the scoring's own start (w0, s0, or drawn from the
// seed for h hidden units). Options that another scoring uses are refused by name.
nw::ScoringParameters readInitialParameters(OptionReader& reader, nw::Scoring scoring) {
  double w0 = nw::kDefaultW0, s0 = nw::kDefaultScale, hidden = nw::kDefaultHidden, seed = 1;
  const bool has[] = {reader.has("w0"), reader.has("s0"), reader.has("hidden"), reader.has("seed")};
  reader.read("w0", w0);
  reader.read("s0", s0);
  reader.read("hidden", hidden);
  reader.read("seed", seed);
  const val given = reader.readValue("parameters");
  const char* names[] = {"w0", "s0", "hidden", "seed"};
  const nw::Scoring owners[] = {nw::Scoring::gaussian, nw::Scoring::dotProduct, nw::Scoring::additive, nw::Scoring::additive};
  for (int i = 0; i < 4; ++i) {
    if (!has[i]) continue;
    if (!given.isUndefined()) {
      throw nw::Error(nw::ErrorCode::notApplicable, names[i], std::string(names[i]) + " does not apply when parameters gives the start");
    }
    if (owners[i] != scoring) {
      throw nw::Error(nw::ErrorCode::notApplicable, names[i], std::string(names[i]) + " applies to the " + nw::scoringName(owners[i]) +
                      " scoring, not " + nw::scoringName(scoring));
    }
  }
  if (!given.isUndefined()) return toScoringParameters(given, scoring);
  const int h = static_cast<int>(toCount(hidden, "hidden", nw::kMinHidden, nw::kMaxHidden));
  return nw::initialParameters(scoring, h, toSeed(seed, "seed"), w0, s0);
}

// The trainer crosses as an Embind object owned by JS (api.js wraps it and frees it in delete()).
val createTrainer(val xTrain, val yTrain, val options) {
  return guarded("xTrain", "xTrain and yTrain", [&] {
    nw::TrainerSetup setup;
    nw::Scoring scoring = nw::Scoring::gaussian;
    OptionReader reader(options);
    reader.read("scoring", scoring);
    setup.initial = readInitialParameters(reader, scoring);
    reader.read("lr", setup.lr);
    reader.read("optimizer", setup.optimizer);
    reader.readObjective(setup.objective);
    reader.read("approximate", setup.approximation);
    reader.rejectUnknown();
    return val(nw::Trainer(toVector(xTrain, "xTrain"), toVector(yTrain, "yTrain"), std::move(setup)));
  });
}

val trainerStep(nw::Trainer& trainer) {
  return guarded("xTrain", "the trainer's xTrain and yTrain", [&] { return val(trainer.step()); });
}

val trainerStepWithRows(nw::Trainer& trainer, val lossRows, val gradRows) {
  return guarded("lossRows", "lossRows and gradRows", [&] { return val(trainer.stepWithRows(toLooRows(lossRows, gradRows))); });
}

val trainerStepWithSums(nw::Trainer& trainer, val lossSum, val gradSum) {
  return guarded("lossSum", "lossSum and gradSum", [&] {
    return val(trainer.stepWithSums({lossSum.as<double>(), toVector(gradSum, "gradSum")}));
  });
}

// For the tests only: the allocator's totals, to check that errors leave the heap exactly as it was.
val heapStats() {
  const struct mallinfo info = mallinfo();
  val out = val::object();
  out.set("arena", info.arena);     // bytes taken from the system (sbrk)
  out.set("inUse", info.uordblks);  // bytes in allocated chunks
  out.set("free", info.fordblks);   // bytes in free chunks
  return out;
}

double trainerW(const nw::Trainer& trainer) { return trainer.w(); }
val trainerParameters(const nw::Trainer& trainer) { return fromScoringParameters(trainer.parameters()); }
std::string trainerScoring(const nw::Trainer& trainer) { return nw::scoringName(trainer.parameters().scoring); }
double trainerEpoch(const nw::Trainer& trainer) { return static_cast<double>(trainer.epoch()); }
bool trainerApproximate(const nw::Trainer& trainer) { return trainer.approximate(); }
double trainerLossBound(const nw::Trainer& trainer) { return trainer.lastLossBound(); }

}  // namespace

EMSCRIPTEN_BINDINGS(nadaraya_watson) {
  emscripten::function("rawGenerateData", &generateData);
  emscripten::function("rawTarget", &target);
  emscripten::function("rawAveragePool", &averagePool);
  emscripten::function("rawMeanSquaredError", &meanSquaredError);
  emscripten::function("rawPredict", &predict);
  emscripten::function("rawLocalLinear", &localLinear);
  emscripten::function("rawBinnedPredict", &binnedPredict);
  emscripten::function("rawAttentionWeights", &attentionWeights);
  emscripten::function("rawAttentionBlocks", &attentionBlocks);
  emscripten::function("rawLooLoss", &looLoss);
  emscripten::function("rawLooLossRows", &looLossRows);
  emscripten::function("rawSumLooRows", &sumLooRows);
  emscripten::function("rawAicLoss", &aicLoss);
  emscripten::function("rawCreateTrainer", &createTrainer);
  emscripten::function("rawScoringWeights", &scoringWeights);
  emscripten::function("rawScoringPredict", &scoringPredict);
  emscripten::function("rawScoringLooLoss", &scoringLooLoss);
  emscripten::function("rawScoringLooRows", &scoringLooRows);
  emscripten::function("rawScoringBlocks", &scoringBlocks);
  emscripten::function("rawGaussianFeatures", &gaussianFeatures);
  emscripten::function("rawDotProductWeights", &dotProductWeights);
  emscripten::function("rawSelectBandwidth", &selectBandwidth);
  emscripten::function("rawBinnedLooLoss", &binnedLooLoss);
  emscripten::function("rawTestGrid", &testGrid);
  emscripten::function("rawKernelValue", &kernelValue);
  emscripten::function("rawKernelNames", &kernelNames);
  emscripten::function("rawIsTrainable", &isTrainable);
  emscripten::function("rawHeapStats", &heapStats);
  emscripten::class_<nw::Trainer>("RawTrainer")
      .function("step", &trainerStep)
      .function("stepWithRows", &trainerStepWithRows)
      .function("stepWithSums", &trainerStepWithSums)
      .function("w", &trainerW)
      .function("parameters", &trainerParameters)
      .function("scoring", &trainerScoring)
      .function("epoch", &trainerEpoch)
      .function("approximate", &trainerApproximate)
      .function("lossBound", &trainerLossBound);
}
