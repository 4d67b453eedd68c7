#include "features/sift/gpu_sift_extractor.h"

#include <algorithm>
#include <utility>

#include "core/check.h"

namespace proj {

cuda::SiftGpuOptions MakeSiftGpuOptions(const SiftParams& params, const FeatureOptions& options) {
  cuda::SiftGpuOptions gpu;
  gpu.levels_per_octave = params.levels_per_octave;
  gpu.sigma0 = params.sigma0;
  gpu.assumed_blur = params.assumed_blur;
  gpu.min_octave_size_px = params.min_octave_size_px;
  gpu.peak_threshold = params.peak_threshold;
  gpu.prefilter_ratio = params.prefilter_ratio;
  gpu.edge_test = params.edge_test;
  gpu.edge_ratio = params.edge_ratio;
  gpu.max_refinement_steps = params.max_refinement_steps;
  gpu.orientation_window_factor = params.orientation_window_factor;
  gpu.orientation_peak_ratio = params.orientation_peak_ratio;
  gpu.max_orientations = params.max_orientations;
  gpu.descriptor_magnification = params.descriptor_magnification;
  gpu.selection = params.selection;
  gpu.max_candidates = std::max(gpu.max_candidates, 4 * params.selection.max_features);
  gpu.scale_space = options.scale_space == ScaleSpaceType::kTrilateral
                        ? cuda::SiftGpuScaleSpace::kTrilateral
                        : cuda::SiftGpuScaleSpace::kGaussian;
  gpu.trilateral_sigma_c = static_cast<float>(options.trilateral_sigma_c);
  return gpu;
}

FeatureSet ToFeatureSet(cuda::SiftGpuResult&& result) {
  FeatureSet features;
  features.keypoints.resize(result.keypoints.size());
  for (size_t i = 0; i < result.keypoints.size(); ++i) {
    const cuda::SiftGpuKeypoint& in = result.keypoints[i];
    Keypoint& out = features.keypoints[i];
    out.x = in.x;
    out.y = in.y;
    out.scale = in.scale;
    out.orientation = in.orientation;
    out.response = in.response;
    out.octave = in.octave;
  }
  features.descriptors = std::move(result.descriptors);
  return features;
}

GpuSiftExtractor::GpuSiftExtractor(const FeatureOptions& options, int device) : options_(options) {
  options_.Check();
  SiftParams params;
  params.selection = options.selection;
  params.edge_test = options.edge_test;
  sift_ = std::make_unique<cuda::SiftGpu>(MakeSiftGpuOptions(params, options), device);
}

FeatureSet GpuSiftExtractor::Extract(const GrayImage& image) {
  PROJ_REQUIRE(image.width > 0 && image.height > 0 &&
                   image.pixels.size() == static_cast<size_t>(image.width) * image.height,
               "SIFT input image is empty or inconsistent (" << image.width << "x"
                                                             << image.height << ")");
  cuda::ImageView view;
  view.pixels = image.pixels.data();
  view.width = image.width;
  view.height = image.height;
  std::lock_guard<std::mutex> lock(mutex_);
  return ToFeatureSet(sift_->Extract(view));
}

std::string GpuSiftExtractor::Description() const {
  return std::string("sift (gpu: ") + sift_->DeviceName() +
         (options_.scale_space == ScaleSpaceType::kTrilateral ? ", trilateral)" : ")");
}

}  // namespace proj
