#include "matching/gpu_fallback_matcher.h"

#include <algorithm>

#include "core/compute_device.h"

namespace proj {

GpuFallbackMatcher::GpuFallbackMatcher(const Factory& make_gpu, Factory make_cpu)
    : matchers_("descriptor matching", make_gpu, std::move(make_cpu)) {}

GpuFallbackMatcher::GpuFallbackMatcher(const std::vector<int>& devices, const DeviceFactory& make_gpu,
                                       Factory make_cpu)
    : matchers_("descriptor matching", devices, make_gpu, std::move(make_cpu)) {}

std::vector<std::vector<FeatureMatch>> GpuFallbackMatcher::MatchPairs(
    const FeatureSetViews& features, const std::vector<ImagePair>& pairs, Progress* progress) {
  return matchers_.Run(
      [&](DescriptorMatcher& gpu) {
        auto matches = gpu.MatchPairs(features, pairs, nullptr);
        if (progress != nullptr) progress->Advance(static_cast<int>(pairs.size()));
        return matches;
      },
      [&](DescriptorMatcher& cpu) { return cpu.MatchPairs(features, pairs, progress); });
}

int GpuFallbackMatcher::ConcurrentCalls() const { return std::max(1, matchers_.NumWorkingDevices()); }

std::string GpuFallbackMatcher::Description() const {
  const std::string description = matchers_.Current().Description();
  return matchers_.NumWorkingDevices() > 0 ? description + OnGpusSuffix(matchers_.devices())
                                           : description;
}

}  // namespace proj
