#include "approx.hpp"
#include "nw/metrics.hpp"

TEST_CASE("mean squared error", "[metrics]") {
  CHECK(nw::meanSquaredError({1.0, 2.0, 3.0}, {1.0, 2.0, 3.0}) == 0.0);
  CHECK(nw::meanSquaredError({1.0, 4.0}, {0.0, 2.0}) == 2.5);  // (1 + 4) / 2
  CHECK_THROWS_WITH(nw::meanSquaredError({1.0}, {1.0, 2.0}), "truth must have the same length as predicted (1), got 2");
  CHECK_THROWS_WITH(nw::meanSquaredError({}, {}), "predicted must not be empty");
}

TEST_CASE("a mean that is a double never overflows or underflows on the way (item 16)", "[metrics][extremes]") {
  SECTION("squares beyond the largest double") {
    CHECK(nw::meanSquaredError({1.5e154, 0.0}, {0.0, 0.0}) == approx(1.125e308, 1e-15));  // 2.25e308 / 2
    CHECK(nw::meanSquaredError({1e200}, {-1e200}) == INFINITY);                         // 4e400 is no double
    CHECK(nw::meanSquaredError({1.7e308}, {-1.7e308}) == INFINITY);                     // the difference overflows
  }
  SECTION("squares below the smallest double") {
    CHECK(nw::meanSquaredError({3e-160, 0.0}, {0.0, 0.0}) == approx(4.5e-320, 0, 0x1p-1074));
  }
}
