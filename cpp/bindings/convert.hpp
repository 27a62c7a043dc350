// The binding's conversions: JS values to core types, core results to JS values, and every C++ error
// to a { error, code, parameter } result (see guarded). What api.js hands the raw functions is already
// tidy: arrays are fresh Float64Arrays, options undefined or fresh null-prototype objects of plain data,
// so reading a val here never runs user code; what is left to check is each value's JS type.
#pragma once

#include <emscripten/val.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "nw/error.hpp"
#include "nw/options.hpp"
#include "nw/scoring.hpp"

namespace nw::js {

using emscripten::val;

// No choice's name is longer than this: a longer string is cut before it is copied into wasm memory, so
// a huge string cannot grow the module's memory (which never shrinks), and the parser still refuses it.
// (api.js refuses option names beyond the same length: maxOptionNameLength.)
inline constexpr int kMaxNameLength = 64;
// The largest integer a JS number holds exactly (Number.MAX_SAFE_INTEGER): the largest seed.
inline constexpr std::uint64_t kMaxSafeInteger = (std::uint64_t{1} << 53) - 1;

// A Float64Array (api.js's copy of the caller's array) -> vector; running out of memory names `name`.
std::vector<double> toVector(const val& value, const char* name);
// A number, else ErrorCode::wrongType naming `name`.
double toNumber(const val& value, const char* name);
// A string (cut to kMaxNameLength), else ErrorCode::wrongType.
std::string toName(const val& value, const char* name);
Kernel toKernel(const val& value);
Estimator toEstimator(const val& value);
// A JS number as a count in [minimum, maximum] (an integer), else nw::countError.
std::size_t toCount(double value, const char* name, std::size_t minimum, std::size_t maximum);
// A JS number as a seed: an integer from 0 to kMaxSafeInteger.
std::uint64_t toSeed(double value, const char* name);

// Copies out: a view into wasm memory would go stale when memory grows, and the vector is freed on return.
template <class T>
val toTypedArray(const std::vector<T>& values) {
  return val(emscripten::typed_memory_view(values.size(), values.data())).call<val>("slice");
}
val toFloat64Array(const std::vector<double>& values);
// Indices cross as Uint32Array: api.js lets no array have more than 2^27 entries.
val toUint32Array(const std::vector<std::size_t>& indices);

// null (or omitted) asks the blocks functions for no predictions; an empty array is a mistake, not a way to ask.
std::vector<double> toOptionalValues(const val& values);
// maxBlockRows and maxBlockCols of attentionBlocks and scoringBlocks when not given.
inline constexpr double kDefaultBlocksPerSide = 200;
// { rows, cols, rowStep, colStep, blockRows, blockCols, weight, row, col, fallbackRows[, predictions] }.
val fromBlockWeights(const BlockWeights& b);

// Reads the fields of an options object; absent fields keep the caller's defaults, and a field the
// function does not know is an error (so a typo such as { W: 3 } is never silently ignored).
class OptionReader {
 public:
  explicit OptionReader(const val& options);

  void read(const char* key, double& field);
  void read(const char* key, bool& field);
  void read(const char* key, Kernel& field);
  void read(const char* key, Loss& field);
  void read(const char* key, Estimator& field);
  void read(const char* key, Approximation& field);
  void read(const char* key, Criterion& field);
  void read(const char* key, Scoring& field);
  void read(const char* key, Optimizer& field);
  // The field as it is (api.js's copy: e.g. the parameters object), or undefined.
  val readValue(const char* key);
  // The objective's four options: kernel, leaveOneOut, loss, estimator.
  void readObjective(Objective& objective);

  bool has(const char* key) const;
  // ErrorCode::unknownOption naming `options` for the first field no read() asked for.
  void rejectUnknown() const;

 private:
  // The field's value, or undefined; records the key as known.
  val field(const char* key);
  template <class Choice>
  void readChoice(const char* key, Choice& field, Choice (*parse)(const std::string&));

  val options_;
  std::vector<std::string> known_;
};

// Scoring parameters as JS sees them: { w } (gaussian), { s } (dotProduct) or { wq, wk, b, v }
// (additive, Float64Arrays of length h), api.js's copy. toScoringParameters names `parameters` for
// fields of another scoring than `scoring`.
ScoringParameters toScoringParameters(const val& object, Scoring scoring);
val fromScoringParameters(const ScoringParameters& parameters);

// { error: message, code, parameter } for an error caught at the boundary. `sizedBy` names the inputs
// whose sizes set the memory the computation needs, `parameter` the first of them.
val errorResult(const Error& error);
val unexpectedResult(const std::exception* caught, const char* parameter, const char* sizedBy);

// Runs one raw function and catches everything C++ can throw, so no exception reaches JS: { value } or
// errorResult's object.
template <class Compute>
val guarded(const char* parameter, const char* sizedBy, Compute&& compute) {
  try {
    val result = val::object();
    result.set("value", compute());
    return result;
  } catch (const Error& e) {
    return errorResult(e);
  } catch (const std::exception& e) {
    return unexpectedResult(&e, parameter, sizedBy);
  } catch (...) {
    return unexpectedResult(nullptr, parameter, sizedBy);
  }
}

}  // namespace nw::js
