// Private to the core: e^x for two doubles at once, on GNU vector extensions (SSE2 in native builds,
// WebAssembly simd128 with -msimd128), for the Gaussian kernel's hot loops. std::exp cannot be
// vectorised by the compiler, and it is most of the cost of a dense prediction.
#pragma once

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace nw::vec {

typedef double f64x2 __attribute__((vector_size(16)));
typedef long long i64x2 __attribute__((vector_size(16)));

inline f64x2 splat(double x) { return f64x2{x, x}; }

// Lane-wise mask ? a : b, with a mask from a vector comparison (all ones or all zeros per lane).
// Written with bitwise operations (not ?:) because those map to single WebAssembly SIMD instructions.
inline f64x2 select(i64x2 mask, f64x2 a, f64x2 b) { return (f64x2)((mask & (i64x2)a) | (~mask & (i64x2)b)); }

// max(x, floor) for x that is never NaN. WebAssembly's f64x2.max (IEEE NaN rules) is slow in V8, and
// clang turns a compare-and-select into it: pmax is a plain compare-and-select.
inline f64x2 atLeast(f64x2 x, double floor) {
#if defined(__wasm_simd128__)
  return (f64x2)wasm_f64x2_pmax((v128_t)x, wasm_f64x2_splat(floor));
#else
  return select(x < splat(floor), splat(floor), x);
#endif
}

// min(a, b) for lanes that are never NaN (pmin, for the same reason as atLeast).
inline f64x2 min(f64x2 a, f64x2 b) {
#if defined(__wasm_simd128__)
  return (f64x2)wasm_f64x2_pmin((v128_t)a, (v128_t)b);
#else
  return select(b < a, b, a);
#endif
}

inline f64x2 abs(f64x2 x) { return (f64x2)((i64x2)x & i64x2{0x7fffffffffffffffLL, 0x7fffffffffffffffLL}); }

// 2^(j/64) for j = 0..63, each rounded to the nearest double.
inline constexpr double kExp2Sixtyfourths[64] = {
    0x1.0000000000000p+0, 0x1.02c9a3e778061p+0, 0x1.059b0d3158574p+0, 0x1.0874518759bc8p+0,
    0x1.0b5586cf9890fp+0, 0x1.0e3ec32d3d1a2p+0, 0x1.11301d0125b51p+0, 0x1.1429aaea92de0p+0,
    0x1.172b83c7d517bp+0, 0x1.1a35beb6fcb75p+0, 0x1.1d4873168b9aap+0, 0x1.2063b88628cd6p+0,
    0x1.2387a6e756238p+0, 0x1.26b4565e27cddp+0, 0x1.29e9df51fdee1p+0, 0x1.2d285a6e4030bp+0,
    0x1.306fe0a31b715p+0, 0x1.33c08b26416ffp+0, 0x1.371a7373aa9cbp+0, 0x1.3a7db34e59ff7p+0,
    0x1.3dea64c123422p+0, 0x1.4160a21f72e2ap+0, 0x1.44e086061892dp+0, 0x1.486a2b5c13cd0p+0,
    0x1.4bfdad5362a27p+0, 0x1.4f9b2769d2ca7p+0, 0x1.5342b569d4f82p+0, 0x1.56f4736b527dap+0,
    0x1.5ab07dd485429p+0, 0x1.5e76f15ad2148p+0, 0x1.6247eb03a5585p+0, 0x1.6623882552225p+0,
    0x1.6a09e667f3bcdp+0, 0x1.6dfb23c651a2fp+0, 0x1.71f75e8ec5f74p+0, 0x1.75feb564267c9p+0,
    0x1.7a11473eb0187p+0, 0x1.7e2f336cf4e62p+0, 0x1.82589994cce13p+0, 0x1.868d99b4492edp+0,
    0x1.8ace5422aa0dbp+0, 0x1.8f1ae99157736p+0, 0x1.93737b0cdc5e5p+0, 0x1.97d829fde4e50p+0,
    0x1.9c49182a3f090p+0, 0x1.a0c667b5de565p+0, 0x1.a5503b23e255dp+0, 0x1.a9e6b5579fdbfp+0,
    0x1.ae89f995ad3adp+0, 0x1.b33a2b84f15fbp+0, 0x1.b7f76f2fb5e47p+0, 0x1.bcc1e904bc1d2p+0,
    0x1.c199bdd85529cp+0, 0x1.c67f12e57d14bp+0, 0x1.cb720dcef9069p+0, 0x1.d072d4a07897cp+0,
    0x1.d5818dcfba487p+0, 0x1.da9e603db3285p+0, 0x1.dfc97337b9b5fp+0, 0x1.e502ee78b3ff6p+0,
    0x1.ea4afa2a490dap+0, 0x1.efa1bee615a27p+0, 0x1.f50765b6e4540p+0, 0x1.fa7c1819e90d8p+0};

// e^x for x <= 0, within about 1 ulp of the exact value where it is a normal double; for
// -745.13 <= x < -708 (a subnormal result) within 1.5 subnormal steps (2^-1074) of it; exactly 0 below
// -745.13, where the exact value is at most 1.0033 * 2^-1075 (so 0 is the nearest double or one step off).
// A weight that small still counts beside a value near 1e300, so the subnormal range is computed, not
// flushed.
inline constexpr double kExpUnderflow = -745.13;

inline f64x2 expNonPositive(f64x2 x) {
  const f64x2 clamped = atLeast(x, -746.0);
  // x = h (ln 2) / 64 + r with h = round(64 x / ln 2) in [-68881, 0], |r| <= (ln 2) / 128. Adding
  // 1.5 * 2^52 + 2^17 rounds to an integer and leaves n = h + 2^17 > 0 in the low bits of `shifted`
  // (exact here, and no -ffast-math reorders it), so no float-to-integer conversion is needed, and n
  // being positive, no arithmetic shift (which V8 emulates in several steps for 64-bit lanes on x64).
  const f64x2 magic = splat(0x1.8p52 + 131072.0);
  const f64x2 shifted = clamped * splat(92.33248261689366) + magic;
  const f64x2 h = shifted - magic;
  // r = x - h (ln 2)/64 in two parts (fdlibm's ln 2 split over 64: h * hi is exact).
  const f64x2 r = (clamped - h * splat(0x1.62e42feep-1 / 64)) - h * splat(2.9815858269852933e-12);
  // e^r - 1 by its Taylor polynomial of degree 5: the first omitted term is below 2^-54 relative.
  f64x2 q = splat(1.0 / 120.0);
  q = q * r + splat(1.0 / 24.0);
  q = q * r + splat(1.0 / 6.0);
  q = q * r + splat(0.5);
  q = q * r + splat(1.0);
  q = q * r;
  // 2^(h/64) = 2^e * 2^(j/64) with j = h mod 64 = n mod 64 and e = floor(h/64) = n/64 - 2048. e reaches
  // -1077, below the smallest normal exponent, so 2^e is applied as 2^(e + 64) (biased exponent
  // n/64 - 961, at least 10) times the constant 2^-64: the first product is exact, and only the second
  // rounds, once, and only for a subnormal result. One multiply by a constant more than a plain 2^e.
  const i64x2 n = (i64x2)shifted & i64x2{0x3ffff, 0x3ffff};
  const f64x2 fraction = {kExp2Sixtyfourths[n[0] & 63], kExp2Sixtyfourths[n[1] & 63]};
  typedef unsigned long long u64x2 __attribute__((vector_size(16)));
  const i64x2 power = ((i64x2)((u64x2)n >> 6) - i64x2{961, 961}) << 52;
  // fraction * e^r as fraction + fraction * q: q is small, so only the table and this sum round. Casts
  // between vector types of one size keep the bits.
  const f64x2 result = ((fraction + fraction * q) * (f64x2)power) * splat(0x1p-64);
  return (f64x2)((i64x2)result & ~(i64x2)(x < splat(kExpUnderflow)));
}

}  // namespace nw::vec
