// The synthetic images are fit for SfM: SIFT finds thousands of well-spread features, and
// features matched between neighbouring views agree with the ground-truth epipolar geometry;
// image content agrees across views at the ground-truth projections.
#include <gtest/gtest.h>

#include <cmath>

#include <Eigen/Geometry>
#include <opencv2/core.hpp>
#include <opencv2/features2d.hpp>
#include <opencv2/imgproc.hpp>

#include "datasets/synthetic/synthetic_renderer.h"
#include "datasets/synthetic/synthetic_scene.h"
#include "tests/datasets/test_world.h"

namespace proj {
namespace {

struct TwoViews {
  std::vector<StrechaCamera> cameras;
  Image images[2];
};

// Views 0 and 1 of the default scene (1280x960), rendered once.
const TwoViews& DefaultTwoViews() {
  static const TwoViews views = [] {
    TwoViews result;
    const SyntheticSceneOptions options;
    result.cameras = MakeSyntheticCameras(options);
    for (int i = 0; i < 2; ++i) {
      result.images[i] = synthetic::RenderView(testing::DefaultSyntheticWorld(), result.cameras[i],
                                               options.supersampling, options.num_threads);
    }
    return result;
  }();
  return views;
}

cv::Mat Grey(const Image& image) {
  cv::Mat rgb(image.height, image.width, CV_8UC3, const_cast<uint8_t*>(image.data.data()));
  cv::Mat grey;
  cv::cvtColor(rgb, grey, cv::COLOR_RGB2GRAY);
  return grey;
}

// Bilinear colour at image point (u, v) (pixel centres at +0.5); false near the border.
bool Bilinear(const Image& image, double u, double v, double* rgb) {
  const double x = u - 0.5, y = v - 0.5;
  if (x < 0 || y < 0 || x >= image.width - 1 || y >= image.height - 1) return false;
  const int x0 = static_cast<int>(x), y0 = static_cast<int>(y);
  const double fx = x - x0, fy = y - y0;
  for (int c = 0; c < 3; ++c) {
    rgb[c] = (1 - fx) * (1 - fy) * image.pixel(x0, y0)[c] + fx * (1 - fy) * image.pixel(x0 + 1, y0)[c] +
             (1 - fx) * fy * image.pixel(x0, y0 + 1)[c] + fx * fy * image.pixel(x0 + 1, y0 + 1)[c];
  }
  return true;
}

TEST(SyntheticQuality, SiftFindsManyWellSpreadFeatures) {
  const TwoViews& views = DefaultTwoViews();
  cv::Ptr<cv::SIFT> sift = cv::SIFT::create();
  std::vector<cv::KeyPoint> keypoints[2];
  cv::Mat descriptors[2];
  for (int i = 0; i < 2; ++i) {
    sift->detectAndCompute(Grey(views.images[i]), cv::noArray(), keypoints[i], descriptors[i]);
    EXPECT_GT(keypoints[i].size(), 5000u) << "view " << i;
    // Every cell of a 4x4 grid holds features.
    int cells[4][4] = {};
    for (const cv::KeyPoint& keypoint : keypoints[i]) {
      ++cells[std::min(3, static_cast<int>(keypoint.pt.y / 240))][std::min(3, static_cast<int>(keypoint.pt.x / 320))];
    }
    for (int r = 0; r < 4; ++r) {
      for (int c = 0; c < 4; ++c) {
        EXPECT_GT(cells[r][c], 100) << "view " << i << " cell " << r << "," << c;
      }
    }
    std::cout << "view " << i << ": " << keypoints[i].size() << " SIFT features\n";
  }

  // Ratio-test matches between the neighbours, checked against the ground-truth epipolar
  // geometry: F = K1^-T [t]x R K0^-1 with (R, t) = cam1_from_cam0.
  const StrechaCamera& a = views.cameras[0];
  const StrechaCamera& b = views.cameras[1];
  const Eigen::Matrix3d rotation = b.R.transpose() * a.R;
  const Eigen::Vector3d translation = b.R.transpose() * (a.C - b.C);
  Eigen::Matrix3d cross;
  cross << 0, -translation.z(), translation.y(), translation.z(), 0, -translation.x(), -translation.y(),
      translation.x(), 0;
  const Eigen::Matrix3d F = b.K.inverse().transpose() * cross * rotation * a.K.inverse();
  std::vector<std::vector<cv::DMatch>> knn;
  cv::BFMatcher(cv::NORM_L2).knnMatch(descriptors[0], descriptors[1], knn, 2);
  int matches = 0, inliers = 0;
  for (const auto& pair : knn) {
    if (pair.size() < 2 || pair[0].distance > 0.8f * pair[1].distance) continue;
    ++matches;
    const cv::Point2f& p = keypoints[0][pair[0].queryIdx].pt;
    const cv::Point2f& q = keypoints[1][pair[0].trainIdx].pt;
    // OpenCV's keypoints put the top-left pixel centre at (0, 0): shift to our convention.
    const Eigen::Vector3d x0(p.x + 0.5, p.y + 0.5, 1), x1(q.x + 0.5, q.y + 0.5, 1);
    const Eigen::Vector3d Fx0 = F * x0, Ftx1 = F.transpose() * x1;
    const double residual = x1.dot(Fx0);
    const double sampson = residual * residual /
                           (Fx0.head<2>().squaredNorm() + Ftx1.head<2>().squaredNorm());
    if (sampson < 2.0 * 2.0) ++inliers;
  }
  std::cout << matches << " ratio-test matches, " << inliers << " consistent with the ground truth\n";
  EXPECT_GT(inliers, 800);
  EXPECT_GT(inliers, 0.75 * matches);
}

TEST(SyntheticQuality, ColoursAgreeAcrossViewsAtGroundTruthProjections) {
  const TwoViews& views = DefaultTwoViews();
  const synthetic::SyntheticWorld& world = testing::DefaultSyntheticWorld();
  double sum_true = 0, sum_shifted = 0;
  int count = 0;
  for (double v = 20.5; v < 940; v += 9) {
    for (double u = 20.5; u < 1260; u += 9) {
      synthetic::SurfaceHit hit;
      if (!world.Intersect(synthetic::PixelRay(views.cameras[0], u, v), &hit)) continue;
      Eigen::Vector2d uv;
      if (!views.cameras[1].Project(hit.point, &uv)) continue;
      // Visible in view 1: its ray through uv reaches the same point.
      synthetic::SurfaceHit other;
      if (!world.Intersect(synthetic::PixelRay(views.cameras[1], uv.x(), uv.y()), &other) ||
          (other.point - hit.point).norm() > 1e-3) {
        continue;
      }
      double c0[3], c1[3], shifted[3];
      if (!Bilinear(views.images[0], u, v, c0) || !Bilinear(views.images[1], uv.x(), uv.y(), c1) ||
          !Bilinear(views.images[1], uv.x() + 1.5, uv.y() + 1.0, shifted)) {
        continue;
      }
      for (int c = 0; c < 3; ++c) {
        sum_true += std::abs(c0[c] - c1[c]);
        sum_shifted += std::abs(c0[c] - shifted[c]);
      }
      ++count;
    }
  }
  ASSERT_GT(count, 2000);
  const double mean_true = sum_true / (3 * count), mean_shifted = sum_shifted / (3 * count);
  std::cout << count << " points seen in both views: mean |colour difference| " << mean_true
            << " at the ground-truth projection, " << mean_shifted << " 1.8 px away\n";
  EXPECT_LT(mean_true, 0.5 * mean_shifted);
}

}  // namespace
}  // namespace proj
