// Kernel values.
#include "nw/kernel.hpp"

#include <cmath>

#include "kernel_rows.hpp"
#include "nw/validate.hpp"

namespace nw {

double kernelValue(Kernel kernel, double d) {
  requireFinite(d, "d");
  // The rows' own kernel definitions, at w = 1 and unshifted (dMin = 0).
  return rows::withKernel(kernel, [&](auto policy) { return decltype(policy)::score(std::fabs(d), 0.0, 1.0); });
}

}  // namespace nw
