#include <array>
#include <random>

#include <gtest/gtest.h>

#include "geometry/solvers/epipolar_residuals.h"
#include "geometry/solvers/essential_decomposition.h"
#include "geometry/solvers/essential_five_point.h"
#include "geometry/solvers/fundamental_matrix.h"
#include "geometry/solvers/relative_pose_refinement.h"
#include "tests/geometry/synthetic_scene.h"

namespace proj {
namespace {

using testing::DistanceUpToScale;

struct TwoViewScene {
  Rigid3d cam1_from_world, cam2_from_world;
  std::vector<Eigen::Vector3d> points;
  std::vector<Eigen::Vector2d> x1, x2;
  Rigid3d cam2_from_cam1() const { return cam2_from_world * cam1_from_world.Inverse(); }
};

TwoViewScene MakeScene(std::mt19937_64& rng, int n, double noise = 0.0) {
  TwoViewScene scene;
  scene.cam1_from_world = testing::RandomCamFromWorld(rng);
  scene.cam2_from_world = testing::RandomCamFromWorld(rng);
  scene.points = testing::RandomPoints(rng, n);
  for (const auto& p : scene.points) {
    scene.x1.push_back(testing::ProjectNormalized(scene.cam1_from_world, p) +
                       testing::GaussianNoise2d(rng, noise));
    scene.x2.push_back(testing::ProjectNormalized(scene.cam2_from_world, p) +
                       testing::GaussianNoise2d(rng, noise));
  }
  return scene;
}

TEST(SolveEssentialFivePoint, ExactDataContainsTruth) {
  std::mt19937_64 rng(42);
  for (int trial = 0; trial < 100; ++trial) {
    const TwoViewScene scene = MakeScene(rng, 5);
    std::array<Eigen::Vector3d, 5> b1, b2;
    for (int i = 0; i < 5; ++i) {
      b1[i] = scene.x1[i].homogeneous().normalized();
      b2[i] = scene.x2[i].homogeneous();  // unnormalized rays are fine too
    }
    std::vector<Eigen::Matrix3d> solutions;
    SolveEssentialFivePoint(b1, b2, &solutions);
    ASSERT_FALSE(solutions.empty()) << "trial " << trial;
    ASSERT_LE(solutions.size(), 10u);
    const Eigen::Matrix3d truth = EssentialMatrixFromPose(scene.cam2_from_cam1());
    double best = 1e9;
    Eigen::Matrix3d nearest;
    for (const Eigen::Matrix3d& e : solutions) {
      // Every solution lies in the null space of the five epipolar constraints.
      for (int i = 0; i < 5; ++i) {
        EXPECT_LT(std::abs(b2[i].normalized().dot(e * b1[i])), 1e-8) << "trial " << trial;
      }
      if (DistanceUpToScale(e, truth) < best) {
        best = DistanceUpToScale(e, truth);
        nearest = e;
      }
    }
    EXPECT_LT(best, 1e-8) << "trial " << trial;
    // ... and the one nearest the truth is an essential matrix to full precision.
    EXPECT_LT(std::abs(nearest.determinant()), 1e-10);
    const Eigen::Matrix3d eet = nearest * nearest.transpose();
    EXPECT_LT((2.0 * eet * nearest - eet.trace() * nearest).norm(), 1e-10);
  }
}

TEST(SolveEssentialEightPoint, ExactAndNoisy) {
  std::mt19937_64 rng(5);
  const TwoViewScene exact = MakeScene(rng, 8);
  Eigen::Matrix3d e;
  ASSERT_TRUE(SolveEssentialEightPoint(exact.x1, exact.x2, &e));
  EXPECT_LT(DistanceUpToScale(e, EssentialMatrixFromPose(exact.cam2_from_cam1())), 1e-8);

  // 200 points with 1 px noise at f = 1000.
  const TwoViewScene noisy = MakeScene(rng, 200, 1e-3);
  ASSERT_TRUE(SolveEssentialEightPoint(noisy.x1, noisy.x2, &e));
  Rigid3d pose;
  ASSERT_GT(RecoverPoseFromEssential(e, noisy.x1, noisy.x2, nullptr, &pose), 190);
  const Rigid3d truth = noisy.cam2_from_cam1();
  EXPECT_LT(pose.rotation.angularDistance(truth.rotation), 0.01);
  EXPECT_GT(pose.translation.dot(truth.translation.normalized()), 0.99);
}

TEST(SolveEssentialEightPoint, RejectsTooFewPoints) {
  std::vector<Eigen::Vector2d> x(7, Eigen::Vector2d::Zero());
  Eigen::Matrix3d e;
  EXPECT_FALSE(SolveEssentialEightPoint(x, x, &e));
}

TEST(DecomposeEssentialMatrix, CandidatesContainTruth) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 20; ++trial) {
    const TwoViewScene scene = MakeScene(rng, 1);
    const Rigid3d truth = scene.cam2_from_cam1();
    const auto candidates = DecomposeEssentialMatrix(EssentialMatrixFromPose(truth));
    int matches = 0;
    for (const Rigid3d& c : candidates) {
      EXPECT_NEAR(c.rotation.toRotationMatrix().determinant(), 1.0, 1e-12);
      EXPECT_NEAR(c.translation.norm(), 1.0, 1e-12);
      if (c.rotation.angularDistance(truth.rotation) < 1e-9 &&
          (c.translation - truth.translation.normalized()).norm() < 1e-9) {
        ++matches;
      }
    }
    EXPECT_EQ(matches, 1) << "trial " << trial;
  }
}

TEST(RecoverPoseFromEssential, CheiralityPicksTruthAndMarksPointsBehind) {
  std::mt19937_64 rng(12);
  for (int trial = 0; trial < 20; ++trial) {
    TwoViewScene scene = MakeScene(rng, 50);
    const Rigid3d truth = scene.cam2_from_cam1();
    // Three correspondences that are geometrically consistent but behind both cameras: the
    // mirrored point -X (in camera 1) projects to the same pixel in camera 1 ...
    for (int i = 0; i < 3; ++i) {
      const Eigen::Vector3d p1 = scene.cam1_from_world * scene.points[i];
      const Eigen::Vector3d mirrored = -p1;  // behind camera 1 on the same ray
      scene.x2[i] = (truth * mirrored).hnormalized();
    }
    const Eigen::Matrix3d e = EssentialMatrixFromPose(truth);
    std::vector<char> mask(scene.x1.size(), 1);
    mask[10] = 0;  // ignored correspondence
    Rigid3d pose;
    std::vector<char> in_front;
    const int count = RecoverPoseFromEssential(e, scene.x1, scene.x2, &mask, &pose, &in_front);
    EXPECT_LT(pose.rotation.angularDistance(truth.rotation), 1e-9);
    EXPECT_LT((pose.translation - truth.translation.normalized()).norm(), 1e-9);
    ASSERT_EQ(in_front.size(), scene.x1.size());
    EXPECT_EQ(in_front[10], 0);
    int expected = 0;
    for (size_t i = 0; i < in_front.size(); ++i) {
      if (i == 10) continue;
      // The mirrored point is behind camera 1; in camera 2 it may be either side.
      const bool should_be_in_front = i >= 3;
      if (should_be_in_front) {
        EXPECT_EQ(in_front[i], 1) << "trial " << trial << " point " << i;
        ++expected;
      } else {
        EXPECT_EQ(in_front[i], 0) << "trial " << trial << " point " << i;
      }
    }
    EXPECT_EQ(count, expected);
  }
}

TEST(RefineRelativePose, ExactDataConvergesFromPerturbedStart) {
  std::mt19937_64 rng(13);
  for (int trial = 0; trial < 10; ++trial) {
    const TwoViewScene scene = MakeScene(rng, 30);
    const Rigid3d truth = scene.cam2_from_cam1();
    Rigid3d pose(testing::RandomRotation(rng, 0.02) * truth.rotation,
                 truth.translation.normalized() + testing::RandomVector(rng, -0.05, 0.05));
    const auto summary = RefineRelativePose({}, scene.x1, scene.x2, &pose);
    ASSERT_TRUE(summary.success);
    EXPECT_LT(summary.final_cost, 1e-24);
    EXPECT_LT(pose.rotation.angularDistance(truth.rotation), 1e-9);
    EXPECT_LT((pose.translation - truth.translation.normalized()).norm(), 1e-9);
  }
}

TEST(RefineRelativePose, NoisyDataReachesTheSampsonMinimum) {
  std::mt19937_64 rng(14);
  const TwoViewScene scene = MakeScene(rng, 200, 1e-3);
  const Rigid3d truth = scene.cam2_from_cam1();
  Eigen::Matrix3d e;
  ASSERT_TRUE(SolveEssentialEightPoint(scene.x1, scene.x2, &e));
  Rigid3d pose;
  ASSERT_GT(RecoverPoseFromEssential(e, scene.x1, scene.x2, nullptr, &pose), 0);
  const double linear_rotation_error = pose.rotation.angularDistance(truth.rotation);
  const auto summary = RefineRelativePose({}, scene.x1, scene.x2, &pose);
  ASSERT_TRUE(summary.success);
  EXPECT_LT(summary.final_cost, summary.initial_cost);
  // The minimum is below the cost of the true pose, whose residuals are the noise.
  double truth_cost = 0.0;
  const Eigen::Matrix3d e_truth = EssentialMatrixFromPose(truth);
  for (size_t i = 0; i < scene.x1.size(); ++i) {
    truth_cost += 0.5 * SampsonSquaredError(e_truth, scene.x1[i], scene.x2[i]);
  }
  EXPECT_LE(summary.final_cost, truth_cost);
  EXPECT_LT(pose.rotation.angularDistance(truth.rotation), std::max(linear_rotation_error, 3e-3));
}

}  // namespace
}  // namespace proj
