// Exact references for the benchmark, in long double (64-bit mantissa on x86): the chapter's formulas
// written out directly, on the same seeded data the module generates (bit-identical in every build).
//   reference predict N SEED W   -> N predictions at the test grid, keys = N training points
//   reference epoch N SEED W     -> the leave-one-out loss and its gradient
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "nw/data.hpp"

namespace {

using Real = long double;

// softmax_i(-((q - k_i) w)^2 / 2) . values, two passes with the max shift, skipping index `skip`.
Real pool(Real q, const std::vector<double>& keys, const std::vector<double>& values, Real w, std::size_t skip,
          Real* dfdw) {
  Real best = -INFINITY;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i == skip) continue;
    const Real d = (q - keys[i]) * w;
    best = std::fmax(best, -d * d / 2);
  }
  Real z = 0, acc = 0, accD2 = 0, accYD2 = 0;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i == skip) continue;
    const Real diff = q - keys[i];
    const Real d = diff * w;
    const Real e = std::exp(-d * d / 2 - best);
    z += e;
    acc += e * values[i];
    accD2 += e * diff * diff;
    accYD2 += e * values[i] * diff * diff;
  }
  const Real f = acc / z;
  if (dfdw) *dfdw = -w * (accYD2 / z - f * accD2 / z);  // -w Cov_alpha(y, d^2)
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: reference predict|epoch N SEED W\n");
    return 2;
  }
  nw::DataSpec spec;
  spec.nTrain = spec.nTest = std::strtoul(argv[2], nullptr, 10);
  spec.seed = std::strtoull(argv[3], nullptr, 10);
  const Real w = std::strtold(argv[4], nullptr);
  const nw::Dataset data = nw::generateData(spec);
  if (std::strcmp(argv[1], "predict") == 0) {
    for (double q : data.xTest) std::printf("%.21Lg\n", pool(q, data.xTrain, data.yTrain, w, data.xTrain.size(), nullptr));
  } else {
    Real loss = 0, grad = 0;
    for (std::size_t j = 0; j < data.xTrain.size(); ++j) {
      Real dfdw = 0;
      const Real r = pool(data.xTrain[j], data.xTrain, data.yTrain, w, j, &dfdw) - data.yTrain[j];
      loss += r * r;
      grad += 2 * r * dfdw;
    }
    std::printf("%.21Lg\n%.21Lg\n", loss, grad);
  }
  return 0;
}
