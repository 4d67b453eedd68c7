#include "tests/features/sift_test_support.h"

#include <turbojpeg.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>

#include <Eigen/Dense>
#include <opencv2/core.hpp>
#include <opencv2/features2d.hpp>

#include "core/check.h"

namespace proj::testing {

GrayImage LoadGrayJpeg(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  PROJ_REQUIRE(file, "'" << path << "': cannot open");
  const std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(file)),
                                         std::istreambuf_iterator<char>());
  tjhandle handle = tjInitDecompress();
  PROJ_REQUIRE(handle != nullptr, "TurboJPEG initialisation failed");
  int width = 0, height = 0, subsampling = 0, colorspace = 0;
  GrayImage image;
  std::vector<unsigned char> grey;
  bool ok = tjDecompressHeader3(handle, bytes.data(), bytes.size(), &width, &height, &subsampling,
                                &colorspace) == 0;
  if (ok) {
    grey.resize(static_cast<size_t>(width) * height);
    ok = tjDecompress2(handle, bytes.data(), bytes.size(), grey.data(), width, 0, height,
                       TJPF_GRAY, TJFLAG_ACCURATEDCT) == 0;
  }
  const std::string error = ok ? "" : tjGetErrorStr2(handle);
  tjDestroy(handle);
  PROJ_REQUIRE(ok, "'" << path << "': JPEG decoding failed: " << error);
  image.width = width;
  image.height = height;
  image.pixels.resize(grey.size());
  for (size_t i = 0; i < grey.size(); ++i) image.pixels[i] = grey[i] / 255.0f;
  return image;
}

GrayImage CropImage(const GrayImage& image, int x0, int y0, int width, int height) {
  PROJ_REQUIRE(x0 >= 0 && y0 >= 0 && x0 + width <= image.width && y0 + height <= image.height,
               "crop outside the image");
  GrayImage crop;
  crop.width = width;
  crop.height = height;
  crop.pixels.resize(static_cast<size_t>(width) * height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) crop.pixels[static_cast<size_t>(y) * width + x] = image.at(x0 + x, y0 + y);
  }
  return crop;
}

FeatureSet ExtractOpenCvSift(const GrayImage& image, int max_features) {
  cv::Mat grey(image.height, image.width, CV_8U);
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      grey.at<uint8_t>(y, x) = static_cast<uint8_t>(std::lround(std::clamp(image.at(x, y), 0.0f, 1.0f) * 255));
    }
  }
  auto sift = cv::SIFT::create(max_features);
  std::vector<cv::KeyPoint> keypoints;
  cv::Mat descriptors;
  sift->detectAndCompute(grey, cv::noArray(), keypoints, descriptors);
  FeatureSet features;
  const int count = static_cast<int>(keypoints.size());
  features.keypoints.resize(count);
  features.descriptors.resize(static_cast<size_t>(count) * kSiftDescriptorSize);
  for (int i = 0; i < count; ++i) {
    const cv::KeyPoint& kp = keypoints[i];
    Keypoint& out = features.keypoints[i];
    out.x = kp.pt.x + 0.5f;
    out.y = kp.pt.y + 0.5f;
    out.scale = kp.size / 2.0f;
    out.orientation = static_cast<float>(kp.angle * M_PI / 180.0);
    out.response = kp.response;
    const float* row = descriptors.ptr<float>(i);
    for (int d = 0; d < kSiftDescriptorSize; ++d) {
      features.descriptors[static_cast<size_t>(i) * kSiftDescriptorSize + d] =
          static_cast<uint8_t>(std::min(255.0f, std::round(row[d])));
    }
  }
  return features;
}

StrechaCamera ReadStrechaCamera(const std::string& path) {
  std::ifstream file(path);
  PROJ_REQUIRE(file, "'" << path << "': cannot open");
  double v[26];
  for (double& value : v) PROJ_REQUIRE(file >> value, "'" << path << "': expected 26 numbers");
  StrechaCamera camera;
  camera.K << v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8];
  camera.R << v[12], v[13], v[14], v[15], v[16], v[17], v[18], v[19], v[20];
  camera.C << v[21], v[22], v[23];
  camera.width = static_cast<int>(v[24]);
  camera.height = static_cast<int>(v[25]);
  return camera;
}

Eigen::Matrix3d FundamentalMatrix(const StrechaCamera& camera1, const StrechaCamera& camera2) {
  // cam2_from_cam1: X2 = R2^T (R1 X1 + C1 - C2).
  const Eigen::Matrix3d R = camera2.R.transpose() * camera1.R;
  const Eigen::Vector3d t = camera2.R.transpose() * (camera1.C - camera2.C);
  Eigen::Matrix3d tx;
  tx << 0, -t.z(), t.y(), t.z(), 0, -t.x(), -t.y(), t.x(), 0;
  return camera2.K.inverse().transpose() * (tx * R) * camera1.K.inverse();
}

double SampsonDistance(const Eigen::Matrix3d& F, const Eigen::Vector2d& x1,
                       const Eigen::Vector2d& x2) {
  const Eigen::Vector3d p1(x1.x(), x1.y(), 1), p2(x2.x(), x2.y(), 1);
  const Eigen::Vector3d f1 = F * p1, f2 = F.transpose() * p2;
  const double e = p2.dot(f1);
  return std::abs(e) / std::sqrt(f1.x() * f1.x() + f1.y() * f1.y() + f2.x() * f2.x() + f2.y() * f2.y());
}

Eigen::MatrixXf RootSiftMatrix(const FeatureSet& features) {
  Eigen::MatrixXf m(features.size(), kSiftDescriptorSize);
  for (int i = 0; i < features.size(); ++i) {
    const uint8_t* d = features.descriptor(i);
    float l1 = 0;
    for (int k = 0; k < kSiftDescriptorSize; ++k) l1 += d[k];
    for (int k = 0; k < kSiftDescriptorSize; ++k) m(i, k) = l1 > 0 ? std::sqrt(d[k] / l1) : 0.0f;
  }
  return m;
}

namespace {

struct BestTwo {
  int index = -1;
  float best = -2;
  float second = -2;
  void Add(float dot, int j) {
    if (dot > best) {
      second = best;
      best = dot;
      index = j;
    } else if (dot > second) {
      second = dot;
    }
  }
  // Lowe's ratio on L2 distances of unit vectors, d^2 = 2 - 2 dot.
  bool Passes(double max_ratio) const {
    if (index < 0) return false;
    const double d1 = std::sqrt(std::max(0.0, 2.0 - 2.0 * best));
    const double d2 = second > -2 ? std::sqrt(std::max(0.0, 2.0 - 2.0 * second)) : 2.0;
    return d1 < max_ratio * d2;
  }
};

}  // namespace

std::vector<FeatureMatch> MatchBruteForce(const FeatureSet& features1, const FeatureSet& features2,
                                          double max_ratio, bool cross_check) {
  std::vector<FeatureMatch> matches;
  if (features1.size() == 0 || features2.size() == 0) return matches;
  const Eigen::MatrixXf a = RootSiftMatrix(features1), b = RootSiftMatrix(features2);
  const Eigen::MatrixXf dots = a * b.transpose();
  std::vector<BestTwo> rows(a.rows()), cols(b.rows());
  for (int j = 0; j < dots.cols(); ++j) {
    for (int i = 0; i < dots.rows(); ++i) {
      rows[i].Add(dots(i, j), j);
      cols[j].Add(dots(i, j), i);
    }
  }
  for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
    if (!rows[i].Passes(max_ratio)) continue;
    const int j = rows[i].index;
    if (cross_check && cols[j].index != i) continue;
    matches.push_back({i, j});
  }
  return matches;
}

}  // namespace proj::testing
