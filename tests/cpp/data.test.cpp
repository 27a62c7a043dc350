#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "../../cpp/src/spread_sort.hpp"
#include "approx.hpp"
#include "nw/data.hpp"
#include "nw/error.hpp"
#include "nw/validate.hpp"

TEST_CASE("generated data has the chapter's shape", "[data]") {
  const nw::Dataset data = nw::generateData({});

  SECTION("sizes") {
    CHECK(data.xTrain.size() == 50);
    CHECK(data.yTrain.size() == 50);
    CHECK(data.xTest.size() == 50);
    CHECK(data.yTruth.size() == 50);
  }
  SECTION("training inputs are sorted and lie in [0, 5)") {
    CHECK(std::is_sorted(data.xTrain.begin(), data.xTrain.end()));
    CHECK(data.xTrain.front() >= 0.0);
    CHECK(data.xTrain.back() < 5.0);
  }
  SECTION("test queries are the grid 0, 0.1, ..., 4.9 and the truth has no noise") {
    for (std::size_t i = 0; i < 50; ++i) {
      CHECK(data.xTest[i] == approx(0.1 * i, 1e-15, 1e-15));
      CHECK(data.yTruth[i] == approx(2 * std::sin(data.xTest[i]) + std::pow(data.xTest[i], 0.8), 1e-14, 1e-15));
    }
  }
  SECTION("w0 is in [0, 1)") {
    CHECK(data.w0 >= 0.0);
    CHECK(data.w0 < 1.0);
  }
}

TEST_CASE("the target is 2 sin x + x^0.8", "[data]") {
  CHECK(nw::target(0.0) == 0.0);
  CHECK(nw::target(1.0) == approx(2 * std::sin(1.0) + 1.0, 1e-15));
  CHECK(nw::target(4.0) == approx(2 * std::sin(4.0) + std::pow(4.0, 0.8), 1e-14));
  CHECK_THROWS_WITH(nw::target(-1.0), Catch::Contains("x must be"));
}

TEST_CASE("the noise is N(0, noiseSd) over a large sample", "[data]") {
  nw::DataSpec spec;
  spec.nTrain = 200000;
  spec.noiseSd = 0.5;
  spec.seed = 11;
  const nw::Dataset data = nw::generateData(spec);
  double sum = 0, sumSq = 0;
  for (std::size_t i = 0; i < spec.nTrain; ++i) {
    const double e = data.yTrain[i] - nw::target(data.xTrain[i]);
    sum += e;
    sumSq += e * e;
  }
  const double mean = sum / spec.nTrain;
  // Standard error of the mean: 0.5 / sqrt(200000) = 1.1e-3; five of them.
  CHECK(mean == approx(0.0, 0, 5.6e-3));
  CHECK(std::sqrt(sumSq / spec.nTrain - mean * mean) == approx(0.5, 0, 5e-3));
}

TEST_CASE("the same seed gives the same data and another seed other data", "[data]") {
  nw::DataSpec spec;
  spec.seed = 123;
  const nw::Dataset a = nw::generateData(spec);
  const nw::Dataset b = nw::generateData(spec);
  spec.seed = 124;
  const nw::Dataset c = nw::generateData(spec);
  CHECK(a.xTrain == b.xTrain);
  CHECK(a.yTrain == b.yTrain);
  CHECK(a.w0 == b.w0);
  CHECK(a.xTrain != c.xTrain);
}

TEST_CASE("other ranges and sizes keep the grid and the bounds", "[data]") {
  nw::DataSpec spec;
  spec.nTrain = 7;
  spec.nTest = 4;
  spec.xMin = 2.0;
  spec.xMax = 3.0;
  spec.noiseSd = 0.0;
  const nw::Dataset data = nw::generateData(spec);
  CHECK(data.xTest == std::vector<double>{2.0, 2.25, 2.5, 2.75});
  for (std::size_t i = 0; i < 7; ++i) {
    CHECK(data.xTrain[i] >= 2.0);
    CHECK(data.xTrain[i] < 3.0);
    CHECK(data.yTrain[i] == nw::target(data.xTrain[i]));  // no noise
  }
}

TEST_CASE("invalid data specs are rejected with the parameter's name", "[data][validation]") {
  nw::DataSpec spec;
  spec.nTrain = 0;
  CHECK_THROWS_WITH(nw::generateData(spec), Catch::StartsWith("nTrain must be an integer from 1"));
  spec = {};
  spec.nTest = nw::kMaxSamples + 1;
  CHECK_THROWS_WITH(nw::generateData(spec), Catch::StartsWith("nTest must be an integer"));
  spec = {};
  spec.noiseSd = -0.1;
  CHECK_THROWS_WITH(nw::generateData(spec), Catch::StartsWith("noiseSd must be a finite number >= 0, got -0.1"));
  spec = {};
  spec.noiseSd = NAN;
  CHECK_THROWS_WITH(nw::generateData(spec), Catch::StartsWith("noiseSd must be") && Catch::EndsWith("NaN"));
  spec = {};
  spec.xMin = -1;
  CHECK_THROWS_WITH(nw::generateData(spec), Catch::StartsWith("xMin must be"));
  spec = {};
  spec.xMax = 0;
  CHECK_THROWS_WITH(nw::generateData(spec), Catch::StartsWith("xMax must be greater than xMin"));
  CHECK_THROWS_AS(nw::generateData(spec), nw::Error);
}

TEST_CASE("numbers in messages read as JavaScript prints them", "[validation]") {
  CHECK(nw::describeNumber(1e9) == "1000000000");
  CHECK(nw::describeNumber(-5) == "-5");
  CHECK(nw::describeNumber(0.1) == "0.1");
  CHECK(nw::describeNumber(1.5e-7) == "1.5e-7");
  CHECK(nw::describeNumber(1e300) == "1e+300");
  CHECK(nw::describeNumber(NAN) == "NaN");
  CHECK(nw::describeNumber(-INFINITY) == "-Infinity");
}

TEST_CASE("sortSpreadValues sorts as std::sort does, whatever the values' spread", "[data]") {
  // Even draws (generateData's), clumps, a single repeated value, two values, descending runs, values
  // on the range's ends, and sizes around the bucket count's edges; compared bit for bit.
  std::mt19937_64 random(21);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (std::size_t n : {0, 1, 7, 8, 9, 100, 4097, 100000}) {
    for (int kind = 0; kind < 6; ++kind) {
      const double lo = kind == 5 ? 1e-300 : 2.0, hi = kind == 5 ? 3e-300 : 7.0;
      std::vector<double> values(n);
      for (std::size_t i = 0; i < n; ++i) {
        const double u = unit(random);
        switch (kind) {
          case 0: values[i] = lo + (hi - lo) * u; break;
          case 1: values[i] = lo + (hi - lo) * (i % 3 == 0 ? 0.5 + 1e-9 * u : u * u * u * u); break;
          case 2: values[i] = 3.0; break;
          case 3: values[i] = u < 0.5 ? lo : hi; break;
          case 4: values[i] = hi - (hi - lo) * static_cast<double>(i % 1000) / 1000.0; break;
          default: values[i] = lo + (hi - lo) * u; break;
        }
      }
      std::vector<double> expected = values;
      std::sort(expected.begin(), expected.end());
      nw::sortSpreadValues(values, lo, hi);
      CAPTURE(n, kind);
      CHECK(values == expected);
    }
  }
}
