#include "matching/descriptor_matcher.h"

#include "core/check.h"
#include "cuda/device.h"
#include "matching/cpu_descriptor_matcher.h"
#include "matching/gpu_descriptor_matcher.h"

namespace proj {

void DescriptorMatchOptions::Check() const {
  PROJ_REQUIRE(max_ratio > 0 && max_ratio <= 1, "matching ratio must be in (0, 1]");
  PROJ_REQUIRE(num_threads >= 0, "--threads must be >= 0");
}

std::unique_ptr<DescriptorMatcher> CreateDescriptorMatcher(const DescriptorMatchOptions& options) {
  options.Check();
  PROJ_REQUIRE(options.device != ComputeDevice::kGpu || cuda::DeviceAvailable(),
               "--device gpu was requested but no GPU is usable: " << cuda::DeviceDescription());
  if (options.device == ComputeDevice::kGpu ||
      (options.device == ComputeDevice::kAuto && cuda::DeviceAvailable())) {
    return CreateGpuDescriptorMatcher(options);
  }
  return std::make_unique<CpuDescriptorMatcher>(options);
}

}  // namespace proj
