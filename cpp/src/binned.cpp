// Binned Gaussian sums: linear (or cubic) binning, one FFT convolution for the sums and one for their error bound.
#include "nw/binned.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "cubic_binning.hpp"
#include "fft.hpp"
#include "gaussian_envelopes.hpp"
#include "gaussian_rows.hpp"
#include "linear_binning.hpp"
#include "nw/error.hpp"
#include "nw/validate.hpp"

namespace nw {

namespace {

using envelopes::gaussian;

constexpr double kEpsilon = std::numeric_limits<double>::epsilon();
// A few of the smallest subnormals: roundings among subnormal numbers, where they are absolute.
constexpr double kTiny = 4.0 * std::numeric_limits<double>::denorm_min();

// The kernel's reach in u, beyond which the n keys' weights together are below 2^-60 of one key's
// (as the exact sums' window, rows::windowExponent).
double reachInU(std::size_t n) { return std::sqrt(rows::windowExponent(n)); }

// x * 2^exponent as std::scalbn gives it (correctly rounded, so one product does it where 2^exponent is a
// normal double, from 2^-1022 to 2^1023), without a call per row.
class TimesPowerOfTwo {
 public:
  explicit TimesPowerOfTwo(int exponent)
      : exponent_(exponent), factor_(std::ldexp(1.0, exponent)), byProduct_(exponent >= -1022 && exponent <= 1023) {}
  double operator()(double x) const { return byProduct_ ? x * factor_ : std::scalbn(x, exponent_); }

 private:
  int exponent_;
  double factor_;
  bool byProduct_;
};

struct Grid {
  double lo = 0.0, spacing = 1.0;  // point k at lo + k spacing
  std::size_t points = 2;
  double s = kBinnedSpacing;  // spacing * |w|
  std::size_t margin = 0;     // cubic binning's: one more grid point beyond either end, point k at lo + (k - 1) spacing
};

Grid gridFor(double lo, double hi, double w, double spacing, bool cubic) {
  Grid grid;
  const double span = hi - lo;
  if (!std::isfinite(span)) {
    throw Error(ErrorCode::outOfRange, "keys", "keys and queries must span less than the largest double for the binned sums, got " + describeNumber(lo) +
                " to " + describeNumber(hi));
  }
  const double absW = std::fabs(w);
  grid.lo = lo;
  grid.spacing = spacing / absW;
  // (A subnormal w: every key weighs the same within the span, one cell.)
  if (!std::isfinite(grid.spacing)) grid.spacing = span > 0.0 ? span : 1.0;
  const std::size_t padding = cubic ? 2 : 0;
  const double wanted = span / grid.spacing;  // may be huge or infinite for huge w
  if (!(wanted < static_cast<double>(kMaxBinnedGrid - 1 - padding))) grid.spacing = span / static_cast<double>(kMaxBinnedGrid - 2 - padding);
  grid.points = std::max<std::size_t>(2, static_cast<std::size_t>(std::ceil(span / grid.spacing)) + 1);
  grid.points = std::min(grid.points, kMaxBinnedGrid - padding);
  // Cubic binning's grid point beyond either end: lo stays the smallest key or query, exactly (lo -
  // spacing would round, and an end key placed below the first cell it may use would be moved by up to a
  // cell, its error first order), and places count from one grid point before it (placeOf).
  if (cubic) grid.points += 2, grid.margin = 1;
  // Beyond 1e100 (a huge span times a huge w) a key weighs nothing one cell away either way: capped so
  // that s^2 and the bounds stay numbers (infinite bounds then say so) rather than NaN.
  grid.s = std::min(grid.spacing * absW, 1e100);
  return grid;
}

double norm1(const std::vector<double>& a) {
  double sum = 0.0;
  for (double v : a) sum += std::fabs(v);
  return sum;
}

double norm2(const std::vector<double>& a) {
  double sum = 0.0;
  for (double v : a) sum += v * v;
  return std::sqrt(sum);
}

struct Convolved {
  std::vector<double> first, second;  // kernel * the two inputs, on the grid
  double rounding = 0.0;              // bound on each value's rounding error
};

// Two grid sequences as one complex sequence (first + i second), transformed once for every kernel they
// are convolved with, with the norms the rounding bound needs.
struct Transformed {
  std::vector<fft::Complex> data;
  std::size_t points;
  double norm1, norm2;
};

Transformed transform(const fft::Plan& plan, const std::vector<double>& first, const std::vector<double>& second) {
  Transformed out{std::vector<fft::Complex>(plan.size()), first.size(), norm1(first) + norm1(second),
                  std::hypot(norm2(first), norm2(second))};
  for (std::size_t k = 0; k < out.points; ++k) out.data[k] = fft::Complex(first[k], second[k]);
  plan.forward(out.data);
  return out;
}

// Convolves both sequences of `input` with one symmetric kernel, whose transform is the real part of
// `kernels` (or with imaginaryPart its imaginary part: two real even kernels transformed as one, whose
// transforms are real): returns both results on the grid and a bound on their rounding error. With
// lastUse, input's transform is taken over (not copied): at 2^21 points each array is 32 MB, and memory
// the wasm heap has not used before costs more to touch than the transform to compute.
Convolved convolve(const fft::Plan& plan, const std::vector<fft::Complex>& kernels, bool imaginaryPart, double kernelNorm1,
                   double kernelNorm2, Transformed& input, bool lastUse) {
  const std::size_t size = plan.size(), points = input.points;
  std::vector<fft::Complex> data = lastUse ? std::move(input.data) : input.data;
  for (std::size_t k = 0; k < size; ++k) data[k] *= imaginaryPart ? kernels[k].imag() : kernels[k].real();
  plan.inverse(data);
  Convolved out;
  out.first.resize(points);
  out.second.resize(points);
  const double scale = 1.0 / static_cast<double>(size);
  for (std::size_t k = 0; k < points; ++k) {
    out.first[k] = data[k].real() * scale;
    out.second[k] = data[k].imag() * scale;
  }
  // The norms of first + i second, as one complex sequence.
  out.rounding = fft::convolutionRoundingBound(size, input.norm1, input.norm2, kernelNorm1, kernelNorm2);
  return out;
}

// The keys binned onto the grid, as the bounds need them: the most terms any one grid point summed, the
// keys' count and the sum of the shifted values' magnitudes; counts with the shifted and scaled values,
// and counts with their magnitudes, transformed (the binned sequences themselves are not kept).
struct Binned {
  std::size_t mostTerms;
  double keyCount, absTotal;
  Transformed values, magnitudes;
};

// A kernel's sums at a query, against the counts and against the values, with their bounds.
struct KernelSumsAt {
  double count, value, countBound, valueBound;
};

// Cubic binning's error per unit of binned weight is at most kCubicErrorFactor s^4 |K''''| near the key
// and the query (fourthDerivativeEnvelope, 4 s around their grid points' offset): the cubic interpolation
// error |(f + 1) f (f - 1) (f - 2)| / 24 <= 9 / 384 times |K''''| s^4, once for the query's interpolation
// of the exact sums, and once for each key's binning, read through weights whose magnitudes add to 1.25.
constexpr double kCubicErrorFactor = 9.0 / 384.0 * 2.25;
// Each grid value's own error is read through those weights too: 1.25 times it.
constexpr double kCubicReadFactor = 1.25;

// A kernel's sums over the binned keys at every grid point, and what their bounds add, so that the sums
// at any query are an interpolation away (at): binnedLooLoss takes each row's there, with no arrays of n
// in between. Linear binning interpolates between the two grid points around the query, cubic binning
// with the cubic through the four around it.
struct KernelGrid {
  Convolved sums, curvature;
  double errorScale = 0.0;  // times the curvature: s^2 / 4 (linear), kCubicErrorFactor s^4 (cubic)
  double countFixed = 0.0, absFixed = 0.0;
  bool cubic = false;

  KernelSumsAt at(const binning::Place& place) const {
    const auto [k, f] = place;
    const double countCurvature = std::max(curvature.first[k], curvature.first[k + 1]) + curvature.rounding;
    const double absCurvature = std::max(curvature.second[k], curvature.second[k + 1]) + curvature.rounding;
    if (!cubic) {
      const double interpolationRounding = 4.0 * kEpsilon;
      return {(1.0 - f) * sums.first[k] + f * sums.first[k + 1], (1.0 - f) * sums.second[k] + f * sums.second[k + 1],
              errorScale * countCurvature + countFixed +
                  interpolationRounding * std::max(std::fabs(sums.first[k]), std::fabs(sums.first[k + 1])),
              errorScale * absCurvature + absFixed +
                  interpolationRounding * std::max(std::fabs(sums.second[k]), std::fabs(sums.second[k + 1]))};
    }
    // (Each weight rounds by 8 eps of itself, the products and the three additions by 4 eps of the
    // magnitudes' sum, at most 1.25 times the largest value read: 16 eps of it.)
    const binning::CubicWeights l = binning::cubicWeights(f);
    double count = 0.0, value = 0.0, largestCount = 0.0, largestValue = 0.0;
    for (std::size_t i = 0; i < 4; ++i) {
      count += l.w[i] * sums.first[k - 1 + i];
      value += l.w[i] * sums.second[k - 1 + i];
      largestCount = std::max(largestCount, std::fabs(sums.first[k - 1 + i]));
      largestValue = std::max(largestValue, std::fabs(sums.second[k - 1 + i]));
    }
    return {count, value, errorScale * countCurvature + countFixed + 16.0 * kEpsilon * largestCount,
            errorScale * absCurvature + absFixed + 16.0 * kEpsilon * largestValue};
  }
};

// The sums of kernel(u) over the binned keys on the grid, kernel even with |kernel'| < 1 and
// envelope(center, margin) >= max |kernel''| over |u| in [center - margin, center + margin] (linear
// binning; cubic binning is for the Gaussian alone, whose fourth derivative's envelope it takes).
// lastUse: the binned transforms are not needed after (convolve).
template <class Kernel, class Envelope>
KernelGrid kernelGrid(const Grid& grid, std::size_t reach, const fft::Plan& plan, Binned& binned, Kernel kernel,
                      Envelope envelope, bool lastUse) {
  const bool cubic = grid.margin > 0;
  // The kernel and the envelope of its second derivative (2 s around each offset: a key's cell and the
  // query's cell), or with cubic binning of its fourth (4 s: the four grid points around the key and
  // those around the query), in one transform.
  const auto envelopeAt = [&](double u) {
    return cubic ? envelopes::fourthDerivativeEnvelope(u, 4.0 * grid.s) : envelope(u, 2.0 * grid.s);
  };
  std::vector<fft::Complex> kernels(plan.size());
  double kernelNorm1 = 0.0, kernelNorm2 = 0.0, envelopeNorm1 = 0.0, envelopeNorm2 = 0.0;
  for (std::size_t d = 0; d <= reach; ++d) {
    const double k = kernel(static_cast<double>(d) * grid.s);
    const double e = envelopeAt(static_cast<double>(d) * grid.s);
    const double copies = d == 0 ? 1.0 : 2.0;
    kernelNorm1 += copies * std::fabs(k);
    kernelNorm2 += copies * k * k;
    envelopeNorm1 += copies * e;
    envelopeNorm2 += copies * e * e;
    kernels[d] = fft::Complex(k, e);
    if (d > 0) kernels[plan.size() - d] = kernels[d];
  }
  // Both are real and even, so their transforms are real: the real part is the kernel's, the imaginary
  // part the envelope's. Each convolution's rounding bound counts both (a conservative norm).
  plan.forward(kernels);
  const double bothNorm1 = kernelNorm1 + envelopeNorm1;
  const double bothNorm2 = std::hypot(std::sqrt(kernelNorm2), std::sqrt(envelopeNorm2));
  KernelGrid out;
  out.cubic = cubic;
  out.sums = convolve(plan, kernels, false, bothNorm1, bothNorm2, binned.values, lastUse);
  out.curvature = convolve(plan, kernels, true, bothNorm1, bothNorm2, binned.magnitudes, lastUse);

  // Per unit of binned weight: the binning error and the interpolation error are each at most
  // s^2 / 8 times |kernel''| near the key (the envelope); the cut-off tail, kernel and envelope both, at
  // most their values at the reach (both decrease beyond it); the rounding of the binned sums (a grid
  // point summing m terms: m eps), of the shifted values (eps), of the kernel's values (2 eps), and of a
  // key's or a query's place on the grid (t = (x - lo) / spacing is off by up to 2 eps t grid points,
  // |kernel'| < 1: 2 eps t s each).
  // Cubic binning: the binning and interpolation errors kCubicErrorFactor s^4 |K''''|; the cut-off
  // kernel's tail read through weights of magnitude 1.25 twice over (the key's binning, the query's
  // interpolation), the envelope's tail as large as |K''''| anywhere beyond the reach less the margin;
  // the binned sums' rounding 1.25 times a linear bin's (a key's weights add to 1.25 at most, each
  // rounding by 8 eps more), read at 1.25; a place moved by dt grid points moves a key's binned kernel
  // by at most 2.5 dt (2 s) (the cubic weights' slopes add to at most 2.5, each times the kernel's change
  // over at most 2 grid points) and the query's interpolated sums by 2.5 dt (2 s) 1.25 per unit: 24 eps t s
  // in all.
  const double s2 = grid.s * grid.s;
  out.errorScale = cubic ? kCubicErrorFactor * std::min(s2 * s2, 1e300) : 0.25 * s2;
  const double reachU = static_cast<double>(reach) * grid.s;
  const double points = static_cast<double>(grid.points), mostTerms = static_cast<double>(binned.mostTerms);
  // (No tail when the kernel spans the whole grid: no offset is cut off.)
  const bool cutOff = reach + 1 < grid.points;
  double tailPerUnit = 0.0, roundingPerUnit = 0.0;
  if (!cubic) {
    tailPerUnit = cutOff ? std::fabs(kernel(reachU)) + 0.25 * s2 * envelope(reachU, 2.0 * grid.s) : 0.0;
    roundingPerUnit = kEpsilon * (mostTerms + 8.0 + 4.0 * points * grid.s);
  } else {
    tailPerUnit = cutOff ? kCubicReadFactor * kCubicReadFactor * std::fabs(kernel(reachU)) +
                               out.errorScale * envelopes::fourthDerivativeBeyond(reachU - 4.0 * grid.s)
                         : 0.0;
    roundingPerUnit = kEpsilon * (kCubicReadFactor * (kCubicReadFactor * (mostTerms + 16.0) + 8.0) + 24.0 * points * grid.s);
  }
  const double sumsRounding = (cubic ? kCubicReadFactor : 1.0) * out.sums.rounding;
  const double countTotal = binned.keyCount, absTotal = binned.absTotal;
  out.countFixed = (tailPerUnit + roundingPerUnit) * countTotal + sumsRounding;
  out.absFixed = (tailPerUnit + roundingPerUnit) * absTotal + sumsRounding;
  return out;
}

void requireKeysAndValues(const std::vector<double>& keys, const std::vector<double>& values) {
  requireNonEmptyFiniteArray(keys, "keys");
  requireNonEmptyFiniteArray(values, "values");
  requireSameLength(keys, "keys", values, "values");
}

void requireBinnedW(double w) {
  requireFinite(w, "w");
  if (w == 0.0) throw Error(ErrorCode::outOfRange, "w", "w must be nonzero for the binned sums (at w = 0 every key weighs the same: use predict), got 0");
}

// The keys binned and convolved with the Gaussian (and with u^2 K for slopes): the sums at any query
// within [lo, hi] an interpolation away. Keys and values as binnedGaussianSums checks them.
struct BinnedGrids {
  binning::Cells cells;
  KernelGrid weights, slopes;  // slopes: empty without them
  double valueLo = 0.0, valueHi = 0.0;  // the values' range
  double shift = 0.0;
  int valueExponent = 0;
};

// Values shifted and scaled as the binning reads them: scale(values[j] - shift).
struct ScaledValues {
  const std::vector<double>& values;
  double shift;
  TimesPowerOfTwo scale;
  double operator[](std::size_t j) const { return scale(values[j] - shift); }
};

// keysSorted: whether keys ascend (their binning then keeps each grid point's sums in registers).
BinnedGrids binnedGrids(const std::vector<double>& keys, bool keysSorted, const std::vector<double>& values, double lo,
                        double hi, double w, bool withSlopes, double spacing, bool cubic) {
  const Grid grid = gridFor(lo, hi, w, spacing, cubic);
  const auto [yLo, yHi] = std::minmax_element(values.begin(), values.end());
  BinnedGrids out;
  out.cells = {grid.lo, grid.spacing, grid.points, grid.margin};
  out.valueLo = *yLo, out.valueHi = *yHi;
  out.shift = 0.5 * *yLo + 0.5 * *yHi;  // (halves first: no overflow)
  // Every kernel is cut off at `reach` offsets, and zero-padded so that the circular convolution does not wrap.
  // (In cells: infinite for a subnormal w's s of 0, so compared as a double first.)
  const double reachCells = std::ceil(reachInU(keys.size()) / grid.s) + 2.0;
  const std::size_t reach = reachCells < static_cast<double>(grid.points - 1) ? static_cast<std::size_t>(reachCells) : grid.points - 1;
  const fft::Plan plan(fft::powerOfTwoAtLeast(grid.points + reach + 1));
  Binned binned{0, static_cast<double>(keys.size()), 0.0, {}, {}};
  {  // (the binned sequences freed once transformed)
    // Values shifted and scaled by a power of two (exactly) so that the largest has magnitude in [1, 2),
    // as the binning reads them (an array of n fewer to write and read: at n = 1,000,000 the binned
    // losses are bound by memory). Rounding is monotonic, so the largest shifted value is an end's.
    const double largest = std::max(std::fabs(*yHi - out.shift), std::fabs(*yLo - out.shift));
    out.valueExponent = largest > 0.0 ? -std::ilogb(largest) : 0;
    const ScaledValues scaled{values, out.shift, TimesPowerOfTwo(out.valueExponent)};

    std::vector<double> counts(grid.points), shifted(grid.points), absShifted(grid.points);
    if (cubic) {
      std::vector<double> linearCounts(grid.points);
      binned.mostTerms = binning::binCubic(out.cells, keys, scaled, {counts, shifted, linearCounts, absShifted});
      binned.values = transform(plan, counts, shifted);
      binned.magnitudes = transform(plan, linearCounts, absShifted);
    } else {
      binned.mostTerms = keysSorted ? binning::binSorted(out.cells, keys, scaled, counts, shifted, absShifted)
                                    : binning::binAny(out.cells, keys, scaled, counts, shifted, absShifted);
      binned.values = transform(plan, counts, shifted);
      binned.magnitudes = transform(plan, counts, absShifted);
    }
    binned.absTotal = norm1(absShifted);
  }
  out.weights = kernelGrid(grid, reach, plan, binned, gaussian, envelopes::secondDerivativeEnvelope, !withSlopes);
  if (withSlopes) {
    out.slopes = kernelGrid(grid, reach, plan, binned, envelopes::slopeKernel, envelopes::slopeSecondDerivativeEnvelope, true);
  }
  return out;
}

}  // namespace

BinnedSums binnedGaussianSums(const std::vector<double>& keys, const std::vector<double>& values,
                              const std::vector<double>& queries, double w, bool withSlopes, double spacing, bool cubic) {
  requireKeysAndValues(keys, values);
  requireNonEmptyFiniteArray(queries, "queries");
  requireBinnedW(w);
  if (withSlopes && cubic) throw Error(ErrorCode::notApplicable, "cubic", "cubic: the binned slope sums have linear binning only");
  const auto [keyLo, keyHi] = std::minmax_element(keys.begin(), keys.end());
  const auto [queryLo, queryHi] = std::minmax_element(queries.begin(), queries.end());
  const BinnedGrids grids = binnedGrids(keys, std::is_sorted(keys.begin(), keys.end()), values, std::min(*keyLo, *queryLo),
                                        std::max(*keyHi, *queryHi), w, withSlopes, spacing, cubic);
  BinnedSums out;
  out.shift = grids.shift;
  out.valueExponent = grids.valueExponent;
  out.gridPoints = grids.cells.points;
  const std::size_t m = queries.size();
  const auto fill = [&](const KernelGrid& kernel, std::vector<double>& counts, std::vector<double>& sums,
                        std::vector<double>& countBounds, std::vector<double>& sumBounds) {
    counts.resize(m), sums.resize(m), countBounds.resize(m), sumBounds.resize(m);
    for (std::size_t i = 0; i < m; ++i) {
      const KernelSumsAt at = kernel.at(binning::placeOf(grids.cells, queries[i]));
      counts[i] = at.count, sums[i] = at.value, countBounds[i] = at.countBound, sumBounds[i] = at.valueBound;
    }
  };
  fill(grids.weights, out.weightSum, out.weighted, out.weightSumBound, out.weightedBound);
  if (withSlopes) fill(grids.slopes, out.slopeSum, out.slopeWeighted, out.slopeSumBound, out.slopeWeightedBound);
  return out;
}

namespace {

// |p~ - p| for p~ = N~ / D~ with |N~ - N| <= eN, |D~ - D| <= eD: (eN + |p~| eD) / (D~ - eD), or
// +infinity when D~ - eD <= 0 (the exact D could be that small).
double ratioBound(double numerator, double denominator, double numeratorBound, double denominatorBound) {
  const double lower = denominator - denominatorBound;
  if (!(lower > 0.0)) return INFINITY;
  return (numeratorBound + std::fabs(numerator / denominator) * denominatorBound) / lower;
}

struct Estimate {
  double value, bound;
  double shifted = 0.0, shiftedBound = 0.0;  // the same in the shifted frame, (value - shift), before clamping
  double ratio = 0.0, ratioBound = INFINITY;  // and in the sums' scaled units, N / D
};

// The prediction N / D (in the sums' shifted and scaled units) in the values' units, and its bound with
// the division's and the final addition's rounding; clamped into [lo, hi], the values' range, where the
// exact prediction lies (a weighted average of them), so that the bound never exceeds the range either.
Estimate predictionFrom(double shift, const TimesPowerOfTwo& unscale, double numerator, double denominator,
                        double numeratorBound, double denominatorBound, double lo, double hi) {
  const double ratio = numerator / denominator;
  const double scaledBound = ratioBound(numerator, denominator, numeratorBound, denominatorBound);
  if (!(scaledBound < INFINITY) || !std::isfinite(ratio)) return {std::clamp(shift, lo, hi), INFINITY, 0.0, INFINITY, 0.0, INFINITY};
  const double shifted = unscale(ratio);
  const double value = shifted + shift;
  // (1 + 4 eps): the bound's own rounding; eps |ratio|: the division's; eps (|N| + |D|) / D: the rounding of
  // N and D themselves (a leave-one-out term taken out); a few of the smallest subnormals: the scaling
  // back, and the same roundings among subnormal values, where they are absolute.
  const double roundedBound =
      (scaledBound + kEpsilon * (std::fabs(ratio) + (std::fabs(numerator) + std::fabs(ratio * denominator)) / denominator)) *
      (1.0 + 4.0 * kEpsilon);
  const double shiftedBound = unscale(roundedBound) + kTiny;
  // eps |value|: the final addition's.
  const double bound = shiftedBound + kEpsilon * std::fabs(value) + kTiny;
  const double range = (0.5 * hi - 0.5 * lo) * (2.0 + 4.0 * kEpsilon) + kTiny;  // hi - lo, rounded up, without overflow
  return {std::clamp(value, lo, hi), std::min(bound, range), shifted, shiftedBound, ratio, roundedBound};
}

// Training point j's row summed exactly (leaving it out or not), as looLossRows sums it but on the
// values shifted by the binned sums' shift (so that a large offset keeps its digits): its residual and
// gradient term times w, with bounds on their errors from the exact values. The row's window leaves out
// keys of less than 2^-60 of its weight; each of its m terms rounds by a few eps of the largest shifted
// value, the shift's own rounding by eps of it. scores and exponents: scratch of n.
struct ExactRow {
  double residual, residualBound, gradTimesW, gradTimesWBound;
};

ExactRow exactRow(const std::vector<double>& x, const std::vector<double>& shifted, double largestShifted, std::size_t j,
                  double w, bool leaveOneOut, bool sorted, std::vector<double>& scores, std::vector<double>& exponents,
                  rows::SortedHint& hint) {
  const rows::TrainingRow row = rows::gaussianTrainingRow(x.data(), shifted.data(), x.size(), j, w, leaveOneOut, sorted,
                                                          scores.data(), exponents.data(), &hint);
  const double f = row.sums.weighted / row.sums.weightSum;
  const double residual = f - shifted[j];
  const double m = static_cast<double>(row.window.end - row.window.begin);
  const double fBound = ((m + 16.0) * kEpsilon + 0x1p-58) * largestShifted + kTiny;
  const double residualBound = fBound + kEpsilon * (largestShifted + std::fabs(residual)) + kTiny;
  // The slope's terms (y_i - f) t_i K_i, their magnitudes' sum, and sum t_i K_i (for f's error in y_i - f).
  const double slope = rows::rowSlopeTimesW(row, shifted.data(), f, scores.data(), exponents.data());
  double magnitude = 0.0, moment = 0.0;
  for (std::size_t i = row.window.begin; i < row.window.end; ++i) {
    if (i == row.skip || scores[i] == 0.0) continue;
    magnitude += std::fabs((shifted[i] - f) * (exponents[i] * scores[i]));
    moment += std::fabs(exponents[i] * scores[i]);
  }
  const double slopeBound = (((m + 16.0) * kEpsilon + 0x1p-58) * magnitude + (fBound + kEpsilon * largestShifted) * moment) /
                                row.sums.weightSum * (1.0 + (m + 4.0) * kEpsilon) + kTiny;
  const double unit = slope / row.sums.weightSum;
  return {residual, residualBound, 2.0 * residual * unit,
          2.0 * (std::fabs(residual) * slopeBound + residualBound * std::fabs(unit) + residualBound * slopeBound) + kTiny};
}

// A binned row's gradient term times w, 2 r w dp/dw, and its bound, from the slope sums: w dp/dw =
// -(A - p B) / D for A, B the slope sums against the values and the counts (the leave-one-out key adds
// nothing to them: its u is 0), D the weight sum, p the prediction (in the sums' scaled units).
Estimate gradientTerm(const KernelSumsAt& slopes, double ed, const TimesPowerOfTwo& unscale, double ratio,
                      double ratioBound, double denominator, double residual, double residualBound) {
  const double a = slopes.value, b = slopes.count;
  const double ea = slopes.valueBound, eb = slopes.countBound;
  const double lower = denominator - ed;  // > 0: the prediction's bound is finite
  const double slope = -(a - ratio * b) / denominator;
  // (4 eps (|a| + |ratio b|) / lower: the rounding of a - ratio b and of the division.)
  const double slopeBound = ((ea + std::fabs(ratio) * eb + (std::fabs(b) + eb) * ratioBound) / lower +
                             std::fabs(slope) * ed / lower + 4.0 * kEpsilon * (std::fabs(a) + std::fabs(ratio * b)) / lower) *
                            (1.0 + 4.0 * kEpsilon);
  const double unscaled = unscale(slope);
  const double unscaledBound = unscale(slopeBound) + kTiny;
  return {2.0 * residual * unscaled,
          2.0 * (std::fabs(residual) * unscaledBound + residualBound * std::fabs(unscaled) + residualBound * unscaledBound) + kTiny};
}

}  // namespace

BinnedPrediction binnedPredict(const std::vector<double>& keys, const std::vector<double>& values,
                               const std::vector<double>& queries, double w) {
  const BinnedSums sums = binnedGaussianSums(keys, values, queries, w);
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  return binnedPredictFrom(sums, *lo, *hi);
}

BinnedPrediction binnedPredictFrom(const BinnedSums& sums, double lo, double hi) {
  const std::size_t queries = sums.weightSum.size();
  BinnedPrediction out;
  out.gridPoints = sums.gridPoints;
  out.predictions.resize(queries);
  out.bounds.resize(queries);
  const TimesPowerOfTwo unscale(-sums.valueExponent);
  for (std::size_t i = 0; i < queries; ++i) {
    const Estimate p = predictionFrom(sums.shift, unscale, sums.weighted[i], sums.weightSum[i], sums.weightedBound[i], sums.weightSumBound[i], lo, hi);
    out.predictions[i] = p.value;
    out.bounds[i] = p.bound;
  }
  return out;
}

BinnedLoss binnedLooLoss(const std::vector<double>& x, const std::vector<double>& y, double w, Objective objective,
                         bool withGradient, BinnedTradeoff tradeoff) {
  if (objective.kernel != Kernel::gaussian || objective.estimator != Estimator::nadarayaWatson) {
    throw Error(ErrorCode::notApplicable, objective.kernel != Kernel::gaussian ? "kernel" : "estimator",
                "the binned leave-one-out loss is only for the gaussian kernel and the nadarayaWatson estimator");
  }
  requireTrainingSet(x, y);
  requireBinnedW(w);
  if (withGradient && tradeoff.cubic) throw Error(ErrorCode::notApplicable, "cubic", "cubic: the binned gradient has linear binning only");
  if (withGradient && tradeoff.stopAbove < INFINITY) {
    throw Error(ErrorCode::notApplicable, "stopAbove", "stopAbove: the binned gradient sums every row");
  }
  const bool sorted = std::is_sorted(x.begin(), x.end());
  const auto [xLo, xHi] = sorted ? std::pair(x.begin(), x.end() - 1) : std::minmax_element(x.begin(), x.end());
  const BinnedGrids sums = binnedGrids(x, sorted, y, *xLo, *xHi, w, withGradient, tradeoff.spacing, tradeoff.cubic);
  const double yLo = sums.valueLo, yHi = sums.valueHi;
  const double tolerance = tradeoff.rowTolerance * (yHi - yLo);
  // Residuals are taken in the frame of the sums' shift: y - shift rounds by eps of it at most (often not
  // at all), where an offset of 1e12 would cost every residual an ulp of 1e12. The shifted values as an
  // array only for the rows summed exactly, made at the first (rounding is monotonic: the largest
  // shifted value is an end's).
  const double largestShifted = std::max(std::fabs(yHi - sums.shift), std::fabs(yLo - sums.shift));
  std::vector<double> shiftedArray;
  std::vector<double> scores, exponents;  // an exact row's scratch, sized for the first
  const TimesPowerOfTwo toSums(sums.valueExponent), unscale(-sums.valueExponent);
  rows::SortedHint hint;  // where the last exact row's searches ended
  BinnedLoss out;
  out.gridPoints = sums.cells.points;
  double gradTimesW = 0.0, gradTimesWMagnitude = 0.0, gradTimesWBound = 0.0;
  // The squares' and the sums' rounding: n eps of the loss (and of the gradient's terms); the bounds' own
  // sums, (1 + n eps). (Counted for all n rows also where fewer are summed.)
  const double n = static_cast<double>(x.size());
  const double sumRounding = 1.0 + (n + 4.0) * kEpsilon;
  const double scale = lossScale(objective.loss);
  const auto finalBound = [&](double bound, double loss) { return (bound + 4.0 * kEpsilon * n * loss + n * kTiny) * sumRounding; };
  std::size_t j = 0;
  for (; j < x.size(); ++j) {
    // (Every 1,024 rows: whether the rows so far are enough.)
    if (j % 1024 == 1023 && scale * (out.loss - finalBound(out.bound, out.loss)) > tradeoff.stopAbove) break;
    const double shifted = y[j] - sums.shift;
    // Leaving key j out takes its own weight K(0) = 1 and value out of the sums: exactly, so the bounds hold.
    const double selfWeight = objective.leaveOneOut ? 1.0 : 0.0;
    // (The same rounded, scaled value as the binned one.)
    const binning::Place place = binning::placeOf(sums.cells, x[j]);
    const KernelSumsAt at = sums.weights.at(place);
    const double numerator = at.value - selfWeight * toSums(shifted);
    const double denominator = at.count - selfWeight;
    const Estimate p = predictionFrom(sums.shift, unscale, numerator, denominator, at.valueBound, at.countBound, yLo, yHi);
    double residual = 0.0, residualBound = 0.0, term = 0.0;
    if (p.shiftedBound <= tolerance || tradeoff.rowTolerance == INFINITY) {
      residual = p.shifted - shifted;
      residualBound = p.shiftedBound + kEpsilon * (std::fabs(shifted) + std::fabs(residual)) + kTiny;
      if (withGradient) {
        const Estimate g = gradientTerm(sums.slopes.at(place), at.countBound, unscale, p.ratio, p.ratioBound, denominator, residual, residualBound);
        term = g.value;
        gradTimesWBound += g.bound;
      }
    } else {
      if (scores.empty()) {
        scores.resize(x.size()), exponents.resize(x.size()), shiftedArray.resize(y.size());
        for (std::size_t i = 0; i < y.size(); ++i) shiftedArray[i] = y[i] - sums.shift;
      }
      const ExactRow row = exactRow(x, shiftedArray, largestShifted, j, w, objective.leaveOneOut, sorted, scores, exponents, hint);
      residual = row.residual;
      residualBound = row.residualBound;
      term = row.gradTimesW;
      gradTimesWBound += row.gradTimesWBound;
      ++out.exactRows;
    }
    out.loss += residual * residual;
    out.bound += (2.0 * std::fabs(residual) + residualBound) * residualBound + kTiny;
    gradTimesW += term;
    gradTimesWMagnitude += std::fabs(term);
  }
  out.rowsSummed = j;
  out.bound = finalBound(out.bound, out.loss);
  out.loss *= scale;
  out.bound *= scale;
  if (withGradient) {
    out.grad = scale * gradTimesW / w;
    out.gradBound = scale * (gradTimesWBound + 4.0 * kEpsilon * n * gradTimesWMagnitude + n * kTiny) * sumRounding / std::fabs(w) *
                    (1.0 + 4.0 * kEpsilon);
  }
  return out;
}

double exactLooWork(const std::vector<double>& sortedX, double w, double enough) {
  const std::size_t n = sortedX.size();
  if (n == 0) return 0.0;  // (the merge below reads the last key even for a stretch that is done)
  const double reach = reachInU(n) / std::fabs(w);
  // Each row visits the keys within reach of its own, itself included: n, and each pair within reach
  // twice. The keys after key i within reach of it end at `end`, found as a merge: each step either
  // moves `end` on or counts row i and moves to the next, without a branch (a loop per row would
  // mispredict about once a row). Four stretches of rows are merged side by side, so that their
  // chains of dependent steps overlap: 2 ms became 0.47 ms at n = 100,000 in wasm. Each stretch starts
  // its `end` by bisection, so that none walks over the keys another one does.
  constexpr std::size_t kChains = 4;
  const double* x = sortedX.data();
  std::size_t i[kChains], stop[kChains], end[kChains];
  for (std::size_t c = 0; c < kChains; ++c) {
    i[c] = n * c / kChains;
    stop[c] = n * (c + 1) / kChains;
    const double row = i[c] < n ? x[i[c]] : 0.0;
    end[c] = static_cast<std::size_t>(
        std::partition_point(x + i[c], x + n, [&](double key) { return key - row <= reach; }) - x);
  }
  std::uint64_t pairs = 0;
  std::size_t round = 0;
  for (bool busy = true; busy;) {
    // (Every 256 rounds: the count so far, each of its pairs a real one, against `enough`.)
    if (++round % 256 == 0 && static_cast<double>(n) + 2.0 * static_cast<double>(pairs) > enough) break;
    busy = false;
    for (std::size_t c = 0; c < kChains; ++c) {
      const bool active = i[c] < stop[c];
      const std::size_t row = active ? i[c] : 0, key = end[c] < n ? end[c] : n - 1;
      const bool within = active & (end[c] < n) & (x[key] - x[row] <= reach);
      pairs += (active & !within) ? end[c] - i[c] - 1 : 0;  // (end > i once row i is counted: key i is within its own reach)
      end[c] += within;
      i[c] += active & !within;
      busy |= active;
    }
  }
  return static_cast<double>(n) + 2.0 * static_cast<double>(pairs);
}

double binnedGridWork(double span, std::size_t n, double w, double spacing, bool cubic) {
  const double wanted = span * std::fabs(w) / spacing + (cubic ? 4.0 : 2.0);
  const double points = std::min(static_cast<double>(kMaxBinnedGrid), wanted);
  const double reach = reachInU(n) / spacing;
  const double size = 2.0 * (points + reach);
  // Five transforms of `size` points, and the binning. In key-pair visits: a butterfly costs about a quarter
  // of one (1 to 1.5 ns against 4 to 6 ns a visit at n = 100,000 in wasm). Cubic binning and its rows
  // read four grid points where linear ones read two.
  return 0.25 * (5.0 * size * std::log2(size) + (cubic ? 6.0 : 4.0) * static_cast<double>(n));
}

bool binnedGridCapped(double span, double w, double spacing) {
  return span * std::fabs(w) / spacing + 2.0 > static_cast<double>(kMaxBinnedGrid);
}

double binnedSpacingUsed(double span, double w, double spacing, bool cubic) { return gridFor(0.0, span, w, spacing, cubic).s; }

double binnedLooWork(const std::vector<double>& x, double w, double spacing, bool rowsMayGoExact) {
  const auto [lo, hi] = std::minmax_element(x.begin(), x.end());
  const double span = *hi - *lo;
  const double work = binnedGridWork(span, x.size(), w, spacing);
  // A grid capped below the points wanted is coarser than `spacing`: its rows' bounds grow past the
  // tolerance, and those rows are summed exactly (counted as all of them).
  return rowsMayGoExact && binnedGridCapped(span, w, spacing) ? work + exactLooWork(x, w) : work;
}

}  // namespace nw
