// Private to the core: a radix-2 complex FFT and the rounding bound of a convolution made with it.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
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

// In-place FFTs of one power-of-two length, iterative (bit reversal, then butterflies); the twiddles
// come from cos and sin of each exact angle (not by repeated multiplication, whose error grows), once.
class Plan {
 public:
  explicit Plan(std::size_t n) : n_(n), twiddles_(n > 1 ? n - 1 : 0) {
    const double pi = 3.14159265358979323846;
    std::vector<Complex> roots(n / 2);
    for (std::size_t k = 0; k < n / 2; ++k) {
      const double angle = 2.0 * pi * static_cast<double>(k) / static_cast<double>(n);
      roots[k] = Complex(std::cos(angle), -std::sin(angle));
    }
    // Each stage's twiddles side by side (the stage of length len uses roots[k n / len], k < len / 2):
    // the same numbers, read in order instead of with a stride that leaves the cache at large n.
    for (std::size_t len = 2, at = 0; len <= n; at += len / 2, len <<= 1) {
      for (std::size_t k = 0; k < len / 2; ++k) twiddles_[at + k] = roots[k * (n / len)];
    }
  }
  std::size_t size() const { return n_; }
  void forward(std::vector<Complex>& a) const { transform(a, false); }
  // The unscaled inverse: the caller divides by size().
  void inverse(std::vector<Complex>& a) const { transform(a, true); }

 private:
  void transform(std::vector<Complex>& a, bool inverse) const {
    const std::size_t n = n_;
    for (std::size_t i = 1, j = 0; i < n; ++i) {
      std::size_t bit = n >> 1;
      for (; j & bit; bit >>= 1) j ^= bit;
      j ^= bit;
      if (i < j) std::swap(a[i], a[j]);
    }
    // Depth first: every stage within a block of kBlock points (which fits the cache) before the next
    // block, then the longer stages across the whole array. Each butterfly sees the same numbers as in
    // stage-by-stage order, so the results are the same, bit for bit.
    const std::size_t block = std::min(n, kBlock);
    for (std::size_t blockStart = 0; blockStart < n; blockStart += block) {
      for (std::size_t len = 2, at = 0; len <= block; at += len / 2, len <<= 1) {
        butterflies(a.data() + blockStart, block, len, twiddles_.data() + at, inverse);
      }
    }
    std::size_t at = block - 1;  // the stages up to `block` take block - 1 twiddles
    for (std::size_t len = 2 * block; len <= n; at += len / 2, len <<= 1) butterflies(a.data(), n, len, twiddles_.data() + at, inverse);
  }

  static constexpr std::size_t kBlock = std::size_t{1} << 11;

  // One stage of length len over a[0, count): each len-point group's halves combined with the stage's twiddles.
  static void butterflies(Complex* a, std::size_t count, std::size_t len, const Complex* stage, bool inverse) {
    const std::size_t half = len / 2;
    for (std::size_t start = 0; start < count; start += len) {
      for (std::size_t k = 0; k < half; ++k) {
        const Complex root = inverse ? std::conj(stage[k]) : stage[k];
        const Complex u = a[start + k];
        const Complex b = a[start + k + half];  // b * root written out: std::complex's * checks for NaN
        const Complex v(b.real() * root.real() - b.imag() * root.imag(), b.real() * root.imag() + b.imag() * root.real());
        a[start + k] = u + v;
        a[start + k + half] = u - v;
      }
    }
  }

  std::size_t n_;
  std::vector<Complex> twiddles_;  // n - 1: stage by stage
};

// A bound on max_m |computed - exact| of the circular convolution of a and b made by two forward
// transforms, a pointwise product and an inverse transform of length 2^p (Higham, Accuracy and
// Stability of Numerical Algorithms, 2nd ed., Theorem 24.2: each transform is within p eta of exact in
// the 2-norm, eta = mu + gamma_4 (sqrt 2 + mu), mu the twiddles' error; here eta is taken as 16 eps, over
// twice what cos and sin to within 2 ulps give). Propagated through the product with |A_k| <= ||a||_1,
// ||A||_2 = sqrt(2^p) ||a||_2 and the same for b, with a margin for the product and the scaling.
inline double convolutionRoundingBound(std::size_t length, double aNorm1, double aNorm2, double bNorm1, double bNorm2) {
  double p = 0.0;
  for (std::size_t n = 1; n < length; n <<= 1) p += 1.0;
  const double eta = 16.0 * std::numeric_limits<double>::epsilon();
  return 2.0 * (p + 2.0) * eta * (aNorm2 * bNorm1 + 2.0 * aNorm1 * bNorm2);
}

}  // namespace nw::fft
