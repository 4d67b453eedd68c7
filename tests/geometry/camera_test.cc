// Camera models (geometry/camera/camera_models.h) and the Camera struct: projection round
// trips for every registered model, Jet derivatives against finite differences, and the
// name/parameter helpers.
#include <algorithm>
#include <random>
#include <tuple>

#include <ceres/jet.h>
#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include "geometry/camera/camera.h"
#include "geometry/camera/camera_models.h"

namespace proj {
namespace {

template <typename Tuple>
struct ToGTestTypes;
template <typename... Models>
struct ToGTestTypes<std::tuple<Models...>> {
  using type = ::testing::Types<Models...>;
};
// Every model of the registry, so a new model is tested without touching this file.
using AllCameraModels = ToGTestTypes<CameraModels>::type;

template <typename Model>
class CameraModelTest : public ::testing::Test {
 protected:
  // Focal lengths near 1000 px, principal point near the centre of a 1920 x 1080 image, mild
  // alternating distortion terms.
  static std::vector<double> Params() {
    std::vector<double> params(Model::kNumParams, 0.0);
    double focal = 1000.0;
    for (int index : Model::kFocalIndices) params[index] = (focal += 37.0);
    params[Model::kPrincipalPointIndices[0]] = 955.0;
    params[Model::kPrincipalPointIndices[1]] = 547.0;
    double sign = -1.0;
    int k = 1;
    for (int index : Model::kExtraIndices) {
      params[index] = sign * 0.05 / k;
      sign = -sign;
      ++k;
    }
    return params;
  }
  // Points in front of the camera within a ~70 degree field of view.
  static std::vector<Eigen::Vector3d> Points(int n) {
    std::mt19937_64 rng(17);
    std::uniform_real_distribution<double> xy(-0.7, 0.7), z(0.5, 20.0);
    std::vector<Eigen::Vector3d> points;
    for (int i = 0; i < n; ++i) {
      const double depth = z(rng);
      points.emplace_back(xy(rng) * depth, xy(rng) * depth, depth);
    }
    return points;
  }
};
TYPED_TEST_SUITE(CameraModelTest, AllCameraModels);

TYPED_TEST(CameraModelTest, UnprojectInvertsProject) {
  using Model = TypeParam;
  const std::vector<double> params = this->Params();
  for (const Eigen::Vector3d& p : this->Points(200)) {
    Eigen::Vector2d uv, xy;
    ASSERT_TRUE(ProjectPoint<Model>(params.data(), p.data(), uv.data()));
    UnprojectPixel<Model>(params.data(), uv.data(), xy.data());
    EXPECT_LT((xy - p.hnormalized()).norm(), 1e-9) << Model::kName << " point " << p.transpose();
  }
}

TYPED_TEST(CameraModelTest, PointsBehindAreRejected) {
  using Model = TypeParam;
  const std::vector<double> params = this->Params();
  Eigen::Vector2d uv;
  const Eigen::Vector3d behind(0.1, 0.2, -1.0), on_plane(0.1, 0.2, 0.0);
  EXPECT_FALSE(ProjectPoint<Model>(params.data(), behind.data(), uv.data()));
  EXPECT_FALSE(ProjectPoint<Model>(params.data(), on_plane.data(), uv.data()));
}

TYPED_TEST(CameraModelTest, PrincipalRayHitsPrincipalPoint) {
  using Model = TypeParam;
  const std::vector<double> params = this->Params();
  const Eigen::Vector3d axis(0.0, 0.0, 3.0);
  Eigen::Vector2d uv;
  ASSERT_TRUE(ProjectPoint<Model>(params.data(), axis.data(), uv.data()));
  EXPECT_DOUBLE_EQ(uv.x(), params[Model::kPrincipalPointIndices[0]]);
  EXPECT_DOUBLE_EQ(uv.y(), params[Model::kPrincipalPointIndices[1]]);
}

// Jacobians of ProjectPoint with respect to the point and to every parameter, by ceres::Jet
// (the path bundle adjustment uses) against central finite differences.
TYPED_TEST(CameraModelTest, JetJacobianMatchesFiniteDifferences) {
  using Model = TypeParam;
  constexpr int kNumParams = Model::kNumParams;
  constexpr int kDim = 3 + kNumParams;
  using Jet = ceres::Jet<double, kDim>;
  const std::vector<double> params = this->Params();
  for (const Eigen::Vector3d& p : this->Points(20)) {
    Jet point_jet[3], params_jet[kNumParams], uv_jet[2];
    for (int i = 0; i < 3; ++i) point_jet[i] = Jet(p(i), i);
    for (int i = 0; i < kNumParams; ++i) params_jet[i] = Jet(params[i], 3 + i);
    ASSERT_TRUE(ProjectPoint<Model>(params_jet, point_jet, uv_jet));

    for (int d = 0; d < kDim; ++d) {
      Eigen::Vector3d point_plus = p, point_minus = p;
      std::vector<double> params_plus = params, params_minus = params;
      double h;
      if (d < 3) {
        h = 1e-6 * std::max(1.0, std::abs(p(d)));
        point_plus(d) += h;
        point_minus(d) -= h;
      } else {
        h = 1e-6 * std::max(1e-3, std::abs(params[d - 3]));
        params_plus[d - 3] += h;
        params_minus[d - 3] -= h;
      }
      Eigen::Vector2d uv_plus, uv_minus;
      ASSERT_TRUE(ProjectPoint<Model>(params_plus.data(), point_plus.data(), uv_plus.data()));
      ASSERT_TRUE(ProjectPoint<Model>(params_minus.data(), point_minus.data(), uv_minus.data()));
      const Eigen::Vector2d numeric = (uv_plus - uv_minus) / (2.0 * h);
      for (int k = 0; k < 2; ++k) {
        const double analytic = uv_jet[k].v(d);
        EXPECT_NEAR(analytic, numeric(k), 1e-5 * std::max(1.0, std::abs(numeric(k))))
            << Model::kName << " output " << k << " derivative " << d;
      }
    }
  }
}

TYPED_TEST(CameraModelTest, CameraStructRoundTrip) {
  using Model = TypeParam;
  Camera camera = Camera::FromFocal(Model::kId, 1920, 1080, 1234.0);
  ASSERT_EQ(static_cast<int>(camera.params.size()), Model::kNumParams);
  EXPECT_DOUBLE_EQ(camera.MeanFocal(), 1234.0);
  EXPECT_EQ(camera.PrincipalPoint(), Eigen::Vector2d(960.0, 540.0));
  camera.params = this->Params();
  for (const Eigen::Vector3d& p : this->Points(50)) {
    Eigen::Vector2d uv;
    ASSERT_TRUE(camera.Project(p, &uv));
    EXPECT_LT((camera.PixelToNormalized(uv) - p.hnormalized()).norm(), 1e-9);
  }
  camera.SetFocal(800.0);
  EXPECT_DOUBLE_EQ(camera.MeanFocal(), 800.0);
  EXPECT_EQ(CameraModelNumParams(Model::kId), Model::kNumParams);
  EXPECT_EQ(CameraModelName(Model::kId), Model::kName);
  EXPECT_EQ(CameraModelFromName(Model::kName), Model::kId);
  // Index lists partition the parameter vector.
  std::vector<int> all;
  for (int i : camera.FocalIndices()) all.push_back(i);
  for (int i : camera.PrincipalPointIndices()) all.push_back(i);
  for (int i : camera.ExtraIndices()) all.push_back(i);
  std::sort(all.begin(), all.end());
  std::vector<int> expected(Model::kNumParams);
  for (int i = 0; i < Model::kNumParams; ++i) expected[i] = i;
  EXPECT_EQ(all, expected);
}

TEST(Camera, PixelCentreConventionForPinhole) {
  // Centre of the top-left pixel is (0.5, 0.5); the principal point of FromFocal is the
  // image centre, so the ray through it is the optical axis.
  const Camera camera = Camera::FromFocal(CameraModelId::kPinhole, 640, 480, 500.0);
  EXPECT_EQ(camera.PixelToNormalized(Eigen::Vector2d(320.0, 240.0)), Eigen::Vector2d(0.0, 0.0));
  const Eigen::Vector2d xy = camera.PixelToNormalized(Eigen::Vector2d(0.5, 0.5));
  EXPECT_DOUBLE_EQ(xy.x(), (0.5 - 320.0) / 500.0);
  EXPECT_DOUBLE_EQ(xy.y(), (0.5 - 240.0) / 500.0);
}

TEST(Camera, CalibrationMatrixMapsNormalizedToPixels) {
  Camera camera = Camera::FromFocal(CameraModelId::kPinhole, 640, 480, 500.0);
  camera.params = {500.0, 520.0, 330.0, 250.0};
  const Eigen::Vector2d pixel(17.5, 401.25);
  const Eigen::Vector3d mapped =
      camera.CalibrationMatrix() * camera.PixelToNormalized(pixel).homogeneous();
  EXPECT_NEAR((mapped.hnormalized() - pixel).norm(), 0.0, 1e-12);
  EXPECT_EQ(mapped.z(), 1.0);
}

TEST(Camera, ModelNamesAreCaseInsensitiveAndUnknownNamesThrow) {
  EXPECT_EQ(CameraModelFromName("simple_radial"), CameraModelId::kSimpleRadial);
  EXPECT_EQ(CameraModelFromName("Pinhole"), CameraModelId::kPinhole);
  EXPECT_THROW(CameraModelFromName("OPENCV_FISHEYE_TYPO"), InputError);
}

}  // namespace
}  // namespace proj
