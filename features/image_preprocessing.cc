#include "features/image_preprocessing.h"

#include <algorithm>
#include <cmath>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "core/check.h"

namespace proj {

GrayImage ToGrayImage(const Image& image) {
  PROJ_CHECK(image.channels == 1 || image.channels == 3, "unsupported channel count");
  GrayImage grey;
  grey.width = image.width;
  grey.height = image.height;
  const size_t count = static_cast<size_t>(image.width) * image.height;
  grey.pixels.resize(count);
  if (image.channels == 1) {
    for (size_t i = 0; i < count; ++i) grey.pixels[i] = image.data[i] / 255.0f;
  } else {
    for (size_t i = 0; i < count; ++i) {
      const uint8_t* p = &image.data[3 * i];
      grey.pixels[i] = (0.299f * p[0] + 0.587f * p[1] + 0.114f * p[2]) / 255.0f;
    }
  }
  return grey;
}

GrayImage LimitImageSize(const GrayImage& image, int max_image_size, double* scale) {
  const int longer = std::max(image.width, image.height);
  if (max_image_size <= 0 || longer <= max_image_size) {
    *scale = 1.0;
    return image;
  }
  const double factor = static_cast<double>(max_image_size) / longer;
  GrayImage out;
  out.width = std::max(1, static_cast<int>(std::lround(image.width * factor)));
  out.height = std::max(1, static_cast<int>(std::lround(image.height * factor)));
  out.pixels.resize(static_cast<size_t>(out.width) * out.height);
  const cv::Mat in(image.height, image.width, CV_32F, const_cast<float*>(image.pixels.data()));
  cv::Mat resized(out.height, out.width, CV_32F, out.pixels.data());
  cv::resize(in, resized, resized.size(), 0, 0, cv::INTER_AREA);
  *scale = static_cast<double>(image.width) / out.width;
  return out;
}

void ScaleKeypoints(double scale, FeatureSet* features) {
  if (scale == 1.0) return;
  for (auto& keypoint : features->keypoints) {
    keypoint.x = static_cast<float>(keypoint.x * scale);
    keypoint.y = static_cast<float>(keypoint.y * scale);
    keypoint.scale = static_cast<float>(keypoint.scale * scale);
  }
}

}  // namespace proj
