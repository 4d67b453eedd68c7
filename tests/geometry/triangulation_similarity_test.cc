#include <random>

#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include "geometry/solvers/essential_decomposition.h"
#include "geometry/solvers/similarity.h"
#include "geometry/solvers/triangulation.h"
#include "tests/geometry/synthetic_scene.h"

namespace proj {
namespace {

TEST(Triangulation, TwoViewExact) {
  std::mt19937_64 rng(201);
  for (int trial = 0; trial < 100; ++trial) {
    const Rigid3d c1 = testing::RandomCamFromWorld(rng), c2 = testing::RandomCamFromWorld(rng);
    const Eigen::Vector3d x = testing::RandomVector(rng, -2, 2);
    const Eigen::Vector2d p1 = testing::ProjectNormalized(c1, x);
    const Eigen::Vector2d p2 = testing::ProjectNormalized(c2, x);
    Eigen::Vector3d dlt, optimal;
    ASSERT_TRUE(TriangulatePointDlt(c1, c2, p1, p2, &dlt));
    ASSERT_TRUE(TriangulatePointOptimal(c1, c2, p1, p2, &optimal));
    EXPECT_LT((dlt - x).norm(), 1e-8);
    EXPECT_LT((optimal - x).norm(), 1e-8);
    EXPECT_TRUE(HasPositiveDepth(c1, dlt));
    EXPECT_TRUE(HasPositiveDepth(c2, dlt));
  }
}

TEST(Triangulation, LindstromCorrectionSatisfiesEpipolarConstraint) {
  std::mt19937_64 rng(202);
  for (int trial = 0; trial < 50; ++trial) {
    const Rigid3d c1 = testing::RandomCamFromWorld(rng), c2 = testing::RandomCamFromWorld(rng);
    const Eigen::Vector3d x = testing::RandomVector(rng, -2, 2);
    const Eigen::Vector2d p1 =
        testing::ProjectNormalized(c1, x) + testing::GaussianNoise2d(rng, 2e-3);
    const Eigen::Vector2d p2 =
        testing::ProjectNormalized(c2, x) + testing::GaussianNoise2d(rng, 2e-3);
    const Eigen::Matrix3d e = EssentialMatrixFromPose(c2 * c1.Inverse());
    Eigen::Vector2d q1, q2;
    CorrectObservationsLindstrom(e, p1, p2, &q1, &q2);
    // niter2 is exact to third order in the noise (~1e-3 here).
    EXPECT_LT(std::abs(q2.homogeneous().dot(e * q1.homogeneous())), 1e-10);
    // The correction is no larger than moving to the noise-free projections.
    const double moved = (q1 - p1).squaredNorm() + (q2 - p2).squaredNorm();
    const double to_truth = (testing::ProjectNormalized(c1, x) - p1).squaredNorm() +
                            (testing::ProjectNormalized(c2, x) - p2).squaredNorm();
    EXPECT_LE(moved, to_truth * (1 + 1e-6) + 1e-18);
  }
}

TEST(Triangulation, MultiViewExactAndNoisyWithRefinement) {
  std::mt19937_64 rng(203);
  double dlt_error = 0.0, refined_error = 0.0;
  for (int trial = 0; trial < 50; ++trial) {
    const Eigen::Vector3d x = testing::RandomVector(rng, -2, 2);
    std::vector<Rigid3d> cams;
    std::vector<Eigen::Vector2d> exact, noisy;
    for (int v = 0; v < 6; ++v) {
      cams.push_back(testing::RandomCamFromWorld(rng));
      exact.push_back(testing::ProjectNormalized(cams.back(), x));
      noisy.push_back(exact.back() + testing::GaussianNoise2d(rng, 1e-3));
    }
    Eigen::Vector3d point;
    ASSERT_TRUE(TriangulateMultiViewDlt(cams, exact, &point));
    EXPECT_LT((point - x).norm(), 1e-8);

    ASSERT_TRUE(TriangulateMultiViewDlt(cams, noisy, &point));
    double cost_before = 0.0, cost_after = 0.0;
    for (size_t v = 0; v < cams.size(); ++v) {
      cost_before += SquaredReprojectionErrorNormalized(cams[v], point, noisy[v]);
    }
    dlt_error += (point - x).norm();
    ASSERT_TRUE(RefineTriangulatedPoint(cams, noisy, &point));
    for (size_t v = 0; v < cams.size(); ++v) {
      cost_after += SquaredReprojectionErrorNormalized(cams[v], point, noisy[v]);
    }
    EXPECT_LE(cost_after, cost_before * (1 + 1e-12));
    refined_error += (point - x).norm();
  }
  EXPECT_LT(refined_error / 50, 0.02);  // ~6 m away, 1e-3 rad noise
  EXPECT_LE(refined_error, dlt_error * 1.05);
}

TEST(Triangulation, FailsForTooFewViewsAndParallelRays) {
  const Rigid3d c1;
  const Rigid3d c2(Eigen::Quaterniond::Identity(), Eigen::Vector3d(-1, 0, 0));
  Eigen::Vector3d point;
  EXPECT_FALSE(TriangulateMultiViewDlt({c1}, {Eigen::Vector2d(0, 0)}, &point));
  // Same direction seen from two centres: the point is at infinity.
  EXPECT_FALSE(
      TriangulatePointDlt(c1, c2, Eigen::Vector2d(0.1, 0.2), Eigen::Vector2d(0.1, 0.2), &point));
}

TEST(Triangulation, AngleAndDepthHelpers) {
  const Eigen::Vector3d c1(0, 0, 0), c2(2, 0, 0), x(1, 0, 1);
  EXPECT_NEAR(TriangulationAngle(c1, c2, x), M_PI / 2, 1e-12);
  EXPECT_NEAR(TriangulationAngle(c1, c1, x), 0.0, 1e-12);
  const Rigid3d cam;  // identity: z forward
  EXPECT_TRUE(HasPositiveDepth(cam, x));
  EXPECT_FALSE(HasPositiveDepth(cam, Eigen::Vector3d(0, 0, -1)));
  EXPECT_FALSE(HasPositiveDepth(cam, x, 2.0));
  EXPECT_DOUBLE_EQ(PointDepth(cam, x), 1.0);
}

TEST(EstimateSimilarityUmeyama, RecoversTransformAndMatchesEigen) {
  std::mt19937_64 rng(204);
  const Sim3d truth(2.5, testing::RandomRotation(rng, 3.0), testing::RandomVector(rng, -5, 5));
  std::vector<Eigen::Vector3d> src = testing::RandomPoints(rng, 20), dst;
  for (const auto& p : src) dst.push_back(truth * p);
  Sim3d estimate;
  ASSERT_TRUE(EstimateSimilarityUmeyama(src, dst, &estimate));
  EXPECT_NEAR(estimate.scale, truth.scale, 1e-10);
  EXPECT_LT(estimate.rotation.angularDistance(truth.rotation), 1e-10);
  EXPECT_LT((estimate.translation - truth.translation).norm(), 1e-9);
  for (size_t i = 0; i < src.size(); ++i) EXPECT_LT((estimate * src[i] - dst[i]).norm(), 1e-9);
  EXPECT_LT((estimate.Inverse() * dst[0] - src[0]).norm(), 1e-9);

  // Noisy: agrees with Eigen's reference implementation.
  Eigen::Matrix3Xd a(3, src.size()), b(3, src.size());
  for (size_t i = 0; i < src.size(); ++i) {
    dst[i] += testing::RandomVector(rng, -0.05, 0.05);
    a.col(i) = src[i];
    b.col(i) = dst[i];
  }
  ASSERT_TRUE(EstimateSimilarityUmeyama(src, dst, &estimate));
  const Eigen::Matrix4d reference = Eigen::umeyama(a, b, true);
  EXPECT_LT((estimate.ToMatrix() - reference.topRows<3>()).norm(), 1e-9);

  // Rigid variant keeps unit scale.
  ASSERT_TRUE(EstimateSimilarityUmeyama(src, dst, &estimate, /*estimate_scale=*/false));
  EXPECT_DOUBLE_EQ(estimate.scale, 1.0);
}

TEST(EstimateSimilarityUmeyama, DegenerateInput) {
  Sim3d s;
  std::vector<Eigen::Vector3d> same(5, Eigen::Vector3d(1, 2, 3));
  EXPECT_FALSE(EstimateSimilarityUmeyama(same, same, &s));
  std::vector<Eigen::Vector3d> line;
  for (int i = 0; i < 5; ++i) line.emplace_back(i, 2.0 * i, 0.0);
  EXPECT_FALSE(EstimateSimilarityUmeyama(line, line, &s));
  EXPECT_FALSE(EstimateSimilarityUmeyama({}, {}, &s));
}

}  // namespace
}  // namespace proj
