// binnedPredict's and binnedLooLoss's bounds against long-double references, for the inputs an audit
// found them broken on: large offsets, values of any scale, an outlier, a huge w, values beyond 1e100.
// Each case: the error is within its bound, the prediction within the values' range, and the bound
// finite where keys are dense (Infinity only where the weight sum could be 0).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "nw/binned.hpp"
#include "nw/error.hpp"
#include "nw/random.hpp"
#include "nw/training.hpp"

namespace {

// The exact Nadaraya-Watson prediction in long double: weights relative to the nearest key's (so a huge
// w does not underflow them all), values relative to `offset` (so a large offset keeps its digits).
// Keys farther than e^-100 of the nearest key's weight are left out (n e^-100 of the result at most).
long double reference(double query, const std::vector<double>& keys, const std::vector<double>& values, double w,
                      double offset, std::size_t leaveOut = SIZE_MAX) {
  long double nearest = INFINITY;
  for (std::size_t j = 0; j < keys.size(); ++j) {
    if (j == leaveOut) continue;
    const long double u = (static_cast<long double>(query) - keys[j]) * w;
    nearest = std::min(nearest, u * u);
  }
  long double weightSum = 0, weighted = 0;
  for (std::size_t j = 0; j < keys.size(); ++j) {
    if (j == leaveOut) continue;
    const long double u = (static_cast<long double>(query) - keys[j]) * w;
    const long double exponent = (u * u - nearest) / 2;
    if (exponent > 100) continue;
    const long double k = std::exp(-exponent);
    weightSum += k;
    weighted += k * (static_cast<long double>(values[j]) - offset);
  }
  return weighted / weightSum + offset;
}

struct Checked {
  double worstRatio = 0.0;  // the largest error / bound among finite bounds
  std::size_t infinite = 0;
  double largestRelativeBound = 0.0;  // the largest finite bound / the values' range
};

// Every query's error within its bound, and its prediction within the values' range.
Checked check(const std::vector<double>& keys, const std::vector<double>& values, const std::vector<double>& queries,
              double w) {
  const nw::BinnedPrediction p = nw::binnedPredict(keys, values, queries, w);
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  const double offset = 0.5 * *lo + 0.5 * *hi;
  const long double range = static_cast<long double>(*hi) - *lo;
  Checked out;
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const long double error = std::fabs(p.predictions[i] - reference(queries[i], keys, values, w, offset));
    INFO("query " << queries[i] << " w " << w << ": " << p.predictions[i] << " bound " << p.bounds[i] << " error "
                  << static_cast<double>(error));
    REQUIRE(p.predictions[i] >= *lo);
    REQUIRE(p.predictions[i] <= *hi);
    REQUIRE(error <= p.bounds[i]);
    if (std::isinf(p.bounds[i])) {
      ++out.infinite;
    } else {
      out.worstRatio = std::max(out.worstRatio, static_cast<double>(error / p.bounds[i]));
      if (range > 0) out.largestRelativeBound = std::max(out.largestRelativeBound, static_cast<double>(p.bounds[i] / range));
    }
  }
  return out;
}

std::vector<double> uniformKeys(std::size_t n, double span, std::uint64_t seed) {
  nw::Random rng(seed);
  std::vector<double> keys(n);
  for (double& k : keys) k = span * rng.uniform();
  std::sort(keys.begin(), keys.end());
  return keys;
}

// Queries inside the keys' span, where keys are dense.
std::vector<double> denseQueries(const std::vector<double>& keys, std::size_t count) {
  std::vector<double> queries;
  for (std::size_t i = 0; i < count; ++i) queries.push_back(keys[keys.size() / 10 + i * (keys.size() * 8 / 10) / count]);
  return queries;
}

}  // namespace

TEST_CASE("a large offset: the bound covers the final rounding", "[binned][bounds]") {
  // The audit's case: error 0.125 against a bound of 2.9e-7.
  const std::vector<double> keys{0.0, 0.5, 1.0}, values{1e15 + 0.25, 1e15 + 0.5, 1e15 + 0.875};
  const Checked c = check(keys, values, {0.77, 0.0, 0.5, 1.0, 0.1234}, 2.0);
  CHECK(c.infinite == 0);
}

TEST_CASE("200,000 values 1e12 + U(0, 1): every bound holds", "[binned][bounds]") {
  const std::vector<double> keys = uniformKeys(200000, 5.0, 3);
  nw::Random rng(4);
  std::vector<double> values(keys.size());
  for (double& v : values) v = 1e12 + rng.uniform();
  for (double w : {1.0, 20.0}) {
    const Checked c = check(keys, values, denseQueries(keys, 60), w);
    CHECK(c.infinite == 0);
  }
}

TEST_CASE("values scaled by c: the same relative bound for c from 1e-20 to 1e16", "[binned][bounds]") {
  const std::vector<double> keys = uniformKeys(1000, 5.0, 5);
  const std::vector<double> queries = denseQueries(keys, 80);
  double unitBound = 0.0;
  for (double c : {1.0, 1e-20, 1e-5, 3.0, 1e11, 1e16}) {
    std::vector<double> values;
    for (double k : keys) values.push_back(c * std::sin(k));
    INFO("c = " << c);
    const Checked checked = check(keys, values, queries, 1.0);
    CHECK(checked.infinite == 0);  // the audit: Infinity among dense keys from c = 1e11
    if (c == 1.0) unitBound = checked.largestRelativeBound;
    CHECK(checked.largestRelativeBound <= 2.0 * unitBound);
    CHECK(checked.largestRelativeBound >= 0.5 * unitBound);
  }
}

TEST_CASE("one 1e12 outlier among values of size 1: finite bounds on dense keys, within them", "[binned][bounds]") {
  std::vector<double> keys = uniformKeys(1000, 5.0, 6);
  std::vector<double> values;
  for (double k : keys) values.push_back(std::sin(k));
  values[500] = 1e12;
  const Checked c = check(keys, values, denseQueries(keys, 80), 1.0);
  CHECK(c.infinite == 0);  // the audit: Infinity, and an error of 5.7e7
}

TEST_CASE("a huge w: predictions stay within the values, and the bound says when nothing is known", "[binned][bounds]") {
  const std::vector<double> keys{0.0, 1.0}, values{1.0, 2.0};
  for (double w : {1e4, 1e6}) {  // (a grid of 2^20 points: about a second each)
    // The audit: -0.12 at w = 1e4, 2.31 at 1e6.
    const Checked c = check(keys, values, {0.3, 0.0, 1.0, 0.5}, w);
    CHECK(c.worstRatio <= 1.0);
  }
}

TEST_CASE("values of any finite size, named keys and values in errors", "[binned][bounds][validation]") {
  const std::vector<double> keys = uniformKeys(300, 5.0, 7);
  for (double c : {1e200, 1e307, -1e300}) {
    std::vector<double> values;
    for (double k : keys) values.push_back(c * (1.5 + std::sin(k)));
    INFO("c = " << c);
    const Checked checked = check(keys, values, denseQueries(keys, 40), 3.0);
    CHECK(checked.infinite == 0);
  }
  // A subnormal w (every key weighs the same) and a huge span times a huge w: numbers, never NaN.
  check({0.0, 1.0, 2.0}, {1.0, 2.0, 4.0}, {0.5, 3.0}, 5e-324);
  check({0.0, 1e300}, {1.0, 2.0}, {5e299, 1e300}, 1e300);
  std::vector<double> mixed{-1.7e308, 1.7e308, 0.0, 1.0};
  check({0.0, 1.0, 2.0, 3.0}, mixed, {0.5, 1.5, 2.9}, 2.0);
  using Catch::Matchers::Contains;
  using Catch::Matchers::StartsWith;
  CHECK_THROWS_WITH(nw::binnedPredict({0.0, NAN}, {1.0, 2.0}, {0.5}, 1.0), StartsWith("keys"));
  CHECK_THROWS_WITH(nw::binnedPredict({0.0, 1.0}, {1.0, INFINITY}, {0.5}, 1.0), StartsWith("values"));
  CHECK_THROWS_WITH(nw::binnedPredict({0.0, 1.0}, {1.0}, {0.5}, 1.0), Contains("keys") && Contains("values"));
  CHECK_THROWS_WITH(nw::binnedPredict({}, {}, {0.5}, 1.0), StartsWith("keys"));
}

TEST_CASE("random scales, offsets, clumps and outliers: no error above its bound", "[binned][bounds]") {
  nw::Random rng(11);
  std::size_t tight = 0, finite = 0;
  for (int round = 0; round < 40; ++round) {
    const std::size_t n = 2 + static_cast<std::size_t>(rng.uniform() * 400);
    const double scale = std::pow(10.0, -30.0 + 60.0 * rng.uniform());
    const double offset = rng.uniform() < 0.5 ? 0.0 : scale * std::pow(10.0, 12.0 * rng.uniform());
    std::vector<double> keys(n), values(n);
    for (std::size_t j = 0; j < n; ++j) {
      keys[j] = round % 3 == 0 ? (j % 2 ? 1.0 : 3.0) + 0.01 * rng.normal() : 5.0 * rng.uniform();
      values[j] = offset + scale * rng.normal();
    }
    if (round % 4 == 1) keys[0] = 20.0 * rng.uniform();           // a lone far key
    if (round % 5 == 2) values[n / 2] = offset + scale * 1e9;      // an outlier
    const double w = std::pow(10.0, -1.0 + 2.2 * rng.uniform());
    std::vector<double> queries{keys[0], keys[n / 2], keys[n - 1]};
    for (int i = 0; i < 20; ++i) queries.push_back(-1.0 + 7.0 * rng.uniform());
    INFO("round " << round << " n " << n << " scale " << scale << " offset " << offset << " w " << w);
    const Checked c = check(keys, values, queries, w);
    finite += queries.size() - c.infinite;
    if (c.worstRatio > 1e-2) ++tight;
  }
  CHECK(finite > 0);
  CHECK(tight > 0);  // in some rounds an error comes within 100x of its bound
}

// The leave-one-out loss and its gradient written out in long double, each row relative to `offset`.
struct ReferenceLoss {
  long double loss = 0, grad = 0;
};

ReferenceLoss referenceLoss(const std::vector<double>& x, const std::vector<double>& y, double w, double offset) {
  ReferenceLoss out;
  for (std::size_t j = 0; j < x.size(); ++j) {
    long double nearest = INFINITY;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const long double u = (static_cast<long double>(x[j]) - x[i]) * w;
      if (i != j) nearest = std::min(nearest, u * u);
    }
    long double weightSum = 0, weighted = 0, slope = 0, slopeWeighted = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (i == j) continue;
      const long double u = (static_cast<long double>(x[j]) - x[i]) * w;
      const long double k = std::exp(-(u * u - nearest) / 2), v = static_cast<long double>(y[i]) - offset;
      weightSum += k;
      weighted += k * v;
      slope += u * u * k;
      slopeWeighted += u * u * k * v;
    }
    const long double p = weighted / weightSum, r = p - (static_cast<long double>(y[j]) - offset);
    out.loss += r * r;
    out.grad += 2 * r * (-(slopeWeighted - p * slope) / weightSum) / w;  // w dp/dw = -(A - p B) / D
  }
  return out;
}

// The bounds are to the exact loss and gradient, which a large offset does not change; the rows stay
// binned (the residuals are taken in the shifted frame), as they would without the offset.
TEST_CASE("the binned leave-one-out loss and gradient at offsets up to 1e12 are within their bounds", "[binned][bounds]") {
  const std::vector<double> x = uniformKeys(1200, 5.0, 8);
  nw::BinnedLoss withoutOffset[2];
  for (double offset : {0.0, 1e8, 1e12}) {
    std::vector<double> y;
    for (double k : x) y.push_back(offset + std::sin(k));
    for (int at = 0; at < 2; ++at) {
      const double w = at == 0 ? 2.0 : 20.0;
      const nw::BinnedLoss binned = nw::binnedLooLoss(x, y, w, {}, true);
      const ReferenceLoss exact = referenceLoss(x, y, w, offset);
      INFO("offset " << offset << " w " << w << " loss " << binned.loss << " bound " << binned.bound << " reference "
                     << static_cast<double>(exact.loss) << " grad " << binned.grad << " bound " << binned.gradBound
                     << " reference " << static_cast<double>(exact.grad) << " exact rows " << binned.exactRows);
      CHECK(std::fabs(binned.loss - exact.loss) <= binned.bound);
      CHECK(std::fabs(binned.grad - exact.grad) <= binned.gradBound);
      if (offset == 0.0) withoutOffset[at] = binned;
      // As without the offset: the same rows summed exactly (those near the keys' ends at w = 20), and
      // about the same bounds.
      CHECK(binned.exactRows == withoutOffset[at].exactRows);
      CHECK(binned.exactRows < x.size() / 4);
      CHECK(binned.bound <= 1.01 * withoutOffset[at].bound);
      CHECK(binned.gradBound <= 1.01 * withoutOffset[at].gradBound);
    }
  }
}
