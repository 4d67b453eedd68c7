// The project's SIFT on the CPU: the readable reference the CUDA implementation
// (cuda/sift/sift_gpu.h) is tested against. Pipeline: scale space (scale_space.h) ->
// extrema and refinement (sift_detector.h) -> the max_features strongest detections by
// response -> orientations (up to 4 keypoints per detection) -> the max_features strongest
// keypoints (stable: ties keep detection order) -> descriptors (sift_descriptor.h).
#pragma once

#include <memory>
#include <string>

#include "features/feature_extractor.h"
#include "features/feature_types.h"
#include "features/sift/scale_space.h"
#include "features/sift/sift_params.h"

namespace proj {

// Extracts SIFT features of `image` (values in [0, 1]) on `num_threads` threads (0 = all).
// Deterministic: the same input gives the same output for any thread count.
FeatureSet ExtractSiftCpu(const GrayImage& image, const SiftParams& params,
                          const LevelSmoother& smoother, int num_threads);

// FeatureExtractor on the CPU. Thread-safe: ConcurrentCalls() calls (options.num_threads)
// may run at once, which is how the pipeline feeds it many images. Each call spreads its
// loops over options.num_threads threads too: while images run side by side the cores are
// shared, and the last image of a batch gets the cores the others left (fountain-P11, 11
// images on 2 cores: extraction 4.1 instead of 4.3 s). The features do not depend on it.
class CpuSiftExtractor : public FeatureExtractor {
 public:
  explicit CpuSiftExtractor(const FeatureOptions& options);
  FeatureSet Extract(const GrayImage& image) override;
  int ConcurrentCalls() const override;
  std::string Description() const override;

 private:
  FeatureOptions options_;
  LevelSmoother smoother_;
};

}  // namespace proj
