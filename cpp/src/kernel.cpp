// Kernel names and values.
#include "nw/kernel.hpp"

#include <cmath>

#include "kernel_rows.hpp"
#include "nw/error.hpp"

namespace nw {
const std::vector<Kernel>& allKernels() {
  static const std::vector<Kernel> kernels{Kernel::gaussian, Kernel::boxcar, Kernel::constant,
                                           Kernel::epanechnikov, Kernel::triangular};
  return kernels;
}

const char* kernelName(Kernel kernel) {
  switch (kernel) {
    case Kernel::gaussian: return "gaussian";
    case Kernel::boxcar: return "boxcar";
    case Kernel::constant: return "constant";
    case Kernel::epanechnikov: return "epanechnikov";
    case Kernel::triangular: return "triangular";
  }
  return "gaussian";
}

Kernel parseKernel(const std::string& name) {
  for (Kernel k : allKernels()) {
    if (name == kernelName(k)) return k;
  }
  throw Error("kernel must be one of gaussian, boxcar, constant, epanechnikov, triangular, got '" +
              name.substr(0, 40) + "'");
}

bool isTrainable(Kernel kernel) {
  return kernel == Kernel::gaussian || kernel == Kernel::epanechnikov || kernel == Kernel::triangular;
}

double kernelValue(Kernel kernel, double d) {
  // The rows' own kernel definitions, at w = 1 and unshifted (dMin = 0).
  return rows::withKernel(kernel, [&](auto policy) { return decltype(policy)::score(std::fabs(d), 0.0, 1.0); });
}

}  // namespace nw
