#include "features/feature_extractor.h"

#include "core/check.h"
#include "cuda/device_selection.h"
#include "features/opencv_sift_extractor.h"
#include "features/sift/sift_extractor_factory.h"

namespace proj {

void FeatureOptions::Check() const {
  PROJ_REQUIRE(selection.max_features > 0,
               "--max-features must be positive (got " << selection.max_features << ")");
  PROJ_REQUIRE(num_threads >= 0, "--threads must be >= 0 (got " << num_threads << ")");
  PROJ_REQUIRE(selection.upsample >= -1 && selection.upsample <= 1,
               "FeatureOptions.upsample must be -1, 0 or 1");
  PROJ_REQUIRE(trilateral_sigma_c >= 0, "--trilateral sigma must be >= 0");
  SelectGpus(device, gpus);  // --device gpu without a usable GPU, bad --gpus are refused here
}

std::unique_ptr<FeatureExtractor> CreateFeatureExtractor(const FeatureOptions& options) {
  options.Check();
  switch (options.type) {
    case FeatureType::kOpenCvSift:
      PROJ_REQUIRE(options.device != ComputeDevice::kGpu,
                   "--features opencv-sift runs on the CPU only; use --features sift for the GPU");
      PROJ_REQUIRE(options.scale_space == ScaleSpaceType::kGaussian,
                   "--scale-space trilateral needs --features sift");
      return std::make_unique<OpenCvSiftExtractor>(options);
    case FeatureType::kSift:
      return CreateSiftExtractor(options);
  }
  PROJ_CHECK(false, "unhandled feature type");
  return nullptr;
}

}  // namespace proj
