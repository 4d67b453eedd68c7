#include "features/sift/sift_extractor_factory.h"

#include "features/sift/gpu_sift_extractor.h"
#include "features/sift/sift_cpu.h"

namespace proj {

std::unique_ptr<FeatureExtractor> CreateSiftExtractor(const FeatureOptions& options) {
  options.Check();
  if (UseGpu(options.device)) return std::make_unique<GpuSiftExtractor>(options);
  return std::make_unique<CpuSiftExtractor>(options);
}

}  // namespace proj
