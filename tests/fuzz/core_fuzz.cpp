// libFuzzer target over the core's entry points: any input must give either nw::Error or results that
// keep the invariants below; anything else (a crash, a sanitizer report, a broken invariant) is a finding.
//
// Input: byte 0 = number of queries, byte 1 = number of keys (each 1..32), byte 2 = flags (bit 0 set:
// numbers are raw IEEE bits, so NaN, infinities and subnormals; clear: small "typical" values; bit 1: the
// local-linear estimator for training and selection; bit 2: select by the AIC too (with bit 5); bit 3:
// the halved loss; bit 4: leave-one-out off; bit 5: also select a bandwidth; bit 6: typical values times
// 10^(-300..300), so they span many orders of magnitude; bit 7: keys in clusters, for multimodal data),
// byte 3 = the kernel, then the numbers: w, lr, the queries, the keys, the values. Missing bytes read as 0.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "nw/aic.hpp"
#include "nw/attention.hpp"
#include "nw/bandwidth.hpp"
#include "nw/binned.hpp"
#include "nw/error.hpp"
#include "nw/local_linear.hpp"
#include "nw/scoring.hpp"
#include "nw/training.hpp"

namespace {

class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  std::uint8_t byte() { return position_ < size_ ? data_[position_++] : 0; }

  // A typical number times 10^e, e in [-300, 300] from two more bytes.
  double spanning() {
    const double typical = number(false);
    const int exponent = static_cast<int>((byte() | (byte() << 8)) % 601) - 300;
    return typical * std::pow(10.0, exponent);
  }

  double number(bool raw) {
    if (raw) {
      std::uint64_t bits = 0;
      for (int i = 0; i < 8; ++i) bits |= static_cast<std::uint64_t>(byte()) << (8 * i);
      double value;
      std::memcpy(&value, &bits, sizeof value);
      return value;
    }
    // A 16-bit integer times a power of ten from 1e-4 to 1e3: dense near the chapter's scale.
    const auto mantissa = static_cast<std::int16_t>(byte() | (byte() << 8));
    return mantissa * std::pow(10.0, static_cast<int>(byte() % 8) - 4);
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t position_ = 0;
};

[[noreturn]] void broken(const char* invariant) {
  std::fprintf(stderr, "invariant broken: %s\n", invariant);
  std::abort();
}

void check(bool ok, const char* invariant) {
  if (!ok) broken(invariant);
}

// A refusal is in data as well as in words: a code other than internal (a bug), and the parameter it
// names, which its message names too.
void checkRefusal(const nw::Error& e) {
  check(e.code() != nw::ErrorCode::internal, "a refusal has a code other than internal");
  check(!e.parameter().empty(), "a refusal names a parameter");
  check(std::string(e.what()).find(e.parameter()) != std::string::npos, "a refusal's message names its parameter");
}

bool allFinite(const std::vector<double>& v) {
  return std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); });
}

void checkWeights(const std::vector<double>& queries, const std::vector<double>& keys, double w, nw::Kernel kernel) {
  const bool valid = allFinite(queries) && allFinite(keys) && std::isfinite(w);
  try {
    const nw::Matrix m = nw::attentionWeights(queries, keys, w, kernel);
    check(valid, "attentionWeights accepted a non-finite input");
    for (std::size_t r = 0; r < m.rows; ++r) {
      double sum = 0.0;
      for (std::size_t c = 0; c < m.cols; ++c) {
        const double a = m.data[r * m.cols + c];
        check(std::isfinite(a) && a >= 0.0, "weights are finite and nonnegative");
        sum += a;
      }
      check(std::fabs(sum - 1.0) <= 1e-12, "each row of weights sums to 1 within 1e-12");
    }
  } catch (const nw::Error& e) {
    checkRefusal(e);
    check(!valid, "attentionWeights rejected valid finite input");
  }
}

void checkPredictions(const std::vector<double>& queries, const std::vector<double>& keys,
                      const std::vector<double>& values, double w, nw::Kernel kernel) {
  const bool valid = allFinite(queries) && allFinite(keys) && allFinite(values) && std::isfinite(w);
  try {
    const auto predicted = nw::predict(queries, keys, values, w, kernel);
    check(valid, "predict accepted a non-finite input");
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    for (double p : predicted) {
      check(std::isfinite(p), "predictions are finite");
      check(p >= *lo && p <= *hi, "predictions lie within [min(values), max(values)]");
    }
  } catch (const nw::Error& e) {
    checkRefusal(e);
    check(!valid, "predict rejected valid finite input");
  }
}

// The pairs sorted by x, ties in their order: what selectBandwidth searches when x is not sorted.
struct SortedPairs {
  std::vector<double> x, y;
};

SortedPairs sortedPairs(const std::vector<double>& x, const std::vector<double>& y) {
  std::vector<std::size_t> order(x.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return x[a] < x[b]; });
  SortedPairs out;
  for (std::size_t i : order) {
    out.x.push_back(x[i]);
    out.y.push_back(y[i]);
  }
  return out;
}

// The Gaussian Nadaraya-Watson prediction at q in long double (weights relative to the nearest key's,
// values to the middle of their range).
long double referencePrediction(double q, const std::vector<double>& keys, const std::vector<double>& values, double w) {
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  const long double offset = 0.5L * *lo + 0.5L * *hi;
  long double nearest = INFINITY, weightSum = 0, weighted = 0;
  for (double k : keys) nearest = std::min(nearest, ((static_cast<long double>(q) - k) * w) * ((static_cast<long double>(q) - k) * w));
  for (std::size_t j = 0; j < keys.size(); ++j) {
    const long double u = (static_cast<long double>(q) - keys[j]) * w;
    const long double weight = std::exp(-(u * u - nearest) / 2);
    weightSum += weight;
    weighted += weight * (values[j] - offset);
  }
  return weighted / weightSum + offset;
}

// Blocks from binned sums over sorted keys (valid input, a small grid as checkBinned's): each block's
// weight within its bound of attentionBlocks', each prediction within the values' range and its bound of
// the long-double reference; refused only for invalid input.
void checkBinnedBlocks(const std::vector<double>& queries, const std::vector<double>& sortedKeys,
                       const std::vector<double>& values, double w, std::size_t maxRows, std::size_t maxCols) {
  const bool valid = allFinite(queries) && allFinite(values) && std::isfinite(w) && w != 0.0;
  if (valid) {
    const auto [qLo, qHi] = std::minmax_element(queries.begin(), queries.end());
    const double span = std::max(sortedKeys.back(), *qHi) - std::min(sortedKeys.front(), *qLo);
    if (!(span * std::fabs(w) <= 20.0)) return;
  }
  try {
    const nw::BinnedBlocks b = nw::binnedAttentionBlocks(queries, sortedKeys, values, w, maxRows, maxCols);
    check(valid, "binnedAttentionBlocks accepted an invalid input");
    const nw::BlockWeights exact = nw::attentionBlocks(queries, sortedKeys, values, w, nw::Kernel::gaussian, maxRows, maxCols);
    for (std::size_t k = 0; k < exact.weight.size(); ++k) {
      check(std::fabs(b.blocks.weight[k] - exact.weight[k]) <= b.weightBounds[k], "binned blocks are within their bounds of attentionBlocks'");
    }
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    for (std::size_t i = 0; i < queries.size(); ++i) {
      check(b.blocks.predictions[i] >= *lo && b.blocks.predictions[i] <= *hi, "binned blocks' predictions lie within [min(values), max(values)]");
      const long double reference = referencePrediction(queries[i], sortedKeys, values, w);
      check(std::fabs(b.blocks.predictions[i] - reference) <= b.predictionBounds[i] || (b.predictionBounds[i] == 0.0 && b.blocks.predictions[i] == exact.predictions[i]),
            "binned blocks' predictions are within their bounds (or are attentionBlocks' own)");
    }
  } catch (const nw::Error& e) {
    checkRefusal(e);
    check(!valid, "binnedAttentionBlocks rejected valid input");
  }
}

// Binned predictions: refused only for invalid input; each within the values' range and within its bound
// of a long-double reference (weights relative to the nearest key's, values to the middle of their
// range). Only where the grid is small (span * |w| <= 20: at most 10^4 points), so each input stays fast.
// Linear binning as binnedPredict does it, and cubic binning (binnedGaussianSums' cubic) on a coarse grid
// (spacing 0.25, or 0.01 for an even count of queries), where its bound matters.
void checkBinned(const std::vector<double>& queries, const std::vector<double>& keys, const std::vector<double>& values,
                 double w) {
  const bool valid = allFinite(queries) && allFinite(keys) && allFinite(values) && std::isfinite(w) && w != 0.0;
  if (valid) {
    const auto [kLo, kHi] = std::minmax_element(keys.begin(), keys.end());
    const auto [qLo, qHi] = std::minmax_element(queries.begin(), queries.end());
    const double span = std::max(*kHi, *qHi) - std::min(*kLo, *qLo);
    if (!(span * std::fabs(w) <= 20.0)) return;
  }
  try {
    for (bool cubic : {false, true}) {
      const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
      const nw::BinnedPrediction p =
          cubic ? nw::binnedPredictFrom(nw::binnedGaussianSums(keys, values, queries, w, false, queries.size() % 2 ? 0.25 : 0.01, true), *lo, *hi)
                : nw::binnedPredict(keys, values, queries, w);
      check(valid, "binnedPredict accepted an invalid input");
      for (std::size_t i = 0; i < queries.size(); ++i) {
        check(p.predictions[i] >= *lo && p.predictions[i] <= *hi, "binned predictions lie within [min(values), max(values)]");
        check(p.bounds[i] >= 0.0, "binned bounds are >= 0 (or Infinity)");
        const long double exact = referencePrediction(queries[i], keys, values, w);
        if (!(std::fabs(p.predictions[i] - exact) <= p.bounds[i])) {
          std::fprintf(stderr, "cubic %d w %.17g query %.17g: binned %.17g bound %.17g exact %.17Lg\n", cubic, w, queries[i], p.predictions[i],
                       p.bounds[i], exact);
          for (std::size_t j = 0; j < keys.size(); ++j) std::fprintf(stderr, "  key %.17g value %.17g\n", keys[j], values[j]);
        }
        check(std::fabs(p.predictions[i] - exact) <= p.bounds[i], "binned predictions are within their bounds of the exact ones");
      }
    }
  } catch (const nw::Error& e) {
    checkRefusal(e);
    check(!valid, "binnedPredict rejected valid input");
  }
}

// Local-linear predictions: finite; a flagged row has predict's value bit for bit; any other row lies
// within 1e5 times the values' spread of them (kSingularDesign's bound, with a margin for rounding) and,
// for typical inputs far from singular, agrees with a direct long-double weighted least-squares fit.
void checkLocalLinear(const std::vector<double>& queries, const std::vector<double>& keys,
                      const std::vector<double>& values, double w, nw::Kernel kernel, bool typical) {
  const bool valid = allFinite(queries) && allFinite(keys) && allFinite(values) && std::isfinite(w);
  try {
    const nw::LocalLinearFit fit = nw::localLinear(queries, keys, values, w, kernel);
    check(valid, "localLinear accepted a non-finite input");
    const std::vector<double> nadarayaWatson = nw::predict(queries, keys, values, w, kernel);
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    // The bound, plus rounding: some ulps of the largest |value| (equal values give a line an ulp off).
    const long double margin = 1.01e5L * (static_cast<long double>(*hi) - *lo) + 1e-13L * std::max(std::fabs(*lo), std::fabs(*hi));
    for (std::size_t q = 0; q < queries.size(); ++q) {
      const double p = fit.predictions[q];
      check(std::isfinite(p), "local-linear predictions are finite");
      if (fit.fallbackRows[q]) {
        check(p == nadarayaWatson[q], "a local-linear fallback row is predict's value");
        continue;
      }
      check(p >= *lo - margin && p <= *hi + margin, "a local line stays within 1e5 spreads of the values");
      if (!typical) continue;
      long double s0 = 0, s1 = 0, s2 = 0, t0 = 0, t1 = 0, largestK = 0;
      for (std::size_t i = 0; i < keys.size(); ++i) {
        const long double d = static_cast<long double>(keys[i]) - queries[q];
        const long double k = nw::kernelValue(kernel, static_cast<double>(d * w));
        s0 += k, s1 += k * d, s2 += k * d * d, t0 += k * values[i], t1 += k * d * values[i];
        largestK = std::max(largestK, k);
      }
      const long double det = s0 * s2 - s1 * s1;
      // Far from singular, and no weight that counts lost to subnormals (the core shifts the Gaussian's).
      if (!(det > 1e-6L * s0 * s2) || largestK < 1e-200L) continue;
      const long double a = (s2 * t0 - s1 * t1) / det;
      check(std::fabs(p - a) <= 1e-8L * (std::fabs(a) + margin), "a local line agrees with a direct fit");
    }
  } catch (const nw::Error& e) {
    checkRefusal(e);
    check(!valid, "localLinear rejected valid finite input");
  }
}

// attentionBlocks against the full matrix: each block names a cell inside it whose exact weight it
// holds, no cell of the block is larger (beyond the vector exp's last bit, or a subnormal's), and the predictions
// are predict's.
void checkBlocks(const std::vector<double>& queries, const std::vector<double>& keys, const std::vector<double>& values,
                 double w, nw::Kernel kernel, std::size_t maxRows, std::size_t maxCols) {
  const bool valid = allFinite(queries) && allFinite(keys) && allFinite(values) && std::isfinite(w);
  try {
    const nw::BlockWeights b = nw::attentionBlocks(queries, keys, values, w, kernel, maxRows, maxCols);
    check(valid, "attentionBlocks accepted a non-finite input");
    const nw::Matrix m = nw::attentionWeights(queries, keys, w, kernel);
    check(b.fallbackRows == m.fallbackRows, "blocks and matrix agree on fallback rows");
    check(b.predictions == nw::predict(queries, keys, values, w, kernel), "the blocks' predictions are predict's");
    for (std::size_t block = 0; block < b.weight.size(); ++block) {
      const std::size_t br = block / b.blockCols, bc = block % b.blockCols;
      check(b.row[block] / b.rowStep == br && b.col[block] / b.colStep == bc, "a block's cell lies inside it");
      check(m.data[b.row[block] * m.cols + b.col[block]] == b.weight[block], "a block holds its cell's exact weight");
      for (std::size_t r = br * b.rowStep; r < std::min(m.rows, (br + 1) * b.rowStep); ++r) {
        for (std::size_t c = bc * b.colStep; c < std::min(m.cols, (bc + 1) * b.colStep); ++c) {
          check(m.data[r * m.cols + c] <= b.weight[block] * (1.0 + 1e-15) + 1e-300, "a block holds its largest weight");
        }
      }
    }
  } catch (const nw::Error& e) {
    checkRefusal(e);
    check(!valid, "attentionBlocks rejected valid finite input");
  }
}

// sum_i alpha_i |v_i| in long double: the scale of a prediction's rounding. For the Gaussian kernel
// also from exact (long double) weights, which a weight rounded to 0 in doubles does not hide.
long double absoluteScale(double query, const std::vector<double>& keys, const std::vector<double>& values,
                          const double* weights, double w, nw::Kernel kernel) {
  long double fromWeights = 0;
  for (std::size_t i = 0; i < keys.size(); ++i) fromWeights += static_cast<long double>(weights[i]) * std::fabs(values[i]);
  if (kernel != nw::Kernel::gaussian) return fromWeights;
  long double best = INFINITY;
  for (double k : keys) best = std::fmin(best, std::fabs(static_cast<long double>(query) - k));
  long double z = 0, acc = 0;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const long double d = std::fabs(static_cast<long double>(query) - keys[i]);
    const long double e = std::exp(-((d - best) * w) * ((d + best) * w) / 2);
    z += e;
    acc += e * std::fabs(values[i]);
  }
  return std::fmax(fromWeights, acc / z);
}

// |a - b| within 1e-12 of sum alpha |v| (plus a few steps of the smallest double, the result's own grain).
bool close(double a, double b, long double scale) {
  return std::fabs(static_cast<long double>(a) - b) <= 1e-12L * scale + 8 * 0x1p-1074L;
}

// Sorted keys let rows skip keys that do not count (Gaussian: keys whose weight x |value| is below 2^-60 of
// the row's; compact kernels: outside the support); the same keys reversed (unsorted) are summed in full.
// Both must agree to 1e-12 of sum alpha |v|, whatever the values' magnitudes; so must the same row scaled
// by a power of two (keys near 1e308, or tiny gaps with a huge w), which changes no weight.
void checkWindow(const std::vector<double>& queries, const std::vector<double>& sortedKeys,
                 const std::vector<double>& sortedValues, double w, nw::Kernel kernel) {
  if (!allFinite(queries) || !allFinite(sortedValues) || !std::isfinite(w)) return;
  const std::vector<double> keys(sortedKeys.rbegin(), sortedKeys.rend());
  const std::vector<double> values(sortedValues.rbegin(), sortedValues.rend());
  try {
    const auto windowed = nw::predict(queries, sortedKeys, sortedValues, w, kernel);
    const auto full = nw::predict(queries, keys, values, w, kernel);
    const nw::Matrix m = nw::attentionWeights(queries, sortedKeys, w, kernel);
    std::vector<long double> scales(queries.size());
    for (std::size_t q = 0; q < full.size(); ++q) {
      scales[q] = absoluteScale(queries[q], sortedKeys, sortedValues, m.data.data() + q * m.cols, w, kernel);
      check(close(windowed[q], full[q], scales[q]), "windowed predictions agree with full rows");
    }
    // x 2^e, exactly (no overflow, no bits lost in the subnormals), or false.
    const auto scaleAll = [](const std::vector<double>& v, int e, std::vector<double>& out) {
      out.resize(v.size());
      bool exact = true;
      for (std::size_t i = 0; i < v.size(); ++i) {
        out[i] = std::ldexp(v[i], e);
        exact = exact && std::isfinite(out[i]) && std::ldexp(out[i], -e) == v[i];
      }
      return exact;
    };
    for (int exponent : {990, -1020}) {
      std::vector<double> scaledQueries, scaledKeys, scaledW;
      const bool exact = scaleAll(queries, exponent, scaledQueries) && scaleAll(sortedKeys, exponent, scaledKeys) &&
                         scaleAll({w}, -exponent, scaledW);
      if (!exact) continue;  // some input does not scale exactly (overflow, or bits lost in the subnormals)
      const auto scaled = nw::predict(scaledQueries, scaledKeys, sortedValues, scaledW[0], kernel);
      for (std::size_t q = 0; q < full.size(); ++q) {
        check(close(scaled[q], full[q], scales[q]), "keys scaled by a power of two give the same predictions");
      }
    }
  } catch (const nw::Error& e) {
    checkRefusal(e);
    check(false, "predict rejected finite input");
  }
}

// selectBandwidth's loss is never above looLoss at its grid, at both limits, or at the w of the input.
void checkSelection(const std::vector<double>& x, const std::vector<double>& y, double w, nw::Objective objective,
                    const nw::BandwidthChoice& best) {
  // Each prediction rounds by some ulps of the largest |y|, which shows in a loss made of small residuals
  // of large values: a residual off by delta moves the loss by up to 2 sqrt(n L) delta + n delta^2.
  double largest = 0.0;
  for (double v : y) largest = std::max(largest, std::fabs(v));
  const double n = static_cast<double>(x.size()), delta = 16 * 0x1p-52 * largest;
  const auto notAbove = [&](double loss) {
    return best.loss <= loss * (1 + 1e-12) + 2 * std::sqrt(n * loss) * delta + n * delta * delta + 1e-300;
  };
  check(notAbove(nw::looLoss(x, y, 0.0, objective).loss), "selectBandwidth is never above w = 0");
  const double atInfinity = nw::lossScale(objective.loss) * nw::nearestNeighbourLoss(x, y, objective.leaveOneOut);
  check(notAbove(atInfinity), "selectBandwidth is never above w -> infinity");
  for (double g : nw::bandwidthGrid(x)) check(notAbove(nw::looLoss(x, y, g, objective).loss), "selectBandwidth is never above its grid");
  const double atInput = nw::looLoss(x, y, w, objective).loss;
  if (!notAbove(atInput)) {
    std::fprintf(stderr, "selected w %.17g loss %.17g; input w %.17g loss %.17g; n %zu\n", best.w, best.loss, w, atInput, x.size());
    for (std::size_t i = 0; i < x.size(); ++i) std::fprintf(stderr, "  x %.17g y %.17g\n", x[i], y[i]);
  }
  check(notAbove(atInput), "selectBandwidth is never above the input's w");
  if (best.atLimit == nw::BandwidthLimit::infinity) {
    const SortedPairs sorted = sortedPairs(x, y);
    check(best.w == INFINITY && best.loss == nw::lossScale(objective.loss) * nw::nearestNeighbourLoss(sorted.x, sorted.y, objective.leaveOneOut),
          "the infinite limit is reported as such");
  } else {
    // Bit for bit, on the pairs as selectBandwidth searched them (unsorted keys are searched sorted).
    const SortedPairs sorted = sortedPairs(x, y);
    check(std::isfinite(best.w) && best.loss == nw::looLoss(sorted.x, sorted.y, best.w, objective).loss, "the loss is looLoss at w");
    check((best.atLimit == nw::BandwidthLimit::zero) == (best.w == 0.0), "w = 0 is reported as the zero limit");
  }
}

// The AICc: never NaN, tr(H) within [0, n]; selection by it never above aicLoss at its grid, at w = 0 and
// at the input's w, and (at a finite w) below the pole.
void checkAic(const std::vector<double>& x, const std::vector<double>& y, double w, nw::Objective objective, bool select) {
  const nw::AicResult at = nw::aicLoss(x, y, w, objective.kernel, objective.estimator);
  const double n = static_cast<double>(x.size());
  check(!std::isnan(at.aic) && !std::isnan(at.grad) && at.sigma2 >= 0.0, "the AICc and its gradient are never NaN");
  check(at.trace >= -1e-9 && at.trace <= n * (1 + 1e-9), "tr(H) lies within [0, n]");
  check((at.aic == INFINITY) == !(at.trace < n - 2.0), "the AICc is infinite exactly past the pole");
  if (!select || !nw::isTrainable(objective.kernel) || x.size() < nw::kMinAicPoints) return;
  const nw::BandwidthChoice best = nw::selectBandwidth(x, y, objective, nw::Criterion::aic);
  check(!std::isnan(best.w) && !std::isnan(best.loss), "an AIC bandwidth is a number");
  const auto notAbove = [&](double aic) { return best.loss <= aic || best.loss <= aic + 1e-9 * std::fabs(aic); };
  // On the pairs as selectBandwidth searched them (sorted by x): a fit exact to the last bit in one order
  // (sigma2 = 0, AICc -infinity) need not be in another.
  const SortedPairs sorted = sortedPairs(x, y);
  const auto aicAt = [&](double at) { return nw::aicLoss(sorted.x, sorted.y, at, objective.kernel, objective.estimator).aic; };
  check(notAbove(aicAt(0.0)), "AIC selection is never above w = 0");
  check(notAbove(aicAt(w)), "AIC selection is never above the input's w");
  for (double g : nw::bandwidthGrid(x)) {
    const double atGrid = aicAt(g);
    if (!notAbove(atGrid)) {
      std::fprintf(stderr, "AIC: selected w %.17g aic %.17g; grid w %.17g aic %.17g; n %zu\n", best.w, best.loss, g, atGrid, x.size());
      for (std::size_t i = 0; i < x.size(); ++i) std::fprintf(stderr, "  x %.17g y %.17g\n", x[i], y[i]);
    }
    check(notAbove(atGrid), "AIC selection is never above its grid");
  }
  if (best.atLimit != nw::BandwidthLimit::infinity && best.loss < INFINITY) {
    const nw::AicResult chosen = nw::aicLoss(sorted.x, sorted.y, best.w, objective.kernel, objective.estimator);
    check(chosen.aic == best.loss && chosen.trace < n - 2.0, "the AIC choice is aicLoss at w, below the pole");
  }
}

void checkTraining(const std::vector<double>& x, const std::vector<double>& y, double w, double lr,
                   nw::Objective objective, bool select, bool selectByAic) {
  try {
    const nw::LooResult r = nw::looLoss(x, y, w, objective);
    check(std::isfinite(r.loss) && r.loss >= 0.0, "the leave-one-out loss is finite and nonnegative");
    check(!std::isnan(r.grad), "the gradient is never NaN");
    checkAic(x, y, w, objective, select && selectByAic);
    if (select && nw::isTrainable(objective.kernel)) {
      const nw::BandwidthChoice best = nw::selectBandwidth(x, y, objective);
      check(!std::isnan(best.w) && best.w >= 0.0 && std::isfinite(best.loss), "a selected bandwidth is a number");
      checkSelection(x, y, w, objective, best);
    }
    nw::Trainer trainer(x, y, w, lr, objective);
    try {
      check(std::isfinite(trainer.step()), "a step reports a finite loss");
    } catch (const nw::Error& e) {
      checkRefusal(e);
      check(trainer.w() == w && trainer.epoch() == 0, "a refused step keeps w");
    }
    check(std::isfinite(trainer.w()), "w stays finite");
  } catch (const nw::Error& e) {
    checkRefusal(e);
    // Rejected input (or an untrainable kernel): fine, as long as it is an nw::Error.
  }
}

// The scoring functions (dot product, additive attention with h units from the seed): weights are rows
// of a softmax, predictions lie within the values' range, the loss and its gradient are finite, and a
// refused step keeps the parameters. Anything else must be an nw::Error.
void checkScoring(const std::vector<double>& queries, const std::vector<double>& keys, const std::vector<double>& values,
                  double s, double lr, std::uint8_t choice, bool leaveOneOut) {
  const bool additive = choice & 1;
  try {
    const nw::ScoringParameters p = additive ? nw::initialParameters(nw::Scoring::additive, 1 + choice % 8, choice)
                                             : nw::ScoringParameters{nw::Scoring::dotProduct, {s}};
    const nw::Matrix m = nw::scoringWeights(queries, keys, p);
    const std::vector<double> predicted = nw::scoringPredict(queries, keys, values, p);
    const auto [low, high] = std::minmax_element(values.begin(), values.end());
    for (std::size_t r = 0; r < m.rows; ++r) {
      double sum = 0.0;
      for (std::size_t c = 0; c < m.cols; ++c) {
        const double a = m.data[r * m.cols + c];
        check(a >= 0.0 && a <= 1.0, "a scoring weight is in [0, 1]");
        sum += a;
      }
      check(std::fabs(sum - 1.0) <= 1e-12, "a row of scoring weights sums to 1");
      const double slack = 1e-12 * std::max(std::fabs(*low), std::fabs(*high));
      check(predicted[r] >= *low - slack && predicted[r] <= *high + slack, "a scoring prediction lies within the values");
    }
    // Blocks keep each block's largest weight of the matrix, the same predictions, and each row's peak.
    const nw::ScoringBlocks b = nw::scoringBlocks(queries, keys, values, p, 1 + queries.size() / 3, 1 + keys.size() / 4);
    check(b.predictions == predicted, "scoring blocks predict as scoringPredict");
    for (std::size_t row = 0; row < m.rows; ++row) {
      const double* weights = &m.data[row * m.cols];
      check(weights[b.peaks[row]] == *std::max_element(weights, weights + m.cols), "a scoring row's peak has its largest weight");
      for (std::size_t c = 0; c < m.cols; ++c) {
        check(b.weight[(row / b.rowStep) * b.blockCols + c / b.colStep] >= weights[c], "a scoring block keeps its largest weight");
      }
    }
    for (std::size_t i = 0; i < b.weight.size(); ++i) check(b.weight[i] == m.data[b.row[i] * m.cols + b.col[i]], "a scoring block's weight is its cell's");
    const nw::ScoringLoss r = nw::scoringLooLoss(keys, values, p, leaveOneOut);
    check(std::isfinite(r.loss) && r.loss >= 0.0, "the scoring loss is finite and nonnegative");
    for (double g : r.grad) check(std::isfinite(g), "a scoring gradient is finite (or refused)");
    if (p.scoring != nw::Scoring::gaussian) {
      // The same sums a range of rows at a time, split where the input says, are the loss bit for bit.
      nw::ScoringLoss sums{0.0, std::vector<double>(p.values.size())};
      const std::size_t split = (choice >> 2) % (keys.size() + 1);
      nw::addScoringLooRows(keys, values, p, leaveOneOut, 0, split, sums);
      nw::addScoringLooRows(keys, values, p, leaveOneOut, split, keys.size(), sums);
      const nw::ScoringLoss parts = nw::finishScoringLoss(sums, p, nw::Loss::squared);
      check(parts.loss == r.loss && parts.grad == r.grad, "scoring rows in two ranges sum to the loss bit for bit");
    }
    nw::TrainerSetup setup;
    setup.initial = p;
    setup.lr = lr;
    setup.optimizer = choice & 2 ? nw::Optimizer::adam : nw::Optimizer::sgd;
    setup.objective.leaveOneOut = leaveOneOut;
    nw::Trainer trainer(keys, values, setup);
    try {
      check(std::isfinite(trainer.step()), "a scoring step reports a finite loss");
    } catch (const nw::Error& e) {
      checkRefusal(e);
      check(trainer.parameters().values == p.values && trainer.epoch() == 0, "a refused step keeps the parameters");
    }
    for (double value : trainer.parameters().values) check(std::isfinite(value), "scoring parameters stay finite");
  } catch (const nw::Error& e) {
    checkRefusal(e);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Reader in(data, size);
  const std::size_t nQueries = 1 + in.byte() % 32;
  const std::size_t nKeys = 1 + in.byte() % 32;
  const std::uint8_t flags = in.byte();
  const bool raw = flags & 1;
  const nw::Objective objective{nw::allKernels()[in.byte() % nw::allKernels().size()], !(flags & 0x10),
                                (flags & 0x08) ? nw::Loss::halfSquared : nw::Loss::squared,
                                (flags & 0x02) ? nw::Estimator::localLinear : nw::Estimator::nadarayaWatson};
  const double w = in.number(raw);
  const double lr = std::fabs(in.number(raw));
  std::vector<double> queries(nQueries), keys(nKeys), values(nKeys);
  for (double& q : queries) q = in.number(raw);
  for (double& k : keys) k = in.number(raw);
  if (flags & 0x80) {  // three clusters: multimodal data for selectBandwidth
    for (std::size_t i = 0; i < nKeys; ++i) keys[i] += 1000.0 * static_cast<double>(i % 3);
  }
  for (double& v : values) v = (flags & 0x40) && !raw ? in.spanning() : in.number(raw);

  checkWeights(queries, keys, w, objective.kernel);
  checkPredictions(queries, keys, values, w, objective.kernel);
  checkLocalLinear(queries, keys, values, w, objective.kernel, !raw && !(flags & 0x40));
  checkBinned(queries, keys, values, w);
  checkTraining(keys, values, w, lr, objective, flags & 0x20, flags & 0x04);
  checkScoring(queries, keys, values, w, lr, in.byte(), objective.leaveOneOut);
  // Blocks over the keys as given (nearest keys found by scanning) and sorted (found by bisection).
  checkBlocks(queries, keys, values, w, objective.kernel, 1 + nQueries / 3, 1 + nKeys / 4);
  if (allFinite(keys)) {
    std::vector<std::size_t> order(nKeys);
    for (std::size_t i = 0; i < nKeys; ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
    std::vector<double> sortedKeys(nKeys), sortedValues(nKeys);
    for (std::size_t i = 0; i < nKeys; ++i) {
      sortedKeys[i] = keys[order[i]];
      sortedValues[i] = values[order[i]];
    }
    checkBlocks(queries, sortedKeys, sortedValues, w, objective.kernel, 1 + nQueries / 3, 1 + nKeys / 4);
    checkBinnedBlocks(queries, sortedKeys, sortedValues, w, 1 + nQueries / 3, 1 + nKeys / 4);
    checkWindow(queries, sortedKeys, sortedValues, w, objective.kernel);
  }
  return 0;
}
