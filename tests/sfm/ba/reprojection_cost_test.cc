#include "sfm/ba/reprojection_cost.h"

#include <ceres/cost_function.h>
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "geometry/camera/camera.h"

namespace proj {
namespace {

// Central-difference Jacobian of `cost` with respect to block `block`, row-major 2 x size.
std::vector<double> NumericJacobian(const ceres::CostFunction& cost,
                                    std::vector<std::vector<double>> blocks, int block) {
  const int size = static_cast<int>(blocks[block].size());
  std::vector<double> jacobian(2 * size);
  for (int j = 0; j < size; ++j) {
    const double x = blocks[block][j];
    const double h = 1e-6 * std::max(1.0, std::abs(x));
    double plus[2], minus[2];
    std::vector<const double*> pointers;
    blocks[block][j] = x + h;
    for (const auto& b : blocks) pointers.push_back(b.data());
    EXPECT_TRUE(cost.Evaluate(pointers.data(), plus, nullptr));
    blocks[block][j] = x - h;
    EXPECT_TRUE(cost.Evaluate(pointers.data(), minus, nullptr));
    blocks[block][j] = x;
    for (int r = 0; r < 2; ++r) jacobian[r * size + j] = (plus[r] - minus[r]) / (2 * h);
  }
  return jacobian;
}

void ExpectJacobiansMatch(const ceres::CostFunction& cost,
                          const std::vector<std::vector<double>>& blocks) {
  ASSERT_EQ(cost.parameter_block_sizes().size(), blocks.size());
  std::vector<const double*> pointers;
  std::vector<std::vector<double>> jacobians;
  for (size_t b = 0; b < blocks.size(); ++b) {
    ASSERT_EQ(cost.parameter_block_sizes()[b], static_cast<int>(blocks[b].size()));
    pointers.push_back(blocks[b].data());
    jacobians.emplace_back(2 * blocks[b].size());
  }
  std::vector<double*> jacobian_pointers;
  for (auto& j : jacobians) jacobian_pointers.push_back(j.data());
  double residual[2];
  ASSERT_TRUE(cost.Evaluate(pointers.data(), residual, jacobian_pointers.data()));
  for (size_t b = 0; b < blocks.size(); ++b) {
    const auto numeric = NumericJacobian(cost, blocks, static_cast<int>(b));
    for (size_t k = 0; k < numeric.size(); ++k) {
      EXPECT_NEAR(jacobians[b][k], numeric[k], 1e-6 * std::max(1.0, std::abs(numeric[k])))
          << "block " << b << " entry " << k;
    }
  }
}

class ReprojectionCostTest : public ::testing::TestWithParam<CameraModelId> {};

TEST_P(ReprojectionCostTest, ResidualIsProjectionMinusObservation) {
  Camera camera = Camera::FromFocal(GetParam(), 640, 480, 500);
  for (int i : camera.ExtraIndices()) camera.params[i] = 0.03 * (i + 1);
  const Rigid3d pose(
      Eigen::Quaterniond(Eigen::AngleAxisd(0.3, Eigen::Vector3d(1, 2, 3).normalized())),
      Eigen::Vector3d(0.1, -0.2, 3));
  const Eigen::Vector3d point(0.3, -0.4, 1.2);
  const Eigen::Vector2d observed(300, 200);
  Eigen::Vector2d expected;
  ASSERT_TRUE(camera.Project(pose * point, &expected));
  expected -= observed;

  const auto cost = CreateReprojectionCost(GetParam(), observed);
  const double* blocks[] = {pose.rotation.coeffs().data(), pose.translation.data(), point.data(),
                            camera.params.data()};
  double residual[2];
  ASSERT_TRUE(cost->Evaluate(blocks, residual, nullptr));
  EXPECT_NEAR(residual[0], expected.x(), 1e-9);
  EXPECT_NEAR(residual[1], expected.y(), 1e-9);

  const auto constant = CreateConstantPoseReprojectionCost(GetParam(), pose, observed);
  const double* constant_blocks[] = {point.data(), camera.params.data()};
  ASSERT_TRUE(constant->Evaluate(constant_blocks, residual, nullptr));
  EXPECT_NEAR(residual[0], expected.x(), 1e-9);
  EXPECT_NEAR(residual[1], expected.y(), 1e-9);
}

TEST_P(ReprojectionCostTest, FailsForPointBehindCamera) {
  const Camera camera = Camera::FromFocal(GetParam(), 640, 480, 500);
  const Rigid3d pose;
  const Eigen::Vector3d point(0, 0, -2);
  const auto cost = CreateReprojectionCost(GetParam(), Eigen::Vector2d(1, 1));
  const double* blocks[] = {pose.rotation.coeffs().data(), pose.translation.data(), point.data(),
                            camera.params.data()};
  double residual[2];
  EXPECT_FALSE(cost->Evaluate(blocks, residual, nullptr));
}

TEST_P(ReprojectionCostTest, AutodiffJacobianMatchesNumericDifferences) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(-1, 1);
  for (int trial = 0; trial < 5; ++trial) {
    Camera camera = Camera::FromFocal(GetParam(), 640, 480, 400 + 100 * unit(rng));
    for (int i : camera.ExtraIndices()) camera.params[i] = 0.05 * unit(rng);
    const Eigen::Quaterniond rotation(
        Eigen::AngleAxisd(0.5 * unit(rng), Eigen::Vector3d(unit(rng), unit(rng), 1).normalized()));
    const Eigen::Vector3d translation(unit(rng), unit(rng), 4 + unit(rng));
    const Eigen::Vector3d point(unit(rng), unit(rng), unit(rng));
    const Eigen::Vector2d observed(320 + 50 * unit(rng), 240 + 50 * unit(rng));
    const std::vector<double> q(rotation.coeffs().data(), rotation.coeffs().data() + 4);
    const std::vector<double> t(translation.data(), translation.data() + 3);
    const std::vector<double> x(point.data(), point.data() + 3);
    ExpectJacobiansMatch(*CreateReprojectionCost(GetParam(), observed), {q, t, x, camera.params});
    ExpectJacobiansMatch(
        *CreateConstantPoseReprojectionCost(GetParam(), Rigid3d(rotation, translation), observed),
        {x, camera.params});
  }
}

INSTANTIATE_TEST_SUITE_P(AllModels, ReprojectionCostTest,
                         ::testing::Values(CameraModelId::kPinhole, CameraModelId::kSimpleRadial,
                                           CameraModelId::kRadial),
                         [](const auto& info) { return CameraModelName(info.param); });

}  // namespace
}  // namespace proj
