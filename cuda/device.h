// Whether a usable CUDA device is present. Host-only header (no CUDA includes).
#pragma once

#include <string>

namespace proj::cuda {

// True when the program was built with the CUDA kernels.
bool BuiltWithCuda();
// True when built with CUDA and at least one device can be used. Never throws.
bool DeviceAvailable();
// "NVIDIA H100 80GB HBM3 (sm_90, 79 GiB)" or the reason no device is usable.
std::string DeviceDescription();

}  // namespace proj::cuda
