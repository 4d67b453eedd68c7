// The public robust estimators under 50% outliers: model accuracy and inlier-mask quality.
#include <random>

#include <gtest/gtest.h>

#include "geometry/ransac/estimate_absolute_pose.h"
#include "geometry/ransac/estimate_similarity.h"
#include "geometry/ransac/estimate_two_view.h"
#include "geometry/solvers/epipolar_residuals.h"
#include "geometry/solvers/essential_decomposition.h"
#include "tests/geometry/synthetic_scene.h"

namespace proj {
namespace {

constexpr double kFocal = 1000.0;
constexpr double kCx = 960.0, kCy = 540.0;

Eigen::Vector2d ToPixel(const Eigen::Vector2d& normalized) {
  return Eigen::Vector2d(kFocal * normalized.x() + kCx, kFocal * normalized.y() + kCy);
}

// Uniform random normalized coordinates over a 1920 x 1080 image at f = 1000.
Eigen::Vector2d RandomNormalized(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.0, 1920.0), v(0.0, 1080.0);
  return Eigen::Vector2d((u(rng) - kCx) / kFocal, (v(rng) - kCy) / kFocal);
}

struct MaskQuality {
  int true_positives = 0, false_positives = 0;
};

MaskQuality Evaluate(const std::vector<char>& mask, int num_true_inliers) {
  MaskQuality q;
  for (size_t i = 0; i < mask.size(); ++i) {
    if (!mask[i]) continue;
    if (static_cast<int>(i) < num_true_inliers) {
      ++q.true_positives;
    } else {
      ++q.false_positives;
    }
  }
  return q;
}

// Two views of random points, 0.5 px noise; the first `n_in` correspondences are inliers, then
// `n_out` random pairs.
struct TwoViewData {
  Rigid3d cam2_from_cam1;
  std::vector<Eigen::Vector2d> x1, x2;  // normalized
  std::vector<Eigen::Vector2d> pixels1() const {
    std::vector<Eigen::Vector2d> out;
    for (const auto& p : x1) out.push_back(ToPixel(p));
    return out;
  }
  std::vector<Eigen::Vector2d> pixels2() const {
    std::vector<Eigen::Vector2d> out;
    for (const auto& p : x2) out.push_back(ToPixel(p));
    return out;
  }
};

TwoViewData MakeTwoView(std::mt19937_64& rng, int n_in, int n_out, bool planar) {
  TwoViewData d;
  const Rigid3d c1 = testing::RandomCamFromWorld(rng), c2 = testing::RandomCamFromWorld(rng);
  d.cam2_from_cam1 = c2 * c1.Inverse();
  for (int i = 0; i < n_in; ++i) {
    Eigen::Vector3d p = testing::RandomVector(rng, -2, 2);
    if (planar) p.z() = 0.3 * p.x() - 0.2 * p.y();
    d.x1.push_back(testing::ProjectNormalized(c1, p) + testing::GaussianNoise2d(rng, 0.5 / kFocal));
    d.x2.push_back(testing::ProjectNormalized(c2, p) + testing::GaussianNoise2d(rng, 0.5 / kFocal));
  }
  for (int i = 0; i < n_out; ++i) {
    d.x1.push_back(RandomNormalized(rng));
    d.x2.push_back(RandomNormalized(rng));
  }
  return d;
}

TEST(EstimateEssentialMatrix, HalfOutliers) {
  for (uint64_t seed : {1u, 2u, 3u}) {
    std::mt19937_64 rng(seed);
    const TwoViewData d = MakeTwoView(rng, 200, 200, false);
    RansacOptions options;
    options.max_error = 2.0 / kFocal;  // 2 px in normalized units
    options.seed = seed;
    const auto report = EstimateEssentialMatrix(options, d.x1, d.x2);
    ASSERT_TRUE(report.success);
    const MaskQuality q = Evaluate(report.inlier_mask, 200);
    EXPECT_GE(q.true_positives, 190) << "seed " << seed;
    EXPECT_LE(q.false_positives, 6) << "seed " << seed;
    Rigid3d pose;
    ASSERT_GT(RecoverPoseFromEssential(report.model, d.x1, d.x2, &report.inlier_mask, &pose), 180);
    // 0.5 px noise over a ~37 degree field of view leaves ~1e-3 rad of rotation uncertainty.
    EXPECT_LT(pose.rotation.angularDistance(d.cam2_from_cam1.rotation), 3e-3);
    EXPECT_GT(pose.translation.dot(d.cam2_from_cam1.translation.normalized()), 0.999);
    EXPECT_LT(report.num_iterations, 2000);
  }
}

TEST(EstimateEssentialMatrix, RejectsMismatchedSizes) {
  std::vector<Eigen::Vector2d> a(10), b(9);
  RansacOptions options;
  options.max_error = 1e-3;
  EXPECT_THROW(EstimateEssentialMatrix(options, a, b), InputError);
  options.max_error = 4.0;  // pixels by mistake
  EXPECT_THROW(EstimateEssentialMatrix(options, a, a), InputError);
}

TEST(EstimateFundamentalMatrix, HalfOutliers) {
  std::mt19937_64 rng(4);
  const TwoViewData d = MakeTwoView(rng, 200, 200, false);
  RansacOptions options;
  options.max_error = 2.0;  // px
  const auto p1 = d.pixels1(), p2 = d.pixels2();
  const auto report = EstimateFundamentalMatrix(options, p1, p2);
  ASSERT_TRUE(report.success);
  const MaskQuality q = Evaluate(report.inlier_mask, 200);
  EXPECT_GE(q.true_positives, 190);
  EXPECT_LE(q.false_positives, 6);
  // Noise-free correspondences of the scene satisfy the estimate to about the noise level.
  double max_error = 0.0;
  for (int i = 0; i < 200; ++i) {
    max_error = std::max(max_error, std::sqrt(SampsonSquaredError(report.model, p1[i], p2[i])));
  }
  EXPECT_LT(max_error, 3.0);
  EXPECT_LT(std::abs(report.model.determinant()), 1e-10);
}

TEST(EstimateHomography, HalfOutliers) {
  std::mt19937_64 rng(5);
  const TwoViewData d = MakeTwoView(rng, 200, 200, /*planar=*/true);
  RansacOptions options;
  options.max_error = 2.0;
  const auto report = EstimateHomography(options, d.pixels1(), d.pixels2());
  ASSERT_TRUE(report.success);
  const MaskQuality q = Evaluate(report.inlier_mask, 200);
  EXPECT_GE(q.true_positives, 190);
  EXPECT_LE(q.false_positives, 4);
}

struct PoseData {
  Rigid3d truth;
  std::vector<Eigen::Vector3d> points3d;
  std::vector<Eigen::Vector2d> normalized;
};

PoseData MakePoseData(std::mt19937_64& rng, int n_in, int n_out) {
  PoseData d;
  d.truth = testing::RandomCamFromWorld(rng);
  d.points3d = testing::RandomPoints(rng, n_in + n_out);
  for (int i = 0; i < n_in + n_out; ++i) {
    d.normalized.push_back(i < n_in ? testing::ProjectNormalized(d.truth, d.points3d[i]) +
                                          testing::GaussianNoise2d(rng, 0.5 / kFocal)
                                    : RandomNormalized(rng));
  }
  return d;
}

TEST(EstimateAbsolutePose, NormalizedHalfOutliers) {
  std::mt19937_64 rng(6);
  const PoseData d = MakePoseData(rng, 150, 150);
  RansacOptions options;
  options.max_error = 3.0;  // px
  const auto report = EstimateAbsolutePose(options, d.normalized, d.points3d, kFocal);
  ASSERT_TRUE(report.success);
  const MaskQuality q = Evaluate(report.inlier_mask, 150);
  EXPECT_GE(q.true_positives, 147);
  EXPECT_LE(q.false_positives, 3);
  EXPECT_LT(report.model.rotation.angularDistance(d.truth.rotation), 1e-3);
  EXPECT_LT((report.model.Center() - d.truth.Center()).norm(), 0.02);
}

TEST(EstimateAbsolutePose, CameraModelHalfOutliers) {
  std::mt19937_64 rng(7);
  Camera camera = Camera::FromFocal(CameraModelId::kSimpleRadial, 1920, 1080, kFocal);
  camera.params[3] = -0.1;
  const Rigid3d truth = testing::RandomCamFromWorld(rng);
  const auto points3d = testing::RandomPoints(rng, 300);
  std::vector<Eigen::Vector2d> pixels;
  std::uniform_real_distribution<double> u(0.0, 1920.0), v(0.0, 1080.0);
  for (int i = 0; i < 300; ++i) {
    Eigen::Vector2d uv;
    if (i < 150) {
      ASSERT_TRUE(camera.Project(truth * points3d[i], &uv));
      uv += testing::GaussianNoise2d(rng, 0.5);
    } else {
      uv = Eigen::Vector2d(u(rng), v(rng));
    }
    pixels.push_back(uv);
  }
  RansacOptions options;
  options.max_error = 3.0;
  const auto report = EstimateAbsolutePose(options, camera, pixels, points3d);
  ASSERT_TRUE(report.success);
  const MaskQuality q = Evaluate(report.inlier_mask, 150);
  EXPECT_GE(q.true_positives, 147);
  EXPECT_LE(q.false_positives, 3);
  EXPECT_LT(report.model.rotation.angularDistance(truth.rotation), 1e-3);
  EXPECT_LT((report.model.Center() - truth.Center()).norm(), 0.02);
}

TEST(EstimateAbsolutePose, RejectsBadInput) {
  std::vector<Eigen::Vector2d> x(5);
  std::vector<Eigen::Vector3d> X(5), Y(4);
  EXPECT_THROW(EstimateAbsolutePose(RansacOptions{}, x, Y, kFocal), InputError);
  EXPECT_THROW(EstimateAbsolutePose(RansacOptions{}, x, X, 0.0), InputError);
  Camera broken;
  broken.model = CameraModelId::kPinhole;
  EXPECT_THROW(EstimateAbsolutePose(RansacOptions{}, broken, x, X), InputError);
}

TEST(EstimateSimilarityTransform, HalfOutliers) {
  std::mt19937_64 rng(8);
  const Sim3d truth(0.7, testing::RandomRotation(rng, 3.0), testing::RandomVector(rng, -10, 10));
  std::vector<Eigen::Vector3d> src = testing::RandomPoints(rng, 60), dst;
  for (size_t i = 0; i < src.size(); ++i) {
    dst.push_back(i < 30 ? truth * src[i] + testing::RandomVector(rng, -0.01, 0.01)
                         : testing::RandomVector(rng, -10, 10));
  }
  RansacOptions options;
  options.max_error = 0.05;
  const auto report = EstimateSimilarityTransform(options, src, dst);
  ASSERT_TRUE(report.success);
  const MaskQuality q = Evaluate(report.inlier_mask, 30);
  EXPECT_EQ(q.true_positives, 30);
  EXPECT_EQ(q.false_positives, 0);
  EXPECT_NEAR(report.model.scale, truth.scale, 1e-3);
  EXPECT_LT(report.model.rotation.angularDistance(truth.rotation), 2e-3);
}

}  // namespace
}  // namespace proj
