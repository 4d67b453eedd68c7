#include "features/gpu_fallback_extractor.h"

namespace proj {

GpuFallbackExtractor::GpuFallbackExtractor(const Factory& make_gpu, Factory make_cpu)
    : extractors_("feature extraction", make_gpu, std::move(make_cpu)) {}

GpuFallbackExtractor::GpuFallbackExtractor(const std::vector<int>& devices,
                                           const DeviceFactory& make_gpu, Factory make_cpu)
    : extractors_("feature extraction", devices, make_gpu, std::move(make_cpu)) {}

FeatureSet GpuFallbackExtractor::Extract(const GrayImage& image) {
  return extractors_.Run([&](FeatureExtractor& extractor) { return extractor.Extract(image); });
}

int GpuFallbackExtractor::ConcurrentCalls() const {
  const int devices = extractors_.NumWorkingDevices();
  return devices > 0 ? devices : extractors_.Current().ConcurrentCalls();
}

std::string GpuFallbackExtractor::Description() const {
  const std::string description = extractors_.Current().Description();
  return extractors_.NumWorkingDevices() > 0 ? description + OnGpusSuffix(extractors_.devices())
                                             : description;
}

}  // namespace proj
