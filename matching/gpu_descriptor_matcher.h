// DescriptorMatcher on a CUDA device (cuda/matching/descriptor_matcher_gpu.h): RootSIFT in
// FP16, fused tensor-core best-two search, ratio test and mutual cross-check on the device,
// many pairs per launch. Same matching rule as CpuDescriptorMatcher; results can differ
// from it only where FP16 rounding flips a near tie.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "matching/descriptor_matcher.h"

namespace proj {

namespace cuda {
class DescriptorMatcherGpu;
}  // namespace cuda

class GpuDescriptorMatcher : public DescriptorMatcher {
 public:
  // On CUDA device `device`. Throws InputError without a usable device.
  explicit GpuDescriptorMatcher(const DescriptorMatchOptions& options, int device = 0);
  ~GpuDescriptorMatcher() override;
  using DescriptorMatcher::MatchPairs;
  // Uploads the descriptors of every image that appears in `pairs` once, then matches the
  // pairs in batches of kPairsPerBatch (progress advances per batch).
  std::vector<std::vector<FeatureMatch>> MatchPairs(const FeatureSetViews& features,
                                                    const std::vector<ImagePair>& pairs,
                                                    Progress* progress) override;
  std::string Description() const override;

  static constexpr int kPairsPerBatch = 512;

 private:
  DescriptorMatchOptions options_;
  std::unique_ptr<cuda::DescriptorMatcherGpu> matcher_;
};

// The factory CreateDescriptorMatcher calls for the GPU (throws InputError without one).
std::unique_ptr<DescriptorMatcher> CreateGpuDescriptorMatcher(const DescriptorMatchOptions& options,
                                                              int device = 0);

}  // namespace proj
