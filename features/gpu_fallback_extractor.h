// A FeatureExtractor over a GPU extractor that falls back to the CPU one computing the same
// features when the GPU fails (cuda/gpu_fallback.h): the image it failed on is extracted
// again on the CPU, and so is every later image of the stage.
#pragma once

#include <memory>
#include <string>

#include "cuda/gpu_fallback.h"
#include "features/feature_extractor.h"

namespace proj {

class GpuFallbackExtractor final : public FeatureExtractor {
 public:
  using Factory = cuda::GpuWithCpuFallback<FeatureExtractor>::Factory;
  GpuFallbackExtractor(const Factory& make_gpu, Factory make_cpu);
  FeatureSet Extract(const GrayImage& image) override;
  // Of the implementation in use when asked (the stage asks once, at its start).
  int ConcurrentCalls() const override;
  std::string Description() const override;
  const cuda::GpuFallback& fallback() const { return extractors_.fallback(); }

 private:
  mutable cuda::GpuWithCpuFallback<FeatureExtractor> extractors_;
};

}  // namespace proj
