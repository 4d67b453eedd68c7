#include "features/sift/sift_extractor_factory.h"

#include "cuda/device.h"
#include "features/sift/gpu_sift_extractor.h"
#include "features/sift/sift_cpu.h"

namespace proj {

std::unique_ptr<FeatureExtractor> CreateSiftExtractor(const FeatureOptions& options) {
  options.Check();
  const bool gpu = options.device == ComputeDevice::kGpu ||
                   (options.device == ComputeDevice::kAuto && cuda::DeviceAvailable());
  if (gpu) return std::make_unique<GpuSiftExtractor>(options);
  return std::make_unique<CpuSiftExtractor>(options);
}

}  // namespace proj
