// Embind glue for the scoring functions (issue 30): their weights, predictions and leave-one-out loss,
// and Gaussian pooling as dot-product attention. Conversions only, as in bindings.cpp, which registers them.
#include "scoring_bindings.hpp"

#include <utility>

#include "convert.hpp"
#include "nw/error.hpp"
#include "nw/scoring.hpp"

using emscripten::val;

namespace nw::js {

namespace {

// The scoring and its parameters of the scoring functions' options ({ scoring, parameters }).
nw::ScoringParameters readScoring(OptionReader& reader) {
  nw::Scoring scoring = nw::Scoring::gaussian;
  reader.read("scoring", scoring);
  const val given = reader.readValue("parameters");
  if (given.isUndefined()) throw nw::Error(nw::ErrorCode::wrongType, "parameters", "parameters must be given: { w }, { s } or { wq, wk, b, v }");
  return toScoringParameters(given, scoring);
}

// { rows, cols, data } of a weight matrix.
val matrixResult(const nw::Matrix& m) {
  val out = val::object();
  out.set("rows", m.rows);
  out.set("cols", m.cols);
  out.set("data", toFloat64Array(m.data));
  return out;
}

}  // namespace

val scoringWeights(val queries, val keys, val options) {
  return guarded("queries", "queries x keys", [&] {
    OptionReader reader(options);
    const nw::ScoringParameters p = readScoring(reader);
    reader.rejectUnknown();
    return matrixResult(nw::scoringWeights(toVector(queries, "queries"), toVector(keys, "keys"), p));
  });
}

val scoringPredict(val queries, val keys, val values, val options) {
  return guarded("queries", "queries, keys and values", [&] {
    OptionReader reader(options);
    const nw::ScoringParameters p = readScoring(reader);
    reader.rejectUnknown();
    return toFloat64Array(nw::scoringPredict(toVector(queries, "queries"), toVector(keys, "keys"), toVector(values, "values"), p));
  });
}

val scoringBlocks(val queries, val keys, val values, val options) {
  return guarded("queries", "queries, keys and values", [&] {
    double maxRows = kDefaultBlocksPerSide, maxCols = kDefaultBlocksPerSide;
    OptionReader reader(options);
    const nw::ScoringParameters p = readScoring(reader);
    reader.read("maxBlockRows", maxRows);
    reader.read("maxBlockCols", maxCols);
    reader.rejectUnknown();
    const nw::ScoringBlocks b = nw::scoringBlocks(
        toVector(queries, "queries"), toVector(keys, "keys"), toOptionalValues(values), p,
        toCount(maxRows, "maxBlockRows", 1, nw::kMaxBlocksPerSide), toCount(maxCols, "maxBlockCols", 1, nw::kMaxBlocksPerSide));
    val out = fromBlockWeights(b);
    out.set("peaks", toUint32Array(b.peaks));
    return out;
  });
}

val scoringLooLoss(val xTrain, val yTrain, val options) {
  return guarded("xTrain", "xTrain and yTrain", [&] {
    OptionReader reader(options);
    const nw::ScoringParameters p = readScoring(reader);
    nw::Objective objective;
    reader.read("leaveOneOut", objective.leaveOneOut);
    reader.read("loss", objective.loss);
    reader.rejectUnknown();
    const nw::ScoringLoss r = nw::scoringLooLoss(toVector(xTrain, "xTrain"), toVector(yTrain, "yTrain"), p, objective.leaveOneOut, objective.loss);
    val out = val::object();
    out.set("loss", r.loss);
    out.set("grad", fromScoringParameters({p.scoring, r.grad}));
    return out;
  });
}

val scoringLooRows(val xTrain, val yTrain, val options) {
  return guarded("xTrain", "xTrain and yTrain", [&] {
    OptionReader reader(options);
    const nw::ScoringParameters p = readScoring(reader);
    bool leaveOneOut = true;
    double rowBegin = 0, rowEnd = 0;
    nw::ScoringLoss sums{0.0, std::vector<double>(p.values.size())};
    reader.read("leaveOneOut", leaveOneOut);
    reader.read("rowBegin", rowBegin);
    reader.read("rowEnd", rowEnd);
    reader.read("lossSum", sums.loss);
    const val gradSum = reader.readValue("gradSum");
    reader.rejectUnknown();
    if (!gradSum.isUndefined()) sums.grad = toVector(gradSum, "gradSum");
    const std::vector<double> x = toVector(xTrain, "xTrain"), y = toVector(yTrain, "yTrain");
    const std::size_t begin = toCount(rowBegin, "rowBegin", 0, x.size());
    const std::size_t end = reader.has("rowEnd") ? toCount(rowEnd, "rowEnd", 0, x.size()) : x.size();
    nw::addScoringLooRows(x, y, p, leaveOneOut, begin, end, sums);
    val out = val::object();
    out.set("lossSum", sums.loss);
    out.set("gradSum", toFloat64Array(sums.grad));
    return out;
  });
}

val gaussianFeatures(val queries, val keys, val options) {
  return guarded("queries", "queries and keys", [&] {
    double w = 1.0;
    OptionReader reader(options);
    reader.read("w", w);
    reader.rejectUnknown();
    const nw::Features f = nw::gaussianFeatures(toVector(queries, "queries"), toVector(keys, "keys"), w);
    val out = val::object();
    out.set("dim", f.dim);
    out.set("queryFeatures", toFloat64Array(f.queries));
    out.set("keyFeatures", toFloat64Array(f.keys));
    return out;
  });
}

val dotProductWeights(val queryFeatures, val keyFeatures, val options) {
  return guarded("queryFeatures", "queryFeatures x keyFeatures", [&] {
    double dim = 1;
    OptionReader reader(options);
    reader.read("dim", dim);
    reader.rejectUnknown();
    nw::Features f{toCount(dim, "dim", 1, 64), toVector(queryFeatures, "queryFeatures"), toVector(keyFeatures, "keyFeatures")};
    return matrixResult(nw::dotProductWeights(f));
  });
}

}  // namespace nw::js
