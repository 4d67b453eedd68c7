// Built when nvcc is absent: the program runs on the CPU only.
#include "cuda/device.h"

#include "cuda/gpu_error.h"

namespace proj::cuda {

bool BuiltWithCuda() { return false; }
bool DeviceAvailable() { return false; }
int DeviceCount() { return 0; }
std::string DeviceDescription() { return "built without CUDA support"; }
std::string DeviceDescription(int) { return "built without CUDA support"; }

void SetCurrentDevice(int device) {
  throw GpuError(0, "cudaErrorNoDevice", "built without CUDA support", "SetCurrentDevice(" + std::to_string(device) + ")",
                 __FILE__);
}

}  // namespace proj::cuda
