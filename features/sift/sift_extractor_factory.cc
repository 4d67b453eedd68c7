#include "features/sift/sift_extractor_factory.h"

#include "cuda/device_selection.h"
#include "features/gpu_fallback_extractor.h"
#include "features/sift/gpu_sift_extractor.h"
#include "features/sift/sift_cpu.h"

namespace proj {

std::unique_ptr<FeatureExtractor> CreateSiftExtractor(const FeatureOptions& options) {
  options.Check();
  auto make_cpu = [options]() -> std::unique_ptr<FeatureExtractor> {
    return std::make_unique<CpuSiftExtractor>(options);
  };
  const std::vector<int> devices = SelectGpus(options.device, options.gpus);
  if (devices.empty()) return make_cpu();
  return std::make_unique<GpuFallbackExtractor>(
      devices,
      [&options](int device) -> std::unique_ptr<FeatureExtractor> {
        return std::make_unique<GpuSiftExtractor>(options, device);
      },
      make_cpu);
}

}  // namespace proj
