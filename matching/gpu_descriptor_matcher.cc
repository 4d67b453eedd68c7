#include "matching/gpu_descriptor_matcher.h"

#include <algorithm>
#include <utility>

#include "core/check.h"
#include "cuda/matching/descriptor_matcher_gpu.h"

namespace proj {

GpuDescriptorMatcher::GpuDescriptorMatcher(const DescriptorMatchOptions& options, int device)
    : options_(options) {
  options_.Check();
  matcher_ = std::make_unique<cuda::DescriptorMatcherGpu>(device);
}

GpuDescriptorMatcher::~GpuDescriptorMatcher() = default;

std::vector<std::vector<FeatureMatch>> GpuDescriptorMatcher::MatchPairs(
    const FeatureSetViews& features, const std::vector<ImagePair>& pairs, Progress* progress) {
  const int num_images = static_cast<int>(features.size());
  std::vector<int> set_of_image(num_images, -1);
  matcher_->Clear();
  for (const ImagePair& pair : pairs) {
    PROJ_REQUIRE(pair.image1 >= 0 && pair.image1 < num_images && pair.image2 >= 0 &&
                     pair.image2 < num_images,
                 "image pair (" << pair.image1 << ", " << pair.image2 << ") outside the "
                                << num_images << " images");
    for (int image : {pair.image1, pair.image2}) {
      if (set_of_image[image] >= 0) continue;
      const FeatureSet& f = *features[image];
      PROJ_REQUIRE(f.descriptors.size() % kSiftDescriptorSize == 0 &&
                       (f.keypoints.empty() || f.num_descriptors() == f.size()),
                   "image " << image << ": descriptors do not match its keypoints");
      set_of_image[image] =
          matcher_->AddDescriptors(f.descriptors.data(), f.num_descriptors(), options_.root_sift);
    }
  }
  cuda::GpuMatchOptions gpu_options;
  gpu_options.max_ratio = static_cast<float>(options_.max_ratio);
  gpu_options.cross_check = options_.cross_check;
  std::vector<std::vector<FeatureMatch>> result(pairs.size());
  for (size_t begin = 0; begin < pairs.size(); begin += kPairsPerBatch) {
    const size_t end = std::min(pairs.size(), begin + kPairsPerBatch);
    std::vector<std::pair<int, int>> batch;
    for (size_t p = begin; p < end; ++p) {
      batch.emplace_back(set_of_image[pairs[p].image1], set_of_image[pairs[p].image2]);
    }
    const auto matches = matcher_->MatchPairs(batch, gpu_options);
    for (size_t p = begin; p < end; ++p) {
      auto& out = result[p];
      out.reserve(matches[p - begin].size());
      for (const cuda::GpuMatch& m : matches[p - begin]) out.push_back({m.index1, m.index2});
    }
    if (progress != nullptr) progress->Advance(static_cast<int>(end - begin));
  }
  matcher_->Clear();
  return result;
}

std::string GpuDescriptorMatcher::Description() const {
  return "brute force (gpu: " + matcher_->DeviceName() + ")";
}

std::unique_ptr<DescriptorMatcher> CreateGpuDescriptorMatcher(const DescriptorMatchOptions& options,
                                                              int device) {
  return std::make_unique<GpuDescriptorMatcher>(options, device);
}

}  // namespace proj
