// Private to the core: a radix-2 complex FFT for convolutions and the rounding bound of a convolution
// made with it.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstring>
#include <limits>
#include <vector>

namespace nw::fft {

using Complex = std::complex<double>;

// The smallest power of two >= n (n >= 1).
inline std::size_t powerOfTwoAtLeast(std::size_t n) {
  std::size_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

// In-place FFTs of one power-of-two length for convolutions, which multiply two transforms point by point
// and need no frequency in its place: forward() is a decimation in frequency, from natural order to the
// frequencies in bit-reversed order, and inverse() a decimation in time, from bit-reversed order back to
// natural order. No bit-reversal pass, the slowest part of a transform too large for the cache (a random
// access per point: 40 of 120 ms at 2^21 points in wasm). The twiddles come from cos and sin of each
// exact angle (not by repeated multiplication, whose error grows), once. Each pass over memory does two
// stages (a radix-2^2 pass of the same butterflies, so the same numbers as stage by stage), two complex
// numbers' lanes at once in SIMD.
class Plan {
 public:
  explicit Plan(std::size_t n) : n_(n), twiddles_(n > 1 ? n - 1 : 0) {
    const double pi = 3.14159265358979323846;
    std::vector<Complex> roots(n / 2);
    for (std::size_t k = 0; k < n / 2; ++k) {
      const double angle = 2.0 * pi * static_cast<double>(k) / static_cast<double>(n);
      roots[k] = Complex(std::cos(angle), -std::sin(angle));
    }
    // Each stage's twiddles side by side (the stage of length len uses roots[k n / len], k < len / 2, from
    // offset len / 2 - 1): the same numbers, read in order instead of with a stride that leaves the cache.
    for (std::size_t len = 2; len <= n; len <<= 1) {
      for (std::size_t k = 0; k < len / 2; ++k) twiddles_[len / 2 - 1 + k] = roots[k * (n / len)];
    }
  }
  std::size_t size() const { return n_; }
  // Natural order in, the transform in bit-reversed order out.
  void forward(std::vector<Complex>& a) const;
  // Bit-reversed order in (as forward() leaves it), natural order out: the unscaled inverse (the caller
  // divides by size()).
  void inverse(std::vector<Complex>& a) const;

 private:
  const Complex* stage(std::size_t len) const { return twiddles_.data() + len / 2 - 1; }

  // Stages within a block of kBlock points (which fits the cache) are done block by block, depth first.
  static constexpr std::size_t kBlock = std::size_t{1} << 11;

  std::size_t n_;
  std::vector<Complex> twiddles_;  // n - 1: stage by stage
};

namespace detail {

// One complex number as a vector of its two parts (std::complex is laid out so), copied in and out
// (one unaligned load or store each, without breaking the aliasing rules).
typedef double c64 __attribute__((vector_size(16)));

inline c64 load(const Complex* p) {
  c64 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store(Complex* p, c64 v) { std::memcpy(static_cast<void*>(p), &v, sizeof v); }
inline c64 swapParts(c64 v) {
#if defined(__clang__)
  return __builtin_shufflevector(v, v, 1, 0);
#else
  typedef long long i64x2 __attribute__((vector_size(16)));
  return __builtin_shuffle(v, i64x2{1, 0});
#endif
}
// b times the root (conjugated for the inverse): (br rr - bi ri, bi rr + br ri), rounded as the scalar
// products and sums are (no fused multiply-add).
template <bool Conjugate>
inline c64 times(c64 b, const Complex& root) {
  const double re = root.real(), im = Conjugate ? -root.imag() : root.imag();
  return b * c64{re, re} + swapParts(b) * c64{-im, im};
}

// Decimation in frequency, stages len and len / 2 (len >= 4) over a[0, count) in one pass: for each group
// of len, the butterflies (k, k + h) and (k + q, k + h + q) of stage len, then (k, k + q) and
// (k + h, k + h + q) of stage len / 2 (h = len / 2, q = len / 4).
template <bool Conjugate>
void difTwoStages(Complex* a, std::size_t count, std::size_t len, const Complex* outer, const Complex* inner) {
  const std::size_t h = len / 2, q = len / 4;
  for (std::size_t start = 0; start < count; start += len) {
    Complex* g = a + start;
    for (std::size_t k = 0; k < q; ++k) {
      const c64 x0 = load(g + k), x1 = load(g + k + q), x2 = load(g + k + h), x3 = load(g + k + h + q);
      const c64 y0 = x0 + x2, y2 = times<Conjugate>(x0 - x2, outer[k]);
      const c64 y1 = x1 + x3, y3 = times<Conjugate>(x1 - x3, outer[k + q]);
      store(g + k, y0 + y1);
      store(g + k + q, times<Conjugate>(y0 - y1, inner[k]));
      store(g + k + h, y2 + y3);
      store(g + k + h + q, times<Conjugate>(y2 - y3, inner[k]));
    }
  }
}

template <bool Conjugate>
void difStage(Complex* a, std::size_t count, std::size_t len, const Complex* twiddles) {
  const std::size_t h = len / 2;
  for (std::size_t start = 0; start < count; start += len) {
    Complex* g = a + start;
    for (std::size_t k = 0; k < h; ++k) {
      const c64 u = load(g + k), v = load(g + k + h);
      store(g + k, u + v);
      store(g + k + h, times<Conjugate>(u - v, twiddles[k]));
    }
  }
}

// Decimation in time, stages len / 2 and len (len >= 4) in one pass: the mirror of difTwoStages.
template <bool Conjugate>
void ditTwoStages(Complex* a, std::size_t count, std::size_t len, const Complex* inner, const Complex* outer) {
  const std::size_t h = len / 2, q = len / 4;
  for (std::size_t start = 0; start < count; start += len) {
    Complex* g = a + start;
    for (std::size_t k = 0; k < q; ++k) {
      const c64 x0 = load(g + k), x2 = load(g + k + h);
      const c64 x1 = times<Conjugate>(load(g + k + q), inner[k]), x3 = times<Conjugate>(load(g + k + h + q), inner[k]);
      const c64 y0 = x0 + x1, y1 = x0 - x1, y2 = x2 + x3, y3 = x2 - x3;
      const c64 z2 = times<Conjugate>(y2, outer[k]), z3 = times<Conjugate>(y3, outer[k + q]);
      store(g + k, y0 + z2);
      store(g + k + h, y0 - z2);
      store(g + k + q, y1 + z3);
      store(g + k + h + q, y1 - z3);
    }
  }
}

template <bool Conjugate>
void ditStage(Complex* a, std::size_t count, std::size_t len, const Complex* twiddles) {
  const std::size_t h = len / 2;
  for (std::size_t start = 0; start < count; start += len) {
    Complex* g = a + start;
    for (std::size_t k = 0; k < h; ++k) {
      const c64 u = load(g + k), v = times<Conjugate>(load(g + k + h), twiddles[k]);
      store(g + k, u + v);
      store(g + k + h, u - v);
    }
  }
}

}  // namespace detail

inline void Plan::forward(std::vector<Complex>& a) const {
  // The stages longer than a block over the whole array, longest first, two at a time; then, block by
  // block, the rest.
  const std::size_t block = std::min(n_, kBlock);
  const auto stagesDownTo = [&](Complex* at, std::size_t count, std::size_t from, std::size_t to) {
    std::size_t len = from;
    for (; len >= 2 * to && len >= 4; len /= 4) detail::difTwoStages<false>(at, count, len, stage(len), stage(len / 2));
    if (len >= to && len >= 2) detail::difStage<false>(at, count, len, stage(len));
  };
  if (n_ > block) stagesDownTo(a.data(), n_, n_, 2 * block);
  for (std::size_t start = 0; start < n_; start += block) stagesDownTo(a.data() + start, block, block, 2);
}

inline void Plan::inverse(std::vector<Complex>& a) const {
  const std::size_t block = std::min(n_, kBlock);
  // From `from` up to `to`: a lone stage first when their count is odd, then two at a time.
  const auto stagesUpTo = [&](Complex* at, std::size_t count, std::size_t from, std::size_t to) {
    if (from > to) return;
    std::size_t stages = 0;
    for (std::size_t len = from; len <= to; len <<= 1) ++stages;
    std::size_t len = from;
    if (stages % 2 == 1) detail::ditStage<true>(at, count, len, stage(len)), len <<= 1;
    for (; len <= to; len <<= 2) detail::ditTwoStages<true>(at, count, 2 * len, stage(len), stage(2 * len));
  };
  for (std::size_t start = 0; start < n_; start += block) stagesUpTo(a.data() + start, block, 2, block);
  stagesUpTo(a.data(), n_, 2 * block, n_);
}

// A bound on max_m |computed - exact| of the circular convolution of a and b made by two forward
// transforms, a pointwise product and an inverse transform of length 2^p (Higham, Accuracy and
// Stability of Numerical Algorithms, 2nd ed., Theorem 24.2, for the radix-2 Cooley-Tukey FFT in either
// decimation: each transform is within p eta of exact in the 2-norm, eta = mu + gamma_4 (sqrt 2 + mu), mu
// the twiddles' error; here eta is taken as 16 eps, over twice what cos and sin to within 2 ulps give).
// Propagated through the product with |A_k| <= ||a||_1, ||A||_2 = sqrt(2^p) ||a||_2 and the same for b,
// with a margin for the product and the scaling. (The frequencies' order does not change either norm.)
inline double convolutionRoundingBound(std::size_t length, double aNorm1, double aNorm2, double bNorm1, double bNorm2) {
  double p = 0.0;
  for (std::size_t n = 1; n < length; n <<= 1) p += 1.0;
  const double eta = 16.0 * std::numeric_limits<double>::epsilon();
  return 2.0 * (p + 2.0) * eta * (aNorm2 * bNorm1 + 2.0 * aNorm1 * bNorm2);
}

}  // namespace nw::fft
