// The attention kernels K(d), d = (query - key) w; the weights are K(d_i) / sum_j K(d_j).
#pragma once

#include <string>
#include <vector>

namespace nw {

enum class Kernel {
  gaussian,      // exp(-d^2 / 2), the chapter's
  boxcar,        // 1 if |d| < 1, else 0
  constant,      // 1: exactly average pooling
  epanechnikov,  // max(0, 1 - d^2)
  triangular,    // max(0, 1 - |d|)
};

// Throws nw::Error naming the parameter `kernel` for an unknown name.
Kernel parseKernel(const std::string& name);
const char* kernelName(Kernel kernel);
// Every kernel, in the order of the enum.
const std::vector<Kernel>& allKernels();
// A kernel whose weights change smoothly with w, so gradient descent can learn w.
bool isTrainable(Kernel kernel);
// K(d) itself, unshifted (for plots of the kernels).
double kernelValue(Kernel kernel, double d);

}  // namespace nw
