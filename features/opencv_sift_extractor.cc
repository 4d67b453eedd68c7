#include "features/opencv_sift_extractor.h"

#include <algorithm>
#include <cmath>

#include <opencv2/core.hpp>
#include <opencv2/features2d.hpp>

#include "core/parallel_for.h"

namespace proj {

OpenCvSiftExtractor::OpenCvSiftExtractor(const FeatureOptions& options) : options_(options) {}

int OpenCvSiftExtractor::ConcurrentCalls() const { return ResolveNumThreads(options_.num_threads); }

FeatureSet OpenCvSiftExtractor::Extract(const GrayImage& image) {
  // OpenCV 4.6 SIFT takes 8-bit images only (its thresholds assume [0, 255]).
  cv::Mat grey(image.height, image.width, CV_32F, const_cast<float*>(image.pixels.data()));
  cv::Mat scaled;
  grey.convertTo(scaled, CV_8U, 255.0);
  auto sift = cv::SIFT::create(options_.selection.max_features);
  std::vector<cv::KeyPoint> cv_keypoints;
  cv::Mat descriptors;
  sift->detectAndCompute(scaled, cv::noArray(), cv_keypoints, descriptors);

  FeatureSet features;
  const int count = static_cast<int>(cv_keypoints.size());
  features.keypoints.resize(count);
  features.descriptors.resize(static_cast<size_t>(count) * kSiftDescriptorSize);
  for (int i = 0; i < count; ++i) {
    const cv::KeyPoint& kp = cv_keypoints[i];
    Keypoint& out = features.keypoints[i];
    out.x = kp.pt.x + 0.5f;  // OpenCV puts pixel centres at integers
    out.y = kp.pt.y + 0.5f;
    out.scale = kp.size / 2.0f;
    out.orientation = static_cast<float>(kp.angle * M_PI / 180.0);
    out.response = kp.response;
    out.octave = static_cast<int8_t>(kp.octave & 0xFF);
    const float* row = descriptors.ptr<float>(i);
    for (int d = 0; d < kSiftDescriptorSize; ++d) {
      features.descriptors[static_cast<size_t>(i) * kSiftDescriptorSize + d] =
          static_cast<uint8_t>(std::min(255.0f, std::round(row[d])));
    }
  }
  return features;
}

}  // namespace proj
