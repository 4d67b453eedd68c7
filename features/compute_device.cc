#include "features/compute_device.h"

#include "core/check.h"
#include "cuda/device.h"

namespace proj {

bool UseGpu(ComputeDevice device, const std::string& what) {
  switch (device) {
    case ComputeDevice::kCpu:
      return false;
    case ComputeDevice::kGpu:
      PROJ_REQUIRE(cuda::DeviceAvailable(),
                   what << " was requested but no GPU is usable: " << cuda::DeviceDescription());
      return true;
    case ComputeDevice::kAuto:
      return cuda::DeviceAvailable();
  }
  PROJ_CHECK(false, "unhandled compute device");
  return false;
}

std::string ComputeDeviceSummary(ComputeDevice device) {
  return UseGpu(device) ? "gpu: " + cuda::DeviceDescription() : "cpu";
}

}  // namespace proj
