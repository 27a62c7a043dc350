// Embind glue: converts JS values to core types and back, and nw::Error into { error } results.
// No estimator math here. Every raw function returns { value } or { error: message }; api.js turns the
// latter into a thrown NWError. Exceptions never cross into JS, because in Emscripten 3.1.6 each one
// that does leaks wasm stack.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "nw/attention.hpp"
#include "nw/bandwidth.hpp"
#include "nw/data.hpp"
#include "nw/error.hpp"
#include "nw/metrics.hpp"
#include "nw/training.hpp"
#include "nw/validate.hpp"

using emscripten::val;

namespace {

bool isNumberArray(const val& value) {
  if (val::global("Array").call<bool>("isArray", value)) return true;
  return val::global("ArrayBuffer").call<bool>("isView", value) && !value.instanceof(val::global("DataView"));
}

// Array or typed array -> vector (a copy). Non-numeric entries arrive as NaN and fail validation later.
std::vector<double> toVector(const val& value, const char* name) {
  if (!isNumberArray(value)) {
    throw nw::Error(std::string(name) + " must be an array or typed array of numbers, got " +
                    value.typeOf().as<std::string>());
  }
  return emscripten::convertJSArrayToNumberVector<double>(value);
}

double toNumber(const val& value, const char* name) {
  const std::string type = value.typeOf().as<std::string>();
  if (type != "number") throw nw::Error(std::string(name) + " must be a number, got " + type);
  return value.as<double>();
}

// Copies out: a view into wasm memory would go stale when memory grows, and the vector is freed on return.
template <class T>
val toTypedArray(const std::vector<T>& values) {
  return val(emscripten::typed_memory_view(values.size(), values.data())).call<val>("slice");
}

val toFloat64Array(const std::vector<double>& values) { return toTypedArray(values); }

// Reads the number fields of an options object; absent fields keep the core's defaults, and a field
// the function does not know is an error (so a typo such as { W: 3 } is never silently ignored).
class OptionReader {
 public:
  explicit OptionReader(const val& options) : options_(options) {
    const std::string type = options.typeOf().as<std::string>();
    if (type == "undefined" || options.isNull()) {
      options_ = val::object();
    } else if (type != "object" || val::global("Array").call<bool>("isArray", options)) {
      throw nw::Error("options must be an object, got " + type);
    }
  }

  void read(const char* key, double& field) {
    known_.emplace_back(key);
    const val value = options_[key];
    if (!value.isUndefined()) field = toNumber(value, key);
  }

  void read(const char* key, bool& field) {
    known_.emplace_back(key);
    const val value = options_[key];
    if (value.isUndefined()) return;
    const std::string type = value.typeOf().as<std::string>();
    if (type != "boolean") throw nw::Error(std::string(key) + " must be true or false, got " + type);
    field = value.as<bool>();
  }

  void read(const char* key, nw::Kernel& field) {
    known_.emplace_back(key);
    const val value = options_[key];
    if (value.isUndefined()) return;
    const std::string type = value.typeOf().as<std::string>();
    if (type != "string") throw nw::Error(std::string(key) + " must be a string, got " + type);
    field = nw::parseKernel(value.as<std::string>());
  }

  void rejectUnknown() const {
    const auto keys = emscripten::vecFromJSArray<std::string>(val::global("Object").call<val>("keys", options_));
    for (const auto& key : keys) {
      bool isKnown = false;
      for (const auto& k : known_) isKnown = isKnown || k == key;
      if (!isKnown) {
        std::string expected;
        for (const auto& k : known_) expected += (expected.empty() ? "" : ", ") + k;
        throw nw::Error("options: unknown option '" + key + "' (expected " + expected + ")");
      }
    }
  }

 private:
  val options_;
  std::vector<std::string> known_;
};

struct KernelOptions {
  double w = 1.0;
  nw::Kernel kernel = nw::Kernel::gaussian;
};

KernelOptions readKernelOptions(const val& options) {
  KernelOptions out;
  OptionReader reader(options);
  reader.read("w", out.w);
  reader.read("kernel", out.kernel);
  reader.rejectUnknown();
  return out;
}

void readObjective(OptionReader& reader, nw::Objective& objective) {
  reader.read("kernel", objective.kernel);
  reader.read("leaveOneOut", objective.leaveOneOut);
}

template <class Compute>
val guarded(Compute&& compute) {
  val result = val::object();
  try {
    result.set("value", compute());
  } catch (const nw::Error& e) {
    result.set("error", std::string(e.what()));
  } catch (const std::bad_alloc&) {
    result.set("error", std::string("out of memory: the input is too large for this module"));
  }
  return result;
}

val generateData(val options) {
  return guarded([&] {
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
    spec.nTrain = nw::requireCount(nTrain, "nTrain", 1, nw::kMaxSamples);
    spec.nTest = nw::requireCount(nTest, "nTest", 1, nw::kMaxSamples);
    spec.seed = nw::requireSeed(seed, "seed");

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
  return guarded([&] { return val(nw::target(toNumber(x, "x"))); });
}

val averagePool(val values) {
  return guarded([&] { return val(nw::averagePool(toVector(values, "values"))); });
}

val meanSquaredError(val predicted, val truth) {
  return guarded([&] {
    return val(nw::meanSquaredError(toVector(predicted, "predicted"), toVector(truth, "truth")));
  });
}

val predict(val queries, val keys, val values, val options) {
  return guarded([&] {
    const KernelOptions o = readKernelOptions(options);
    return toFloat64Array(nw::predict(toVector(queries, "queries"), toVector(keys, "keys"),
                                      toVector(values, "values"), o.w, o.kernel));
  });
}

val attentionWeights(val queries, val keys, val options) {
  return guarded([&] {
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

// Indices cross as Uint32Array (a matrix of at most 2^24 cells per side needs no more).
val toUint32Array(const std::vector<std::size_t>& indices) {
  return toTypedArray(std::vector<std::uint32_t>(indices.begin(), indices.end()));
}

val attentionBlocks(val queries, val keys, val values, val options) {
  return guarded([&] {
    double w = 1.0, maxRows = 200, maxCols = 200;
    nw::Kernel kernel = nw::Kernel::gaussian;
    OptionReader reader(options);
    reader.read("w", w);
    reader.read("kernel", kernel);
    reader.read("maxBlockRows", maxRows);
    reader.read("maxBlockCols", maxCols);
    reader.rejectUnknown();
    const std::vector<double> valueVector = values.isUndefined() || values.isNull() ? std::vector<double>{} : toVector(values, "values");
    const nw::BlockWeights b = nw::attentionBlocks(
        toVector(queries, "queries"), toVector(keys, "keys"), valueVector, w, kernel,
        nw::requireCount(maxRows, "maxBlockRows", 1, 4096), nw::requireCount(maxCols, "maxBlockCols", 1, 4096));
    val out = val::object();
    out.set("rows", b.rows);
    out.set("cols", b.cols);
    out.set("rowStep", b.rowStep);
    out.set("colStep", b.colStep);
    out.set("blockRows", b.blockRows);
    out.set("blockCols", b.blockCols);
    out.set("weight", toFloat64Array(b.weight));
    out.set("row", toUint32Array(b.row));
    out.set("col", toUint32Array(b.col));
    out.set("fallbackRows", toTypedArray(b.fallbackRows));
    if (!b.predictions.empty()) out.set("predictions", toFloat64Array(b.predictions));
    return out;
  });
}

val looLoss(val xTrain, val yTrain, val options) {
  return guarded([&] {
    double w = 1.0;
    nw::Objective objective;
    OptionReader reader(options);
    reader.read("w", w);
    readObjective(reader, objective);
    reader.rejectUnknown();
    const nw::LooResult r = nw::looLoss(toVector(xTrain, "xTrain"), toVector(yTrain, "yTrain"), w, objective);
    val out = val::object();
    out.set("loss", r.loss);
    out.set("grad", r.grad);
    return out;
  });
}

val selectBandwidth(val xTrain, val yTrain, val options) {
  return guarded([&] {
    nw::Objective objective;
    OptionReader reader(options);
    readObjective(reader, objective);
    reader.rejectUnknown();
    const nw::BandwidthChoice choice = nw::selectBandwidth(toVector(xTrain, "xTrain"), toVector(yTrain, "yTrain"), objective);
    val out = val::object();
    out.set("w", choice.w);
    out.set("loss", choice.loss);
    out.set("atLimit", std::string(choice.atLimit == nw::BandwidthLimit::zero       ? "zero"
                                   : choice.atLimit == nw::BandwidthLimit::infinity ? "infinity"
                                                                                    : "none"));
    return out;
  });
}

val testGrid(val xMin, val xMax, val n) {
  return guarded([&] {
    const double count = toNumber(n, "n");
    return toFloat64Array(nw::testGrid(toNumber(xMin, "xMin"), toNumber(xMax, "xMax"),
                                       nw::requireCount(count, "n", 1, nw::kMaxSamples)));
  });
}

val kernelValue(val kernel, val d) {
  return guarded([&] {
    const std::string type = kernel.typeOf().as<std::string>();
    if (type != "string") throw nw::Error("kernel must be a string, got " + type);
    return val(nw::kernelValue(nw::parseKernel(kernel.as<std::string>()), toNumber(d, "d")));
  });
}

val kernelNames() {
  val names = val::array();
  for (nw::Kernel k : nw::allKernels()) names.call<void>("push", std::string(nw::kernelName(k)));
  return names;
}

// The trainer crosses as an Embind object owned by JS (api.js wraps it and frees it in delete()).
val createTrainer(val xTrain, val yTrain, val options) {
  return guarded([&] {
    double w0 = nw::kDefaultW0;
    double lr = nw::kDefaultLearningRate;
    nw::Objective objective;
    OptionReader reader(options);
    reader.read("w0", w0);
    reader.read("lr", lr);
    readObjective(reader, objective);
    reader.rejectUnknown();
    return val(nw::Trainer(toVector(xTrain, "xTrain"), toVector(yTrain, "yTrain"), w0, lr, objective));
  });
}

val trainerStep(nw::Trainer& trainer) {
  return guarded([&] { return val(trainer.step()); });
}

double trainerW(const nw::Trainer& trainer) { return trainer.w(); }
double trainerEpoch(const nw::Trainer& trainer) { return static_cast<double>(trainer.epoch()); }

}  // namespace

EMSCRIPTEN_BINDINGS(nadaraya_watson) {
  emscripten::function("rawGenerateData", &generateData);
  emscripten::function("rawTarget", &target);
  emscripten::function("rawAveragePool", &averagePool);
  emscripten::function("rawMeanSquaredError", &meanSquaredError);
  emscripten::function("rawPredict", &predict);
  emscripten::function("rawAttentionWeights", &attentionWeights);
  emscripten::function("rawAttentionBlocks", &attentionBlocks);
  emscripten::function("rawLooLoss", &looLoss);
  emscripten::function("rawCreateTrainer", &createTrainer);
  emscripten::function("rawSelectBandwidth", &selectBandwidth);
  emscripten::function("rawTestGrid", &testGrid);
  emscripten::function("rawKernelValue", &kernelValue);
  emscripten::function("rawKernelNames", &kernelNames);
  emscripten::class_<nw::Trainer>("RawTrainer")
      .function("step", &trainerStep)
      .function("w", &trainerW)
      .function("epoch", &trainerEpoch);
}
