// TEMPORARY until the project's SIFT lands (issue 3): falls back to OpenCV's SIFT on the CPU.
#include "features/sift/sift_extractor_factory.h"

#include "features/opencv_sift_extractor.h"

namespace proj {

std::unique_ptr<FeatureExtractor> CreateSiftExtractor(const FeatureOptions& options) {
  return std::make_unique<OpenCvSiftExtractor>(options);
}

}  // namespace proj
