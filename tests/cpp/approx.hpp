// One helper for approximate comparisons, with the margin always explicit at the call site.
#pragma once

#include <catch2/catch.hpp>

// |actual - expected| <= relative * |expected| (plus an absolute floor for values near zero).
inline Approx approx(double expected, double relative, double absolute = 0.0) {
  return Approx(expected).epsilon(relative).margin(absolute);
}
