#include <array>
#include <random>

#include <gtest/gtest.h>

#include "geometry/solvers/epipolar_residuals.h"
#include "geometry/solvers/fundamental_matrix.h"
#include "geometry/solvers/homography.h"
#include "geometry/solvers/homography_decomposition.h"
#include "tests/geometry/synthetic_scene.h"

namespace proj {
namespace {

using testing::DistanceUpToScale;

// Pixel projections through K = [f 0 cx; 0 f cy] for two random cameras.
struct PixelScene {
  Eigen::Matrix3d k;
  Rigid3d cam1_from_world, cam2_from_world;
  std::vector<Eigen::Vector2d> x1, x2;
  Eigen::Matrix3d TrueFundamental() const {
    const Rigid3d rel = cam2_from_world * cam1_from_world.Inverse();
    Eigen::Matrix3d skew;
    const Eigen::Vector3d& t = rel.translation;
    skew << 0, -t.z(), t.y(), t.z(), 0, -t.x(), -t.y(), t.x(), 0;
    const Eigen::Matrix3d k_inv = k.inverse();
    return k_inv.transpose() * skew * rel.rotation.toRotationMatrix() * k_inv;
  }
};

Eigen::Vector2d ToPixel(const Eigen::Matrix3d& k, const Eigen::Vector2d& normalized) {
  return (k * normalized.homogeneous()).hnormalized();
}

PixelScene MakePixelScene(std::mt19937_64& rng, const std::vector<Eigen::Vector3d>& points,
                          double noise_px) {
  PixelScene s;
  s.k << 1200, 0, 960, 0, 1200, 540, 0, 0, 1;
  s.cam1_from_world = testing::RandomCamFromWorld(rng);
  s.cam2_from_world = testing::RandomCamFromWorld(rng);
  for (const auto& p : points) {
    s.x1.push_back(ToPixel(s.k, testing::ProjectNormalized(s.cam1_from_world, p)) +
                   testing::GaussianNoise2d(rng, noise_px));
    s.x2.push_back(ToPixel(s.k, testing::ProjectNormalized(s.cam2_from_world, p)) +
                   testing::GaussianNoise2d(rng, noise_px));
  }
  return s;
}

TEST(SolveFundamentalSevenPoint, ExactDataContainsTruth) {
  std::mt19937_64 rng(21);
  for (int trial = 0; trial < 100; ++trial) {
    const PixelScene s = MakePixelScene(rng, testing::RandomPoints(rng, 7), 0.0);
    std::array<Eigen::Vector2d, 7> p1, p2;
    std::copy(s.x1.begin(), s.x1.end(), p1.begin());
    std::copy(s.x2.begin(), s.x2.end(), p2.begin());
    std::vector<Eigen::Matrix3d> solutions;
    SolveFundamentalSevenPoint(p1, p2, &solutions);
    ASSERT_TRUE(solutions.size() == 1 || solutions.size() == 3) << solutions.size();
    double best = 1e9;
    for (const auto& f : solutions) {
      for (int i = 0; i < 7; ++i) EXPECT_LT(SampsonSquaredError(f, p1[i], p2[i]), 1e-16);
      EXPECT_LT(std::abs(f.determinant()), 1e-10);
      best = std::min(best, DistanceUpToScale(f, s.TrueFundamental()));
    }
    EXPECT_LT(best, 1e-8) << "trial " << trial;
  }
}

TEST(SatisfiesOrientedEpipolarConstraint, RejectsAPointBehindACamera) {
  std::mt19937_64 rng(22);
  const PixelScene s = MakePixelScene(rng, testing::RandomPoints(rng, 8), 0.0);
  const Eigen::Matrix3d f = s.TrueFundamental();
  for (const double sign : {1.0, -1.0}) {  // the sign of F does not matter
    EXPECT_TRUE(SatisfiesOrientedEpipolarConstraint(sign * f, s.x1.data(), s.x2.data(), 8));
  }
  // A point in front of camera 1 but behind camera 2 still projects onto its epipolar lines.
  std::uniform_real_distribution<double> coordinate(-30.0, 30.0);
  Eigen::Vector3d behind;
  do {
    behind = Eigen::Vector3d(coordinate(rng), coordinate(rng), coordinate(rng));
  } while (!((s.cam1_from_world * behind).z() > 0.5 && (s.cam2_from_world * behind).z() < -0.5));
  std::vector<Eigen::Vector2d> x1 = s.x1, x2 = s.x2;
  x1[3] = ToPixel(s.k, testing::ProjectNormalized(s.cam1_from_world, behind));
  x2[3] = ToPixel(s.k, testing::ProjectNormalized(s.cam2_from_world, behind));
  ASSERT_LT(SampsonSquaredError(f, x1[3], x2[3]), 1e-12);
  EXPECT_FALSE(SatisfiesOrientedEpipolarConstraint(f, x1.data(), x2.data(), 8));
}

TEST(SolveFundamentalEightPoint, ExactAndNoisy) {
  std::mt19937_64 rng(22);
  const PixelScene exact = MakePixelScene(rng, testing::RandomPoints(rng, 8), 0.0);
  Eigen::Matrix3d f;
  ASSERT_TRUE(SolveFundamentalEightPoint(exact.x1, exact.x2, &f));
  EXPECT_LT(DistanceUpToScale(f, exact.TrueFundamental()), 1e-8);

  const PixelScene noisy = MakePixelScene(rng, testing::RandomPoints(rng, 300), 0.5);
  ASSERT_TRUE(SolveFundamentalEightPoint(noisy.x1, noisy.x2, &f));
  EXPECT_LT(std::abs(f.determinant()), 1e-12);
  double mean_sampson = 0.0, mean_sampson_truth = 0.0;
  for (size_t i = 0; i < noisy.x1.size(); ++i) {
    mean_sampson += SampsonSquaredError(f, noisy.x1[i], noisy.x2[i]);
    mean_sampson_truth += SampsonSquaredError(noisy.TrueFundamental(), noisy.x1[i], noisy.x2[i]);
  }
  // The least-squares fit is about as good as the truth (which carries the noise, 2 sigma^2 / 2).
  EXPECT_LT(mean_sampson, 1.5 * mean_sampson_truth);
  EXPECT_LT(mean_sampson / noisy.x1.size(), 1.0);
}

TEST(SolveFundamentalEightPoint, PlanarSceneIsDegenerate) {
  std::mt19937_64 rng(23);
  std::vector<Eigen::Vector3d> plane;
  for (int i = 0; i < 30; ++i) {
    Eigen::Vector3d p = testing::RandomVector(rng, -2, 2);
    p.z() = 0.5;
    plane.push_back(p);
  }
  const PixelScene s = MakePixelScene(rng, plane, 0.0);
  Eigen::Matrix3d f;
  EXPECT_FALSE(SolveFundamentalEightPoint(s.x1, s.x2, &f));
}

Eigen::Matrix3d RandomHomography(std::mt19937_64& rng) {
  Eigen::Matrix3d h;
  h << 1.1, 0.05, 30, -0.08, 0.95, -20, 1e-4, -5e-5, 1;
  std::normal_distribution<double> n(0.0, 1.0);
  h(0, 0) += 0.1 * n(rng);
  h(1, 1) += 0.1 * n(rng);
  h(0, 2) += 10 * n(rng);
  h(2, 0) += 1e-5 * n(rng);
  return h;
}

std::vector<Eigen::Vector2d> RandomPixels(std::mt19937_64& rng, int n) {
  std::uniform_real_distribution<double> ux(0, 1920), uy(0, 1080);
  std::vector<Eigen::Vector2d> out(n);
  for (auto& p : out) p = Eigen::Vector2d(ux(rng), uy(rng));
  return out;
}

TEST(SolveHomographyFourPoint, ExactData) {
  std::mt19937_64 rng(31);
  for (int trial = 0; trial < 100; ++trial) {
    const Eigen::Matrix3d truth = RandomHomography(rng);
    std::array<Eigen::Vector2d, 4> p1, p2;
    const auto pixels = RandomPixels(rng, 4);
    for (int i = 0; i < 4; ++i) {
      p1[i] = pixels[i];
      p2[i] = (truth * p1[i].homogeneous()).hnormalized();
    }
    Eigen::Matrix3d h;
    ASSERT_TRUE(SolveHomographyFourPoint(p1, p2, &h));
    EXPECT_NEAR(h.norm(), 1.0, 1e-12);
    EXPECT_LT(DistanceUpToScale(h, truth), 1e-8) << "trial " << trial;
    for (int i = 0; i < 4; ++i) EXPECT_LT(HomographyTransferSquaredError(h, p1[i], p2[i]), 1e-12);
  }
}

TEST(SolveHomographyFourPoint, CollinearSampleFails) {
  std::array<Eigen::Vector2d, 4> p1 = {Eigen::Vector2d(0, 0), Eigen::Vector2d(10, 10),
                                       Eigen::Vector2d(20, 20), Eigen::Vector2d(5, 40)};
  Eigen::Matrix3d h;
  EXPECT_FALSE(SolveHomographyFourPoint(p1, p1, &h));
}

TEST(SolveHomographyDlt, NoisyOverdetermined) {
  std::mt19937_64 rng(32);
  const Eigen::Matrix3d truth = RandomHomography(rng);
  const auto p1 = RandomPixels(rng, 200);
  std::vector<Eigen::Vector2d> p2;
  for (const auto& p : p1) {
    p2.push_back((truth * p.homogeneous()).hnormalized() + testing::GaussianNoise2d(rng, 0.5));
  }
  Eigen::Matrix3d h;
  ASSERT_TRUE(SolveHomographyDlt(p1, p2, &h));
  double rms_to_truth = 0.0;
  for (const auto& p : p1) {
    rms_to_truth += ((h * p.homogeneous()).hnormalized() - (truth * p.homogeneous()).hnormalized())
                        .squaredNorm();
  }
  rms_to_truth = std::sqrt(rms_to_truth / p1.size());
  EXPECT_LT(rms_to_truth, 0.25);  // averaging 200 points with sigma 0.5 px
}

// A plane seen by two cameras: H = R + t n^T / d in normalized coordinates.
TEST(HomographyDecomposition, RecoversPoseAndPlane) {
  std::mt19937_64 rng(33);
  int num_ambiguous = 0;
  for (int trial = 0; trial < 50; ++trial) {
    const Rigid3d cam1 = testing::RandomCamFromWorld(rng), cam2 = testing::RandomCamFromWorld(rng);
    const Rigid3d truth = cam2 * cam1.Inverse();
    // Plane through a random point near the origin with a random normal, in camera 1.
    const Eigen::Vector3d point_on_plane = cam1 * testing::RandomVector(rng, -0.5, 0.5);
    Eigen::Vector3d normal = Eigen::Vector3d(0, 0, 1) + testing::RandomVector(rng, -0.4, 0.4);
    normal.normalize();
    const double distance = normal.dot(point_on_plane);
    ASSERT_GT(distance, 0.0);
    std::vector<Eigen::Vector2d> x1, x2;
    for (int i = 0; i < 30; ++i) {
      const Eigen::Vector3d ray = (point_on_plane + testing::RandomVector(rng, -2, 2)).normalized();
      const Eigen::Vector3d p1 = ray * (distance / normal.dot(ray));  // on the plane
      x1.push_back(p1.hnormalized());
      x2.push_back((truth * p1).hnormalized());
    }
    Eigen::Matrix3d h = HomographyFromPose(truth, normal / distance);
    for (int i = 0; i < 30; ++i) {
      ASSERT_LT(((h * x1[i].homogeneous()).hnormalized() - x2[i]).norm(), 1e-12);
    }
    // Arbitrary scale and sign, as from a solver.
    h *= (trial % 2 == 0 ? -3.7 : 0.2);
    std::vector<HomographyPose> candidates;
    DecomposeHomographyMatrix(HomographyFromPose(truth, normal / distance), &candidates);
    ASSERT_EQ(candidates.size(), 4u);
    std::vector<HomographyPose> poses;
    std::vector<char> in_front;
    EXPECT_EQ(RecoverPoseFromHomography(h, x1, x2, nullptr, &poses, &in_front), 30);
    ASSERT_GE(poses.size(), 1u);
    EXPECT_LE(poses.size(), 2u);  // the Faugeras-Lustman ambiguity
    EXPECT_EQ(in_front, std::vector<char>(30, 1));
    int matches = 0;
    for (const HomographyPose& pose : poses) {
      if (pose.cam2_from_cam1.rotation.angularDistance(truth.rotation) < 1e-9 &&
          (pose.cam2_from_cam1.translation - truth.translation / distance).norm() < 1e-9 &&
          (pose.normal - normal).norm() < 1e-9) {
        ++matches;
      }
    }
    EXPECT_EQ(matches, 1) << "trial " << trial;
    num_ambiguous += poses.size() == 2;
  }
  // Both outcomes occur: the second solution is sometimes excluded by cheirality.
  EXPECT_GT(num_ambiguous, 0);
  EXPECT_LT(num_ambiguous, 50);
}

TEST(HomographyDecomposition, PureRotation) {
  const Eigen::Matrix3d r = Eigen::AngleAxisd(0.3, Eigen::Vector3d(1, 2, 3).normalized()).matrix();
  std::vector<HomographyPose> candidates;
  DecomposeHomographyMatrix(2.0 * r, &candidates);
  ASSERT_EQ(candidates.size(), 1u);
  EXPECT_LT((candidates[0].cam2_from_cam1.rotation.toRotationMatrix() - r).norm(), 1e-12);
  EXPECT_EQ(candidates[0].cam2_from_cam1.translation, Eigen::Vector3d::Zero());
}

}  // namespace
}  // namespace proj
