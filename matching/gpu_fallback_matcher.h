// A DescriptorMatcher over GPU matchers, one per device, that falls back to the CPU matcher
// when the GPUs fail (cuda/gpu_fallback.h). Concurrent MatchPairs calls spread over the
// devices, one block of pairs per device at a time (ConcurrentCalls() is the number of
// devices); a block a device failed on is matched again on another device, and once no
// device is left, on the CPU with every later block of the stage.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cuda/gpu_fallback.h"
#include "matching/descriptor_matcher.h"

namespace proj {

class GpuFallbackMatcher final : public DescriptorMatcher {
 public:
  using Factory = cuda::GpuWithCpuFallback<DescriptorMatcher>::Factory;
  using DeviceFactory = cuda::GpuWithCpuFallback<DescriptorMatcher>::DeviceFactory;
  // One GPU.
  GpuFallbackMatcher(const Factory& make_gpu, Factory make_cpu);
  // The GPUs `devices` (CUDA indices).
  GpuFallbackMatcher(const std::vector<int>& devices, const DeviceFactory& make_gpu, Factory make_cpu);
  using DescriptorMatcher::MatchPairs;
  // A GPU matcher reports progress once its block is done, so a block redone elsewhere is
  // not counted twice.
  std::vector<std::vector<FeatureMatch>> MatchPairs(const FeatureSetViews& features,
                                                    const std::vector<ImagePair>& pairs,
                                                    Progress* progress) override;
  // The number of working devices (1 once on the CPU).
  int ConcurrentCalls() const override;
  std::string Description() const override;
  const cuda::GpuFallback& fallback() const { return matchers_.fallback(); }

 private:
  mutable cuda::GpuWithCpuFallback<DescriptorMatcher> matchers_;
};

}  // namespace proj
