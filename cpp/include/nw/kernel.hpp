// The attention kernels K(d), d = (query - key) w; the weights are K(d_i) / sum_j K(d_j). The Kernel
// enum and its names are in options.hpp.
#pragma once

#include "nw/options.hpp"

namespace nw {

// K(d) itself, unshifted (for plots of the kernels). Throws nw::Error (not-finite, naming `d`) unless d
// is finite.
double kernelValue(Kernel kernel, double d);

}  // namespace nw
