#include "approx.hpp"
#include "nw/metrics.hpp"

TEST_CASE("mean squared error", "[metrics]") {
  CHECK(nw::meanSquaredError({1.0, 2.0, 3.0}, {1.0, 2.0, 3.0}) == 0.0);
  CHECK(nw::meanSquaredError({1.0, 4.0}, {0.0, 2.0}) == 2.5);  // (1 + 4) / 2
  CHECK_THROWS_WITH(nw::meanSquaredError({1.0}, {1.0, 2.0}), "truth must have the same length as predicted (1), got 2");
  CHECK_THROWS_WITH(nw::meanSquaredError({}, {}), "predicted must not be empty");
}
