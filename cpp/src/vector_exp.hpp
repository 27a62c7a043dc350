// Private to the core: e^x for two doubles at once, on GNU vector extensions (SSE2 in native builds,
// WebAssembly simd128 with -msimd128), for the Gaussian kernel's hot loops. std::exp cannot be
// vectorised by the compiler, and it is most of the cost of a dense prediction.
#pragma once

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

#include "exp2_table.hpp"

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

namespace detail {

typedef unsigned long long u64x2 __attribute__((vector_size(16)));

// e^x = mantissa * 2^(n/256 - Offset/256) for x >= -Offset (ln 2)/256 (and x >= -746), within about 1 ulp,
// with n in the low 20 bits of `bits`: the part shared by expNonPositive and expNormal. Offset is a
// multiple of 256 below 2^20; the result does not depend on it.
struct ExpParts {
  f64x2 mantissa;
  i64x2 bits;
};

template <long long Offset>
inline ExpParts expParts(f64x2 x) {
  // x = h (ln 2) / 256 + r with h = round(256 x / ln 2) in [-275520, 0], |r| <= (ln 2) / 512. Adding
  // 1.5 * 2^52 + Offset rounds to an integer and leaves n = h + Offset > 0 in the low bits of `shifted`
  // (exact here, and no -ffast-math reorders it), so no float-to-integer conversion is needed, and n
  // being positive, no arithmetic shift (which V8 emulates in several steps for 64-bit lanes on x64).
  const f64x2 magic = splat(0x1.8p52 + static_cast<double>(Offset));
  const f64x2 shifted = x * splat(369.3299304675746) + magic;
  const f64x2 h = shifted - magic;
  // r = x - h (ln 2)/256 in two parts: fdlibm's split of ln 2, whose high part has 32 significant bits,
  // so that h * high (h has at most 19) is exact, and so is x - h * high.
  const f64x2 r = (x - h * splat(0x1.62e42feep-1 / 256)) - h * splat(1.90821492927058770002e-10 / 256);
  // e^r - 1 by its Taylor polynomial of degree 4: the first omitted term, r^5 / 120, is below 2^-54.
  f64x2 q = splat(1.0 / 24.0);
  q = q * r + splat(1.0 / 6.0);
  q = q * r + splat(0.5);
  q = q * r + splat(1.0);
  q = q * r;
  // 2^(h/256) = 2^e * 2^(j/256) with j = h mod 256 = n mod 256 (Offset is a multiple of 256) and
  // e = floor(h/256) = n/256 - Offset/256.
  const i64x2 bits = (i64x2)shifted;
  const f64x2 fraction = {kExp2Table[bits[0] & 255], kExp2Table[bits[1] & 255]};
  // fraction * e^r as fraction + fraction * q: q is small, so only the table and this sum round. Casts
  // between vector types of one size keep the bits.
  return {fraction + fraction * q, bits};
}

}  // namespace detail

// e^x for x <= 0, within about 1 ulp of the exact value where it is a normal double; for
// -745.13 <= x < -708 (a subnormal result) within 1.5 subnormal steps (2^-1074) of it; exactly 0 below
// -745.13, where the exact value is at most 1.0033 * 2^-1075 (so 0 is the nearest double or one step off).
// A weight that small still counts beside a value near 1e300, so the subnormal range is computed, not
// flushed.
inline constexpr double kExpUnderflow = -745.13;

inline f64x2 expNonPositive(f64x2 x) {
  // n = h + 2^19, so e = n/256 - 2048.
  const detail::ExpParts parts = detail::expParts<524288>(atLeast(x, -746.0));
  const i64x2 n = parts.bits & i64x2{0xfffff, 0xfffff};
  // e reaches -1077, below the smallest normal exponent, so 2^e is applied as 2^(e + 64) (biased exponent
  // n/256 - 2048 + 64 + 1023, at least 10) times the constant 2^-64: the first product is exact, and
  // only the second rounds, once, and only for a subnormal result.
  const i64x2 power = ((i64x2)((detail::u64x2)n >> 8) - i64x2{961, 961}) << 52;
  const f64x2 result = (parts.mantissa * (f64x2)power) * splat(0x1p-64);
  return (f64x2)((i64x2)result & ~(i64x2)(x < splat(kExpUnderflow)));
}

// e^x for kNormalExpFloor <= x <= 0, where e^x is a normal double: the same bits as expNonPositive there
// (where both its products are exact, as is this one's), in five operations fewer: no clamp, no 2^-64,
// no underflow mask, and n = h + 1023 * 256 (positive for x > -709.09), whose n/256 is the biased
// exponent itself: shifted left by 52 it is 2^e, and the bits above n fall off.
inline constexpr double kNormalExpFloor = -700.0;

inline f64x2 expNormal(f64x2 x) {
  const detail::ExpParts parts = detail::expParts<1023 * 256>(x);
  return parts.mantissa * (f64x2)((i64x2)((detail::u64x2)parts.bits >> 8) << 52);
}

}  // namespace nw::vec
