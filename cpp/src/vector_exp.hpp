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

// e^x for x <= 0, within about 2 ulp of the exact value; 0 below -745, and for -745 <= x < -708 (where
// the result is subnormal) a value below 1e-307 instead of the exact one: the kernel's scores sit next to
// the nearest key's exact 1, so that difference never shows in a weight or a prediction.
inline f64x2 expNonPositive(f64x2 x) {
  const f64x2 clamped = atLeast(x, -708.0);
  // x = h (ln 2) / 2 + r with h = round(2 x / ln 2), |r| <= 0.174, by adding 1.5 * 2^52: h then sits in
  // the low bits of `shifted` (exact here, and no -ffast-math reorders it), so 2^(h/2) needs no
  // float-to-integer conversion: 2^floor(h/2) from those bits, times sqrt 2 when h is odd.
  const f64x2 magic = splat(0x1.8p52);
  const f64x2 shifted = clamped * splat(2.88539008177792677401e+00) + magic;
  const f64x2 h = shifted - magic;
  // r = x - h (ln 2)/2 in two parts (fdlibm's ln 2 split, halved: h * hi is exact).
  const f64x2 r = (clamped - h * splat(3.46573590184561908245e-01)) - h * splat(9.54107464635293850010e-11);
  // Taylor polynomial of degree 10: the first omitted term is below 2^-55 relative.
  f64x2 p = splat(1.0 / 3628800.0);
  p = p * r + splat(1.0 / 362880.0);
  p = p * r + splat(1.0 / 40320.0);
  p = p * r + splat(1.0 / 5040.0);
  p = p * r + splat(1.0 / 720.0);
  p = p * r + splat(1.0 / 120.0);
  p = p * r + splat(1.0 / 24.0);
  p = p * r + splat(1.0 / 6.0);
  p = p * r + splat(0.5);
  p = p * r + splat(1.0);
  p = p * r + splat(1.0);
  // h's low bits: h >> 1 (arithmetic) is floor(h/2) in [-1022, 0] after the clamp; h & 1 marks odd h.
  const i64x2 hBits = ((i64x2)shifted << 12) >> 12;  // sign-extend the 52-bit field
  const i64x2 bits = ((hBits >> 1) + i64x2{1023, 1023}) << 52;
  const i64x2 odd = -(hBits & i64x2{1, 1});  // all ones where h is odd
  const f64x2 halfStep = select(odd, splat(1.41421356237309514547e+00), splat(1.0));
  const f64x2 result = (p * halfStep) * (f64x2)bits;  // a cast between vector types of one size keeps the bits
  return select(x < splat(-745.0), splat(0.0), result);
}

}  // namespace nw::vec
