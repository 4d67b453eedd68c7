// Built when nvcc is absent: the program runs on the CPU only.
#include "cuda/device.h"

namespace proj::cuda {

bool BuiltWithCuda() { return false; }
bool DeviceAvailable() { return false; }
int DeviceCount() { return 0; }
std::string DeviceDescription() { return "built without CUDA support"; }
std::string DeviceDescription(int) { return "built without CUDA support"; }

}  // namespace proj::cuda
