// SIFT through OpenCV's implementation (features2d): the reference the project's own SIFT
// is compared against, and available to users as `--features opencv-sift`. CPU only.
#pragma once

#include "features/feature_extractor.h"

namespace proj {

class OpenCvSiftExtractor : public FeatureExtractor {
 public:
  explicit OpenCvSiftExtractor(const FeatureOptions& options);
  FeatureSet Extract(const GrayImage& image) override;
  int ConcurrentCalls() const override;
  std::string Description() const override { return "opencv-sift (cpu)"; }

 private:
  FeatureOptions options_;
};

}  // namespace proj
