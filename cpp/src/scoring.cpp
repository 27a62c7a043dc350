// Scoring functions, their softmax attention and the leave-one-out loss with its analytic gradient.
//
// For a row (query q_j) with keys k_i (i != j when leaving one out), a_i = a(q_j, k_i), weights
// alpha_i = exp(a_i - max a) / Z and prediction f = sum_i alpha_i y_i. Since df/da_i = alpha_i (y_i - f),
// the row's loss (f - y_j)^2 has d/dtheta = 2 (f - y_j) sum_i alpha_i (y_i - f) da_i/dtheta.
#include "nw/scoring.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "nw/error.hpp"
#include "nw/portable_math.hpp"
#include "nw/random.hpp"
#include "nw/training.hpp"
#include "nw/validate.hpp"

namespace nw {

std::size_t parameterCount(Scoring scoring, int hidden) {
  return scoring == Scoring::additive ? 4 * static_cast<std::size_t>(hidden) : 1;
}

ScoringParameters initialParameters(Scoring scoring, int hidden, std::uint64_t seed, double w0, double s0) {
  switch (scoring) {
    case Scoring::gaussian:
      requireFinite(w0, "w0");
      return {scoring, {w0}};
    case Scoring::dotProduct:
      requireFinite(s0, "s0");
      return {scoring, {s0}};
    case Scoring::additive:
      break;
  }
  if (hidden < kMinHidden || hidden > kMaxHidden) throw countError("hidden", kMinHidden, kMaxHidden, hidden);
  const std::size_t h = static_cast<std::size_t>(hidden);
  ScoringParameters p{scoring, std::vector<double>(4 * h)};
  Random random(seed);
  const double vBound = 1.0 / std::sqrt(static_cast<double>(h));
  for (std::size_t i = 0; i < 3 * h; ++i) p.values[i] = 2.0 * random.uniform() - 1.0;  // wq, wk, b
  for (std::size_t i = 3 * h; i < 4 * h; ++i) p.values[i] = vBound * (2.0 * random.uniform() - 1.0);
  return p;
}

void requireParameters(const ScoringParameters& p) {
  const std::size_t n = p.values.size();
  const bool additive = p.scoring == Scoring::additive;
  const bool counted = additive ? (n % 4 == 0 && n >= 4 && n <= 4 * static_cast<std::size_t>(kMaxHidden)) : n == 1;
  if (!counted) {
    throw Error(ErrorCode::lengthMismatch, "parameters",
                std::string("parameters of ") + scoringName(p.scoring) + " must be " +
                    (additive ? "wq, wk, b and v of one length h from 1 to 64" : "one number") + ", got " +
                    std::to_string(n) + " values");
  }
  requireFiniteArray(p.values, "parameters");
}

namespace {

// One scoring function's a(q, k) and its gradient. A scorer keeps `cacheSize` numbers per key of a row
// from score() for addGradient() (additive attention's tanh values: one tanh per pair and unit).
class DotProduct {
 public:
  explicit DotProduct(const ScoringParameters& p) : s_(p.values[0]) {}
  std::size_t cacheSize() const { return 0; }
  double score(double q, double k, double* /*cache*/) const { return s_ * q * k; }
  // grad += c da/dtheta, with da/ds = q k.
  void addGradient(double q, double k, double c, const double* /*cache*/, double* grad) const { grad[0] += c * q * k; }

 private:
  double s_;
};

class Additive {
 public:
  explicit Additive(const ScoringParameters& p)
      : h_(p.hidden()), wq_(p.values.data()), wk_(wq_ + h_), b_(wk_ + h_), v_(b_ + h_) {}
  std::size_t cacheSize() const { return h_; }

  // a = sum_m v_m t_m, t_m = tanh(wq_m q + wk_m k + b_m), kept in cache.
  double score(double q, double k, double* cache) const {
    double a = 0.0;
    for (std::size_t m = 0; m < h_; ++m) {
      cache[m] = std::tanh(wq_[m] * q + wk_[m] * k + b_[m]);
      a += v_[m] * cache[m];
    }
    return a;
  }

  // da/dv_m = t_m, da/dwq_m = v_m (1 - t_m^2) q, da/dwk_m = v_m (1 - t_m^2) k, da/db_m = v_m (1 - t_m^2).
  void addGradient(double q, double k, double c, const double* cache, double* grad) const {
    double* gq = grad;
    double* gk = grad + h_;
    double* gb = grad + 2 * h_;
    double* gv = grad + 3 * h_;
    for (std::size_t m = 0; m < h_; ++m) {
      const double t = cache[m];
      const double d = c * v_[m] * (1.0 - t * t);
      gq[m] += d * q;
      gk[m] += d * k;
      gb[m] += d;
      gv[m] += c * t;
    }
  }

 private:
  std::size_t h_;
  const double *wq_, *wk_, *b_, *v_;
};

[[noreturn]] void scoreOverflow(const ScoringParameters& p) {
  throw Error(ErrorCode::notFinite, "parameters",
              std::string("parameters: a score of ") + scoringName(p.scoring) +
                  " is not finite for these inputs (the scale times query times key overflows); use smaller parameters or inputs");
}

// Fills weights[i] (i over keys, skipping `skip`) with the row's softmax of a(q, k_i), weights[skip] = 0,
// and cache with the scorer's numbers for each key (cacheSize() per key).
template <class Scorer>
void softmaxRow(const Scorer& scorer, const ScoringParameters& p, double q, const std::vector<double>& keys,
                std::size_t skip, double* weights, double* cache) {
  const std::size_t n = keys.size();
  const std::size_t perKey = scorer.cacheSize();
  double top = -INFINITY;
  for (std::size_t i = 0; i < n; ++i) {
    if (i == skip) continue;
    const double a = scorer.score(q, keys[i], cache + i * perKey);
    if (!std::isfinite(a)) scoreOverflow(p);
    weights[i] = a;
    top = std::max(top, a);
  }
  double z = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    if (i == skip) continue;
    weights[i] = portable::exp(weights[i] - top);
    z += weights[i];
  }
  for (std::size_t i = 0; i < n; ++i) weights[i] = i == skip ? 0.0 : weights[i] / z;
}

// Adds rows [rowBegin, rowEnd) of the loss and its gradient on to sums (row by row, pair by pair: ranges
// added in order give the sums of one pass over every row, bit for bit).
template <class Scorer>
void addLooRows(const Scorer& scorer, const std::vector<double>& x, const std::vector<double>& y, const ScoringParameters& p,
                bool leaveOneOut, std::size_t rowBegin, std::size_t rowEnd, ScoringLoss& sums) {
  const std::size_t n = x.size();
  const std::size_t perKey = scorer.cacheSize();
  std::vector<double> alpha(n), cache(n * perKey);
  for (std::size_t j = rowBegin; j < rowEnd; ++j) {
    const std::size_t skip = leaveOneOut ? j : n;
    softmaxRow(scorer, p, x[j], x, skip, alpha.data(), cache.data());
    double f = 0.0;
    for (std::size_t i = 0; i < n; ++i) f += alpha[i] * y[i];
    const double residual = f - y[j];
    sums.loss += residual * residual;
    for (std::size_t i = 0; i < n; ++i) {
      if (i == skip || alpha[i] == 0.0) continue;
      scorer.addGradient(x[j], x[i], 2.0 * residual * alpha[i] * (y[i] - f), cache.data() + i * perKey, sums.grad.data());
    }
  }
}

// fn(scorer) for dotProduct or additive parameters (the gaussian scoring goes through the chapter's
// functions: every caller handles it first).
template <class Fn>
auto withScorer(const ScoringParameters& p, Fn&& fn) {
  if (p.scoring == Scoring::additive) return fn(Additive(p));
  return fn(DotProduct(p));
}

}  // namespace

double score(const ScoringParameters& p, double query, double key) {
  requireParameters(p);
  if (p.scoring == Scoring::gaussian) {
    const double d = (query - key) * p.values[0];
    return -d * d / 2.0;
  }
  std::vector<double> cache(p.hidden());
  return withScorer(p, [&](const auto& scorer) { return scorer.score(query, key, cache.data()); });
}

ScoringLoss scoringLooLoss(const std::vector<double>& x, const std::vector<double>& y, const ScoringParameters& p,
                           bool leaveOneOut, Loss loss) {
  requireParameters(p);
  if (p.scoring == Scoring::gaussian) {
    Objective objective;
    objective.leaveOneOut = leaveOneOut;
    objective.loss = loss;
    const LooResult r = looLoss(x, y, p.values[0], objective);
    return {r.loss, {r.grad}};
  }
  ScoringLoss sums{0.0, std::vector<double>(p.values.size())};
  addScoringLooRows(x, y, p, leaveOneOut, 0, x.size(), sums);
  return finishScoringLoss(std::move(sums), p, loss);
}

void addScoringLooRows(const std::vector<double>& x, const std::vector<double>& y, const ScoringParameters& p,
                       bool leaveOneOut, std::size_t rowBegin, std::size_t rowEnd, ScoringLoss& sums) {
  requireParameters(p);
  if (p.scoring == Scoring::gaussian) {
    throw Error(ErrorCode::notApplicable, "parameters",
                "parameters: the gaussian scoring's rows are looLossRows' (use them for w), not scoring rows");
  }
  requireTrainingSet(x, y);
  if (rowBegin > rowEnd || rowEnd > x.size()) {
    throw Error(ErrorCode::outOfRange, "rowBegin", "rowBegin and rowEnd must satisfy 0 <= rowBegin <= rowEnd <= xTrain.length (" +
                std::to_string(x.size()) + "), got " + std::to_string(rowBegin) + " and " + std::to_string(rowEnd));
  }
  if (sums.grad.size() != p.values.size()) {
    throw Error(ErrorCode::lengthMismatch, "gradSum", "gradSum must have one value per parameter (" + std::to_string(p.values.size()) +
                "), got " + std::to_string(sums.grad.size()));
  }
  requireFiniteArray(sums.grad, "gradSum");
  if (!std::isfinite(sums.loss) || sums.loss < 0.0) {
    throw Error(ErrorCode::outOfRange, "lossSum", "lossSum must be a finite sum of squares (at least 0), got " + describeNumber(sums.loss));
  }
  withScorer(p, [&](const auto& scorer) {
    addLooRows(scorer, x, y, p, leaveOneOut, rowBegin, rowEnd, sums);
    return 0;
  });
}

ScoringLoss finishScoringLoss(ScoringLoss sums, const ScoringParameters& p, Loss loss) {
  if (!std::isfinite(sums.loss)) scoreOverflow(p);
  for (double g : sums.grad) {
    if (!std::isfinite(g)) {
      throw Error(ErrorCode::notFinite, "xTrain", std::string("xTrain: the gradient of ") + scoringName(p.scoring) +
                  " overflows the double range for inputs this large; scale xTrain and yTrain down");
    }
  }
  // Halving is exact (see sumLooRows).
  sums.loss *= lossScale(loss);
  for (double& g : sums.grad) g *= lossScale(loss);
  return sums;
}

Matrix scoringWeights(const std::vector<double>& queries, const std::vector<double>& keys, const ScoringParameters& p) {
  requireParameters(p);
  if (p.scoring == Scoring::gaussian) return attentionWeights(queries, keys, p.values[0]);
  requireNonEmptyFiniteArray(queries, "queries");
  requireNonEmptyFiniteArray(keys, "keys");
  requireWeightCells(queries, keys);
  Matrix m{queries.size(), keys.size(), std::vector<double>(queries.size() * keys.size()),
           std::vector<unsigned char>(queries.size())};
  std::vector<double> cache(keys.size() * p.hidden());
  withScorer(p, [&](const auto& scorer) {
    for (std::size_t r = 0; r < queries.size(); ++r) {
      softmaxRow(scorer, p, queries[r], keys, keys.size(), &m.data[r * keys.size()], cache.data());
    }
    return 0;
  });
  return m;
}

std::vector<double> scoringPredict(const std::vector<double>& queries, const std::vector<double>& keys,
                                   const std::vector<double>& values, const ScoringParameters& p) {
  requireParameters(p);
  if (p.scoring == Scoring::gaussian) return predict(queries, keys, values, p.values[0]);
  requirePredictionInputs(queries, keys, values, 1.0);
  std::vector<double> out(queries.size());
  std::vector<double> alpha(keys.size()), cache(keys.size() * p.hidden());
  withScorer(p, [&](const auto& scorer) {
    for (std::size_t r = 0; r < queries.size(); ++r) {
      softmaxRow(scorer, p, queries[r], keys, keys.size(), alpha.data(), cache.data());
      double f = 0.0;
      for (std::size_t i = 0; i < keys.size(); ++i) f += alpha[i] * values[i];
      out[r] = f;
    }
    return 0;
  });
  return out;
}

ScoringBlocks scoringBlocks(const std::vector<double>& queries, const std::vector<double>& keys,
                            const std::vector<double>& values, const ScoringParameters& p, std::size_t maxBlockRows,
                            std::size_t maxBlockCols) {
  requireParameters(p);
  ScoringBlocks out;
  const std::size_t n = keys.size();
  if (p.scoring == Scoring::gaussian) {
    static_cast<BlockWeights&>(out) = attentionBlocks(queries, keys, values, p.values[0], Kernel::gaussian, maxBlockRows, maxBlockCols);
    // The peak from the scores: a key 1 ulp farther can get a weight 1 ulp larger from the vector exp.
    const double w = p.values[0];
    const auto gaussianScore = [w](double q, double k) { return -((q - k) * w) * ((q - k) * w) / 2.0; };
    out.peaks.resize(queries.size());
    for (std::size_t r = 0; r < queries.size(); ++r) {
      std::size_t best = 0;
      for (std::size_t i = 1; i < n; ++i) {
        if (gaussianScore(queries[r], keys[i]) > gaussianScore(queries[r], keys[best])) best = i;
      }
      out.peaks[r] = best;
    }
    return out;
  }
  requirePredictionInputs(queries, keys, values.empty() ? keys : values, 1.0);
  static_cast<BlockWeights&>(out) = emptyBlocks(queries.size(), n, maxBlockRows, maxBlockCols, !values.empty());
  out.peaks.resize(queries.size());
  std::vector<double> alpha(n), cache(n * p.hidden());
  withScorer(p, [&](const auto& scorer) {
    for (std::size_t r = 0; r < queries.size(); ++r) {
      softmaxRow(scorer, p, queries[r], keys, n, alpha.data(), cache.data());
      const std::size_t firstBlock = (r / out.rowStep) * out.blockCols;
      double f = 0.0;
      std::size_t peak = 0;
      for (std::size_t i = 0; i < n; ++i) {
        if (!values.empty()) f += alpha[i] * values[i];
        if (alpha[i] > alpha[peak]) peak = i;
        const std::size_t block = firstBlock + i / out.colStep;
        if (alpha[i] > out.weight[block]) {
          out.weight[block] = alpha[i];
          out.row[block] = r;
          out.col[block] = i;
        }
      }
      if (!values.empty()) out.predictions[r] = f;
      out.peaks[r] = peak;
    }
    return 0;
  });
  return out;
}

Features gaussianFeatures(const std::vector<double>& queries, const std::vector<double>& keys, double w) {
  requireNonEmptyFiniteArray(queries, "queries");
  requireNonEmptyFiniteArray(keys, "keys");
  requireFinite(w, "w");
  const double w2 = w * w;
  Features f{2, std::vector<double>(2 * queries.size()), std::vector<double>(2 * keys.size())};
  for (std::size_t r = 0; r < queries.size(); ++r) {
    f.queries[2 * r] = queries[r];
    f.queries[2 * r + 1] = 1.0;
  }
  for (std::size_t i = 0; i < keys.size(); ++i) {
    f.keys[2 * i] = w2 * keys[i];
    f.keys[2 * i + 1] = -w2 * keys[i] * keys[i] / 2.0;
  }
  return f;
}

Matrix dotProductWeights(const Features& f) {
  requireCount(f.dim, "dim", 1, 64);
  requireNonEmptyFiniteArray(f.queries, "queryFeatures");
  requireNonEmptyFiniteArray(f.keys, "keyFeatures");
  for (const auto& [rows, name] : {std::pair{&f.queries, "queryFeatures"}, std::pair{&f.keys, "keyFeatures"}}) {
    if (rows->size() % f.dim != 0) {
      throw Error(ErrorCode::lengthMismatch, name, std::string(name) + " must hold whole rows of dim = " + std::to_string(f.dim) +
                  " numbers, got " + std::to_string(rows->size()));
    }
  }
  const std::size_t nq = f.queries.size() / f.dim, nk = f.keys.size() / f.dim;
  if (nq > kMaxWeightCells / nk) {
    throw Error(ErrorCode::tooLarge, "queryFeatures", "queries x keys must be at most " + std::to_string(kMaxWeightCells) +
                " cells, got " + std::to_string(nq) + " x " + std::to_string(nk));
  }
  Matrix m{nq, nk, std::vector<double>(nq * nk), std::vector<unsigned char>(nq)};
  for (std::size_t r = 0; r < nq; ++r) {
    double* row = &m.data[r * nk];
    double top = -INFINITY;
    for (std::size_t i = 0; i < nk; ++i) {
      double a = 0.0;
      for (std::size_t d = 0; d < f.dim; ++d) a += f.queries[r * f.dim + d] * f.keys[i * f.dim + d];
      if (!std::isfinite(a)) {
        throw Error(ErrorCode::notFinite, "keyFeatures", "keyFeatures: the dot product of query row " + std::to_string(r) +
                    " and key row " + std::to_string(i) + " is not finite (the features are too large)");
      }
      row[i] = a;
      top = std::max(top, a);
    }
    double z = 0.0;
    for (std::size_t i = 0; i < nk; ++i) z += (row[i] = portable::exp(row[i] - top));
    for (std::size_t i = 0; i < nk; ++i) row[i] /= z;
  }
  return m;
}

}  // namespace nw
