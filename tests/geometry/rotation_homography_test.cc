#include "geometry/solvers/rotation_homography.h"

#include <Eigen/Geometry>
#include <gtest/gtest.h>

namespace proj {
namespace {

Eigen::Matrix3d Calibration(double focal) {
  Eigen::Matrix3d k;
  k << focal, 0, 500, 0, focal, 400, 0, 0, 1;
  return k;
}

const Eigen::Matrix3d kTrueK = Calibration(330);
const Eigen::Matrix3d kPriorK = Calibration(480);  // the default prior of a 400 px image: 45% off

TEST(RotationHomography, RotationIsFoundDespiteAWrongFocalPrior) {
  const Eigen::Matrix3d rotation =
      Eigen::AngleAxisd(0.3, Eigen::Vector3d(0.2, 1, 0.1).normalized()).toRotationMatrix();
  const Eigen::Matrix3d h = 2.5 * kTrueK * rotation * kTrueK.inverse();
  // Under the prior the homography is no rotation...
  const Eigen::Matrix3d under_prior = kPriorK.inverse() * h * kPriorK;
  const Eigen::Vector3d sigma = Eigen::JacobiSVD<Eigen::Matrix3d>(under_prior).singularValues();
  EXPECT_GT(sigma(0) / sigma(2) - 1, 0.02);
  // ... at the fitted focal length it is.
  const RotationHomographyFit fit = FitRotationHomography(h, kPriorK, kPriorK);
  EXPECT_FALSE(fit.at_range_limit);
  EXPECT_LT(fit.deviation, 1e-6);
  EXPECT_NEAR(fit.focal_scale * 480, 330, 0.01);
  EXPECT_LT(Eigen::Quaterniond(fit.rotation).angularDistance(Eigen::Quaterniond(rotation)), 1e-6);
}

TEST(RotationHomography, PlaneSeenWithParallaxIsNoRotation) {
  // Ground seen from above while moving sideways (a drone survey: H = R + t n^T with t
  // parallel to the plane), and a facade approached head on (t along n).
  const Eigen::Vector3d normal(0, 0, 1);
  for (const Eigen::Vector3d& t : {Eigen::Vector3d(0.1, 0, 0), Eigen::Vector3d(0, 0, 0.1)}) {
    const Eigen::Matrix3d h = kTrueK * (Eigen::Matrix3d::Identity() + t * normal.transpose()) * kTrueK.inverse();
    const RotationHomographyFit fit = FitRotationHomography(h, kPriorK, kPriorK);
    EXPECT_TRUE(fit.at_range_limit || fit.deviation > 0.05) << t.transpose();
  }
}

}  // namespace
}  // namespace proj
