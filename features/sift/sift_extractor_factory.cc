#include "features/sift/sift_extractor_factory.h"

#include "features/gpu_fallback_extractor.h"
#include "features/sift/gpu_sift_extractor.h"
#include "features/sift/sift_cpu.h"

namespace proj {

std::unique_ptr<FeatureExtractor> CreateSiftExtractor(const FeatureOptions& options) {
  options.Check();
  auto make_cpu = [options]() -> std::unique_ptr<FeatureExtractor> {
    return std::make_unique<CpuSiftExtractor>(options);
  };
  if (!UseGpu(options.device)) return make_cpu();
  return std::make_unique<GpuFallbackExtractor>(
      [&options]() -> std::unique_ptr<FeatureExtractor> { return std::make_unique<GpuSiftExtractor>(options); },
      make_cpu);
}

}  // namespace proj
