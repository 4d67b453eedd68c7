// Descriptor matching interface: CPU brute force and the GPU matcher implement it. A batch
// interface (many pairs per call) so a GPU implementation can match one image against many.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/progress.h"
#include "features/feature_extractor.h"
#include "features/feature_types.h"
#include "matching/matching_types.h"

namespace proj {

struct DescriptorMatchOptions {
  double max_ratio = 0.8;    // Lowe's ratio test on L2 distances (best / second best)
  bool cross_check = true;   // keep only mutual nearest neighbours
  bool root_sift = true;     // compare RootSIFT (L1 normalise, square root), as COLMAP does
  int num_threads = 0;       // CPU threads; 0 = all
  ComputeDevice device = ComputeDevice::kAuto;
  GpuSelection gpus;         // GPUs matching spreads over (all visible by default)
  void Check() const;
};

// Features of the images of a batch, not owned (none null).
using FeatureSetViews = std::vector<const FeatureSet*>;
FeatureSetViews ViewsOf(const std::vector<FeatureSet>& features);

class DescriptorMatcher {
 public:
  virtual ~DescriptorMatcher() = default;
  // Matches every pair; result[i] holds the matches of pairs[i]. `*features[k]` are the
  // features of image k; only their descriptors are read (the keypoints may be left out).
  // `progress` (may be null) advances by one per pair.
  virtual std::vector<std::vector<FeatureMatch>> MatchPairs(const FeatureSetViews& features,
                                                            const std::vector<ImagePair>& pairs,
                                                            Progress* progress) = 0;
  // The same for features held by value.
  std::vector<std::vector<FeatureMatch>> MatchPairs(const std::vector<FeatureSet>& features,
                                                    const std::vector<ImagePair>& pairs,
                                                    Progress* progress) {
    return MatchPairs(ViewsOf(features), pairs, progress);
  }
  // How many MatchPairs calls may run at once, each worth its own thread: one per GPU of a
  // matcher spread over several (thread-safe then); 1 otherwise (the CPU matcher uses its
  // threads inside one call).
  virtual int ConcurrentCalls() const { return 1; }
  virtual std::string Description() const = 0;
};

// GPU (on the GPUs of options.gpus) when options.device asks for (or auto finds) one, CPU
// otherwise.
std::unique_ptr<DescriptorMatcher> CreateDescriptorMatcher(const DescriptorMatchOptions& options);

}  // namespace proj
