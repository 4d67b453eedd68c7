// A FeatureExtractor over GPU extractors, one per device, that falls back to the CPU one
// computing the same features when the GPUs fail (cuda/gpu_fallback.h). Concurrent Extract
// calls spread over the devices, one image per device at a time (ConcurrentCalls() is the
// number of devices); an image a device failed on is extracted again on another device, and
// once no device is left, on the CPU with every later image of the stage.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cuda/gpu_fallback.h"
#include "features/feature_extractor.h"

namespace proj {

class GpuFallbackExtractor final : public FeatureExtractor {
 public:
  using Factory = cuda::GpuWithCpuFallback<FeatureExtractor>::Factory;
  using DeviceFactory = cuda::GpuWithCpuFallback<FeatureExtractor>::DeviceFactory;
  // One GPU.
  GpuFallbackExtractor(const Factory& make_gpu, Factory make_cpu);
  // The GPUs `devices` (CUDA indices).
  GpuFallbackExtractor(const std::vector<int>& devices, const DeviceFactory& make_gpu, Factory make_cpu);
  FeatureSet Extract(const GrayImage& image) override;
  // Of the implementations in use when asked (the stage asks once, at its start): the
  // number of working devices, or the CPU extractor's.
  int ConcurrentCalls() const override;
  // The first working device's extractor's, "... on GPUs 0, 1" with several; the CPU's.
  std::string Description() const override;
  const cuda::GpuFallback& fallback() const { return extractors_.fallback(); }

 private:
  mutable cuda::GpuWithCpuFallback<FeatureExtractor> extractors_;
};

}  // namespace proj
