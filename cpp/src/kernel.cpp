// Kernel names and values.
#include "nw/kernel.hpp"

#include <cmath>

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
  const double a = std::fabs(d);
  switch (kernel) {
    case Kernel::gaussian: return std::exp(-0.5 * a * a);
    case Kernel::boxcar: return a < 1.0 ? 1.0 : 0.0;
    case Kernel::constant: return 1.0;
    case Kernel::epanechnikov: return a < 1.0 ? 1.0 - a * a : 0.0;
    case Kernel::triangular: return a < 1.0 ? 1.0 - a : 0.0;
  }
  return 0.0;
}

}  // namespace nw
