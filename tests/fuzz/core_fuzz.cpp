// libFuzzer target over the core's entry points: any input must give either nw::Error or results that
// keep the invariants below; anything else (a crash, a sanitizer report, a broken invariant) is a finding.
//
// Input: byte 0 = number of queries, byte 1 = number of keys (each 1..32), byte 2 = flags (bit 0 set:
// numbers are raw IEEE bits, so NaN, infinities and subnormals; clear: small "typical" values; bit 4:
// leave-one-out off; bit 5: also select a bandwidth), byte 3 = the kernel, then the numbers: w, lr,
// the queries, the keys, the values. Missing bytes read as 0.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "nw/attention.hpp"
#include "nw/bandwidth.hpp"
#include "nw/error.hpp"
#include "nw/training.hpp"

namespace {

class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  std::uint8_t byte() { return position_ < size_ ? data_[position_++] : 0; }

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
  } catch (const nw::Error&) {
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
  } catch (const nw::Error&) {
    check(!valid, "predict rejected valid finite input");
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
  } catch (const nw::Error&) {
    check(!valid, "attentionBlocks rejected valid finite input");
  }
}

// Sorted keys let rows skip keys that do not count (Gaussian: below 2^-60 / n of the nearest key's
// weight; compact kernels: outside the support); the same keys reversed (unsorted) are summed in full.
// Both must agree to 1e-12 of the largest value.
void checkWindow(const std::vector<double>& queries, const std::vector<double>& sortedKeys,
                 const std::vector<double>& sortedValues, double w, nw::Kernel kernel) {
  if (!allFinite(queries) || !allFinite(sortedValues) || !std::isfinite(w)) return;
  const std::vector<double> keys(sortedKeys.rbegin(), sortedKeys.rend());
  const std::vector<double> values(sortedValues.rbegin(), sortedValues.rend());
  double largest = 0.0;
  for (double v : values) largest = std::max(largest, std::fabs(v));
  try {
    const auto windowed = nw::predict(queries, sortedKeys, sortedValues, w, kernel);
    const auto full = nw::predict(queries, keys, values, w, kernel);
    for (std::size_t q = 0; q < full.size(); ++q) {
      check(std::fabs(windowed[q] - full[q]) <= 1e-12 * largest, "windowed predictions agree with full rows");
    }
  } catch (const nw::Error&) {
    check(false, "predict rejected finite input");
  }
}

void checkTraining(const std::vector<double>& x, const std::vector<double>& y, double w, double lr,
                   nw::Objective objective, bool select) {
  try {
    const nw::LooResult r = nw::looLoss(x, y, w, objective);
    check(std::isfinite(r.loss) && r.loss >= 0.0, "the leave-one-out loss is finite and nonnegative");
    check(!std::isnan(r.grad), "the gradient is never NaN");
    if (select && nw::isTrainable(objective.kernel)) {
      const nw::BandwidthChoice best = nw::selectBandwidth(x, y, objective);
      check(std::isfinite(best.w) && best.w >= 0.0 && std::isfinite(best.loss), "a selected bandwidth is finite");
    }
    nw::Trainer trainer(x, y, w, lr, objective);
    try {
      check(std::isfinite(trainer.step()), "a step reports a finite loss");
    } catch (const nw::Error&) {
      check(trainer.w() == w && trainer.epoch() == 0, "a refused step keeps w");
    }
    check(std::isfinite(trainer.w()), "w stays finite");
  } catch (const nw::Error&) {
    // Rejected input (or an untrainable kernel): fine, as long as it is an nw::Error.
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Reader in(data, size);
  const std::size_t nQueries = 1 + in.byte() % 32;
  const std::size_t nKeys = 1 + in.byte() % 32;
  const std::uint8_t flags = in.byte();
  const bool raw = flags & 1;
  const nw::Objective objective{nw::allKernels()[in.byte() % nw::allKernels().size()], !(flags & 0x10)};
  const double w = in.number(raw);
  const double lr = std::fabs(in.number(raw));
  std::vector<double> queries(nQueries), keys(nKeys), values(nKeys);
  for (double& q : queries) q = in.number(raw);
  for (double& k : keys) k = in.number(raw);
  for (double& v : values) v = in.number(raw);

  checkWeights(queries, keys, w, objective.kernel);
  checkPredictions(queries, keys, values, w, objective.kernel);
  checkTraining(keys, values, w, lr, objective, flags & 0x20);
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
    checkWindow(queries, sortedKeys, sortedValues, w, objective.kernel);
  }
  return 0;
}
