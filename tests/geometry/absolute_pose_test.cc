#include <array>
#include <random>

#include <gtest/gtest.h>

#include "geometry/camera/camera.h"
#include "geometry/solvers/absolute_pose_refinement.h"
#include "geometry/solvers/p3p.h"
#include "tests/geometry/synthetic_scene.h"

namespace proj {
namespace {

double PoseDistance(const Rigid3d& a, const Rigid3d& b) {
  return a.rotation.angularDistance(b.rotation) + (a.translation - b.translation).norm();
}

TEST(SolveP3P, ExactDataContainsTruth) {
  std::mt19937_64 rng(101);
  int num_failures = 0;
  for (int trial = 0; trial < 500; ++trial) {
    const Rigid3d truth = testing::RandomCamFromWorld(rng);
    const auto points = testing::RandomPoints(rng, 3);
    std::array<Eigen::Vector3d, 3> bearings, world;
    for (int i = 0; i < 3; ++i) {
      world[i] = points[i];
      bearings[i] = (truth * points[i]).normalized();
    }
    std::vector<Rigid3d> poses;
    SolveP3P(bearings, world, &poses);
    ASSERT_LE(poses.size(), 4u);
    double best = 1e9;
    for (const Rigid3d& pose : poses) {
      // Every solution reprojects the three points exactly, in front of the camera.
      for (int i = 0; i < 3; ++i) {
        const Eigen::Vector3d p = pose * world[i];
        EXPECT_GT(p.z(), 0.0);
        EXPECT_LT((p.normalized() - bearings[i]).norm(), 1e-8) << "trial " << trial;
      }
      best = std::min(best, PoseDistance(pose, truth));
    }
    if (!(best < 1e-8)) ++num_failures;
  }
  // Lambda Twist is exact up to rare near-degenerate configurations.
  EXPECT_LE(num_failures, 1);
}

TEST(SolveP3P, CollinearPointsGiveNothing) {
  std::array<Eigen::Vector3d, 3> world = {Eigen::Vector3d(0, 0, 5), Eigen::Vector3d(1, 0, 5),
                                          Eigen::Vector3d(2, 0, 5)};
  std::array<Eigen::Vector3d, 3> bearings;
  for (int i = 0; i < 3; ++i) bearings[i] = world[i].normalized();
  std::vector<Rigid3d> poses;
  SolveP3P(bearings, world, &poses);
  EXPECT_TRUE(poses.empty());
}

struct PoseScene {
  Rigid3d truth;
  std::vector<Eigen::Vector3d> points;
  std::vector<Eigen::Vector2d> normalized;
};

PoseScene MakePoseScene(std::mt19937_64& rng, int n, double noise) {
  PoseScene s;
  s.truth = testing::RandomCamFromWorld(rng);
  s.points = testing::RandomPoints(rng, n);
  for (const auto& p : s.points) {
    s.normalized.push_back(testing::ProjectNormalized(s.truth, p) +
                           testing::GaussianNoise2d(rng, noise));
  }
  return s;
}

Rigid3d Perturb(std::mt19937_64& rng, const Rigid3d& pose) {
  return Rigid3d(testing::RandomRotation(rng, 0.05) * pose.rotation,
                 pose.translation + testing::RandomVector(rng, -0.2, 0.2));
}

TEST(RefineAbsolutePose, ExactDataConvergesToTruth) {
  std::mt19937_64 rng(102);
  const PoseScene s = MakePoseScene(rng, 50, 0.0);
  Rigid3d pose = Perturb(rng, s.truth);
  const auto summary = RefineAbsolutePose({}, s.normalized, s.points, &pose);
  ASSERT_TRUE(summary.success);
  EXPECT_LT(summary.final_cost, 1e-20);
  EXPECT_LT(PoseDistance(pose, s.truth), 1e-9);
}

TEST(RefineAbsolutePose, NoisyDataBeatsMinimalSolution) {
  std::mt19937_64 rng(103);
  const double noise = 1e-3;  // 1 px at f = 1000
  const PoseScene s = MakePoseScene(rng, 200, noise);
  std::array<Eigen::Vector3d, 3> bearings, world;
  for (int i = 0; i < 3; ++i) {
    bearings[i] = s.normalized[i].homogeneous();
    world[i] = s.points[i];
  }
  std::vector<Rigid3d> poses;
  SolveP3P(bearings, world, &poses);
  ASSERT_FALSE(poses.empty());
  Rigid3d pose = poses[0];
  for (const Rigid3d& p : poses) {
    if (PoseDistance(p, s.truth) < PoseDistance(pose, s.truth)) pose = p;
  }
  const double minimal_error = PoseDistance(pose, s.truth);
  const auto summary = RefineAbsolutePose({}, s.normalized, s.points, &pose);
  ASSERT_TRUE(summary.success);
  EXPECT_LE(summary.final_cost, summary.initial_cost);
  // RMS residual ~ noise: 0.5 * sum |r|^2 ~ n sigma^2.
  EXPECT_LT(summary.final_cost, 1.3 * s.points.size() * noise * noise);
  EXPECT_LT(PoseDistance(pose, s.truth), minimal_error);
  EXPECT_LT(PoseDistance(pose, s.truth), 5e-3);
}

TEST(RefineAbsolutePose, HuberResistsOutliers) {
  std::mt19937_64 rng(104);
  PoseScene s = MakePoseScene(rng, 100, 1e-3);
  for (int i = 0; i < 10; ++i) s.normalized[i] += Eigen::Vector2d(0.2, -0.15);
  AbsolutePoseRefinementOptions options;
  options.huber_threshold = 3e-3;
  Rigid3d robust = Perturb(rng, s.truth), plain = robust;
  RefineAbsolutePose(options, s.normalized, s.points, &robust);
  RefineAbsolutePose({}, s.normalized, s.points, &plain);
  EXPECT_LT(PoseDistance(robust, s.truth), 0.5 * PoseDistance(plain, s.truth));
}

TEST(RefineAbsolutePose, WithDistortedCameraInPixels) {
  std::mt19937_64 rng(105);
  Camera camera = Camera::FromFocal(CameraModelId::kRadial, 1920, 1080, 1500.0);
  camera.params[3] = -0.08;
  camera.params[4] = 0.01;
  const Rigid3d truth = testing::RandomCamFromWorld(rng);
  const auto points = testing::RandomPoints(rng, 100);
  std::vector<Eigen::Vector2d> pixels;
  for (const auto& p : points) {
    Eigen::Vector2d uv;
    ASSERT_TRUE(camera.Project(truth * p, &uv));
    pixels.push_back(uv + testing::GaussianNoise2d(rng, 0.5));
  }
  Rigid3d pose = Perturb(rng, truth);
  const auto summary = RefineAbsolutePose({}, camera, pixels, points, &pose);
  ASSERT_TRUE(summary.success);
  // Residuals in pixels: 0.5 * sum |r|^2 ~ n sigma^2 = 25.
  EXPECT_LT(summary.final_cost, 35.0);
  EXPECT_LT(pose.rotation.angularDistance(truth.rotation), 1e-3);
  EXPECT_LT((pose.translation - truth.translation).norm(), 5e-3);
}

TEST(RefineAbsolutePose, RejectsMismatchedInput) {
  std::vector<Eigen::Vector2d> x(3);
  std::vector<Eigen::Vector3d> X(4);
  Rigid3d pose;
  EXPECT_THROW(RefineAbsolutePose({}, x, X, &pose), InputError);
  AbsolutePoseRefinementOptions bad;
  bad.max_iterations = -1;
  EXPECT_THROW(bad.Check(), InputError);
}

}  // namespace
}  // namespace proj
