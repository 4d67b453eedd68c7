#include "matching/gpu_fallback_matcher.h"

namespace proj {

GpuFallbackMatcher::GpuFallbackMatcher(const Factory& make_gpu, Factory make_cpu)
    : matchers_("descriptor matching", make_gpu, std::move(make_cpu)) {}

std::vector<std::vector<FeatureMatch>> GpuFallbackMatcher::MatchPairs(
    const std::vector<FeatureSet>& features, const std::vector<ImagePair>& pairs, Progress* progress) {
  return matchers_.Run(
      [&](DescriptorMatcher& gpu) {
        auto matches = gpu.MatchPairs(features, pairs, nullptr);
        if (progress != nullptr) progress->Advance(static_cast<int>(pairs.size()));
        return matches;
      },
      [&](DescriptorMatcher& cpu) { return cpu.MatchPairs(features, pairs, progress); });
}

std::string GpuFallbackMatcher::Description() const { return matchers_.Current().Description(); }

}  // namespace proj
