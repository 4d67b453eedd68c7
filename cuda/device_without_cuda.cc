// Built when nvcc is absent: the program runs on the CPU only.
#include "cuda/device.h"

namespace proj::cuda {

bool BuiltWithCuda() { return false; }
bool DeviceAvailable() { return false; }
std::string DeviceDescription() { return "built without CUDA support"; }

}  // namespace proj::cuda
