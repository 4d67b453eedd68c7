// A DescriptorMatcher over a GPU matcher that falls back to the CPU matcher when the GPU
// fails (cuda/gpu_fallback.h): the block of pairs it failed on is matched again on the CPU,
// and so is every later block of the stage.
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
  GpuFallbackMatcher(const Factory& make_gpu, Factory make_cpu);
  // The GPU matcher reports progress once its block is done, so a block redone on the CPU
  // is not counted twice.
  std::vector<std::vector<FeatureMatch>> MatchPairs(const std::vector<FeatureSet>& features,
                                                    const std::vector<ImagePair>& pairs,
                                                    Progress* progress) override;
  std::string Description() const override;
  const cuda::GpuFallback& fallback() const { return matchers_.fallback(); }

 private:
  mutable cuda::GpuWithCpuFallback<DescriptorMatcher> matchers_;
};

}  // namespace proj
