// The binding's conversions (see convert.hpp).
#include "convert.hpp"

#include <emscripten/bind.h>

#include <cmath>
#include <new>
#include <stdexcept>

#include "nw/validate.hpp"

namespace nw::js {
namespace {

// std::length_error is what std::vector throws for a size beyond the address space: the same failure.
bool isAllocationFailure(const std::exception& e) {
  return dynamic_cast<const std::bad_alloc*>(&e) != nullptr || dynamic_cast<const std::length_error*>(&e) != nullptr;
}

// `what` names the input (or inputs) that did not fit.
std::string outOfMemory(const std::string& what) { return "out of memory: not enough left in this module for " + what; }

std::string typeOf(const val& value) { return value.typeOf().as<std::string>(); }

[[noreturn]] void wrongType(const char* name, const std::string& rule, const val& value) {
  throw Error(ErrorCode::wrongType, name, std::string(name) + " must be " + rule + ", got " + typeOf(value));
}

}  // namespace

std::vector<double> toVector(const val& value, const char* name) {
  try {
    return emscripten::convertJSArrayToNumberVector<double>(value);
  } catch (const std::exception& e) {
    // Named here, where it is still known which array did not fit.
    if (!isAllocationFailure(e)) throw;
    throw Error(ErrorCode::outOfMemory, name,
                outOfMemory(std::string(name) + " (" + describeNumber(value["length"].as<double>()) + " entries)"));
  }
}

double toNumber(const val& value, const char* name) {
  if (typeOf(value) != "number") wrongType(name, "a number", value);
  return value.as<double>();
}

std::string toName(const val& value, const char* name) {
  if (typeOf(value) != "string") wrongType(name, "a string", value);
  return value.call<val>("slice", 0, kMaxNameLength).as<std::string>();
}

Kernel toKernel(const val& value) { return parseKernel(toName(value, "kernel")); }
Estimator toEstimator(const val& value) { return parseEstimator(toName(value, "estimator")); }

std::size_t toCount(double value, const char* name, std::size_t minimum, std::size_t maximum) {
  if (!(value == std::floor(value) && value >= static_cast<double>(minimum) && value <= static_cast<double>(maximum))) {
    throw countError(name, minimum, maximum, value);  // NaN and the infinities too
  }
  return static_cast<std::size_t>(value);
}

std::uint64_t toSeed(double value, const char* name) {
  if (!(value == std::floor(value) && value >= 0.0 && value <= static_cast<double>(kMaxSafeInteger))) {
    throw countError(name, 0, kMaxSafeInteger, value);
  }
  return static_cast<std::uint64_t>(value);
}

val toFloat64Array(const std::vector<double>& values) { return toTypedArray(values); }

val toUint32Array(const std::vector<std::size_t>& indices) {
  return toTypedArray(std::vector<std::uint32_t>(indices.begin(), indices.end()));
}

std::vector<double> toOptionalValues(const val& values) {
  if (values.isUndefined() || values.isNull()) return {};
  std::vector<double> out = toVector(values, "values");
  if (out.empty()) throw Error(ErrorCode::empty, "values", "values must not be empty (null asks for no predictions)");
  return out;
}

val fromBlockWeights(const BlockWeights& b) {
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
}

// api.js passes undefined (the defaults) or its own copy of the caller's options.
OptionReader::OptionReader(const val& options) : options_(options.isUndefined() ? val::object() : options) {}

val OptionReader::field(const char* key) {
  known_.emplace_back(key);
  return options_[key];
}

void OptionReader::read(const char* key, double& field) {
  const val value = this->field(key);
  if (!value.isUndefined()) field = toNumber(value, key);
}

void OptionReader::read(const char* key, bool& field) {
  const val value = this->field(key);
  if (value.isUndefined()) return;
  if (typeOf(value) != "boolean") wrongType(key, "true or false", value);
  field = value.as<bool>();
}

// A choice by name: absent keeps the default, else a string the core parses (naming `key` if it is no choice).
template <class Choice>
void OptionReader::readChoice(const char* key, Choice& field, Choice (*parse)(const std::string&)) {
  const val value = this->field(key);
  if (!value.isUndefined()) field = parse(toName(value, key));
}

void OptionReader::read(const char* key, Kernel& field) { readChoice(key, field, parseKernel); }
void OptionReader::read(const char* key, Loss& field) { readChoice(key, field, parseLoss); }
void OptionReader::read(const char* key, Estimator& field) { readChoice(key, field, parseEstimator); }
void OptionReader::read(const char* key, Approximation& field) { readChoice(key, field, parseApproximation); }
void OptionReader::read(const char* key, Criterion& field) { readChoice(key, field, parseCriterion); }

void OptionReader::read(const char* key, Scoring& field) { readChoice(key, field, parseScoring); }
void OptionReader::read(const char* key, Optimizer& field) { readChoice(key, field, parseOptimizer); }
val OptionReader::readValue(const char* key) { return field(key); }

namespace {
// The names of each scoring's parameter fields, in the flat order of ScoringParameters::values.
const std::vector<const char*>& parameterFields(Scoring scoring) {
  static const std::vector<const char*> gaussian{"w"}, dotProduct{"s"}, additive{"wq", "wk", "b", "v"};
  return scoring == Scoring::gaussian ? gaussian : scoring == Scoring::dotProduct ? dotProduct : additive;
}
}  // namespace

ScoringParameters toScoringParameters(const val& object, Scoring scoring) {
  const auto& fields = parameterFields(scoring);
  const auto keys = emscripten::vecFromJSArray<std::string>(val::global("Object").call<val>("keys", object));
  std::string expected;
  for (const char* name : fields) expected += (expected.empty() ? "" : ", ") + std::string(name);
  const auto wrongFields = [&] {
    throw Error(ErrorCode::notApplicable, "parameters", std::string("parameters of ") + scoringName(scoring) + " are { " + expected +
                " }, got { " + [&] { std::string got; for (const auto& k : keys) got += (got.empty() ? "" : ", ") + k; return got; }() + " }");
  };
  if (keys.size() != fields.size()) wrongFields();
  ScoringParameters out{scoring, {}};
  std::size_t h = 0;
  for (std::size_t f = 0; f < fields.size(); ++f) {
    const val value = object[fields[f]];
    if (value.isUndefined()) wrongFields();
    if (scoring != Scoring::additive) {
      out.values.push_back(toNumber(value, "parameters"));
      continue;
    }
    const std::vector<double> part = toVector(value, "parameters");
    if (f == 0) h = part.size();
    if (part.size() != h) {
      throw Error(ErrorCode::lengthMismatch, "parameters", "parameters wq, wk, b and v must have one length h, got " +
                  std::to_string(h) + " (wq) and " + std::to_string(part.size()) + " (" + fields[f] + ")");
    }
    out.values.insert(out.values.end(), part.begin(), part.end());
  }
  requireParameters(out);
  return out;
}

val fromScoringParameters(const ScoringParameters& p) {
  val out = val::object();
  const auto& fields = parameterFields(p.scoring);
  if (p.scoring != Scoring::additive) {
    out.set(fields[0], p.values[0]);
    return out;
  }
  const std::size_t h = p.hidden();
  for (std::size_t f = 0; f < fields.size(); ++f) {
    out.set(fields[f], toFloat64Array(std::vector<double>(p.values.begin() + f * h, p.values.begin() + (f + 1) * h)));
  }
  return out;
}

void OptionReader::readObjective(Objective& objective) {
  read("kernel", objective.kernel);
  read("leaveOneOut", objective.leaveOneOut);
  read("loss", objective.loss);
  read("estimator", objective.estimator);
}

bool OptionReader::has(const char* key) const { return !options_[key].isUndefined(); }

void OptionReader::rejectUnknown() const {
  const auto keys = emscripten::vecFromJSArray<std::string>(val::global("Object").call<val>("keys", options_));
  for (const auto& key : keys) {
    bool isKnown = false;
    for (const auto& k : known_) isKnown = isKnown || k == key;
    if (!isKnown) {
      std::string expected;
      for (const auto& k : known_) expected += (expected.empty() ? "" : ", ") + k;
      throw Error(ErrorCode::unknownOption, "options", "options: unknown option '" + key + "' (expected " + expected + ")");
    }
  }
}

val errorResult(const Error& error) {
  val result = val::object();
  result.set("error", std::string(error.what()));
  result.set("code", std::string(errorCodeName(error.code())));
  result.set("parameter", error.parameter());
  return result;
}

val unexpectedResult(const std::exception* caught, const char* parameter, const char* sizedBy) {
  if (caught != nullptr && isAllocationFailure(*caught)) {
    return errorResult(Error(ErrorCode::outOfMemory, parameter, outOfMemory(sizedBy)));
  }
  const std::string what = caught != nullptr ? std::string(": ") + caught->what() : std::string();
  return errorResult(Error(ErrorCode::internal, parameter, "unexpected error with " + std::string(sizedBy) + what));
}

}  // namespace nw::js
