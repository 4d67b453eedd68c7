// Brute-force nearest-neighbour matching on the CPU: best two neighbours per descriptor by dot
// products (matching/nearest_two.h: an AVX2/FMA kernel where the CPU has it, a blocked Eigen
// GEMM otherwise), Lowe's ratio test, mutual cross-check.
// Pairs run in parallel on options.num_threads threads.
#pragma once

#include "matching/descriptor_matcher.h"
#include "matching/root_sift.h"

namespace proj {

class CpuDescriptorMatcher : public DescriptorMatcher {
 public:
  explicit CpuDescriptorMatcher(const DescriptorMatchOptions& options);
  using DescriptorMatcher::MatchPairs;
  std::vector<std::vector<FeatureMatch>> MatchPairs(const FeatureSetViews& features,
                                                    const std::vector<ImagePair>& pairs,
                                                    Progress* progress) override;
  std::string Description() const override { return "brute force (cpu)"; }

 private:
  DescriptorMatchOptions options_;
};

// Matches two sets of unit-norm descriptors (rows). Exposed for tests and the GPU reference.
std::vector<FeatureMatch> MatchDescriptorsCpu(const DescriptorMatrix& descriptors1,
                                              const DescriptorMatrix& descriptors2,
                                              double max_ratio, bool cross_check);

}  // namespace proj
