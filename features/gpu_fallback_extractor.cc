#include "features/gpu_fallback_extractor.h"

namespace proj {

GpuFallbackExtractor::GpuFallbackExtractor(const Factory& make_gpu, Factory make_cpu)
    : extractors_("feature extraction", make_gpu, std::move(make_cpu)) {}

FeatureSet GpuFallbackExtractor::Extract(const GrayImage& image) {
  return extractors_.Run([&](FeatureExtractor& extractor) { return extractor.Extract(image); });
}

int GpuFallbackExtractor::ConcurrentCalls() const { return extractors_.Current().ConcurrentCalls(); }

std::string GpuFallbackExtractor::Description() const { return extractors_.Current().Description(); }

}  // namespace proj
