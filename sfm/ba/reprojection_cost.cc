#include "sfm/ba/reprojection_cost.h"

#include <ceres/autodiff_cost_function.h>

#include <Eigen/Geometry>

namespace proj {
namespace {

template <typename T>
using Vector3 = Eigen::Matrix<T, 3, 1>;

// Shared tail of both functors: camera-frame point -> pixel residual.
template <typename Model, typename T>
bool ResidualFromCameraPoint(const T* params, const Vector3<T>& point_cam,
                             const Eigen::Vector2d& observed_px, T* residual) {
  T uv[2];
  if (!ProjectPoint<Model>(params, point_cam.data(), uv)) return false;
  residual[0] = uv[0] - T(observed_px.x());
  residual[1] = uv[1] - T(observed_px.y());
  return true;
}

template <typename Model>
struct ReprojectionFunctor {
  explicit ReprojectionFunctor(const Eigen::Vector2d& observed) : observed_px(observed) {}

  template <typename T>
  bool operator()(const T* rotation, const T* translation, const T* point, const T* params,
                  T* residual) const {
    // Eigen's quaternion-vector product assumes a unit quaternion; the manifold keeps it so.
    const Eigen::Map<const Eigen::Quaternion<T>> q(rotation);
    const Vector3<T> point_cam =
        q * Eigen::Map<const Vector3<T>>(point) + Eigen::Map<const Vector3<T>>(translation);
    return ResidualFromCameraPoint<Model>(params, point_cam, observed_px, residual);
  }

  Eigen::Vector2d observed_px;
};

template <typename Model>
struct ConstantPoseReprojectionFunctor {
  ConstantPoseReprojectionFunctor(const Rigid3d& pose, const Eigen::Vector2d& observed)
      : rotation(pose.rotation.normalized().toRotationMatrix()),
        translation(pose.translation),
        observed_px(observed) {}

  template <typename T>
  bool operator()(const T* point, const T* params, T* residual) const {
    const Vector3<T> point_cam =
        rotation.cast<T>() * Eigen::Map<const Vector3<T>>(point) + translation.cast<T>();
    return ResidualFromCameraPoint<Model>(params, point_cam, observed_px, residual);
  }

  Eigen::Matrix3d rotation;
  Eigen::Vector3d translation;
  Eigen::Vector2d observed_px;
};

}  // namespace

std::unique_ptr<ceres::CostFunction> CreateReprojectionCost(CameraModelId model,
                                                            const Eigen::Vector2d& observed_px) {
  std::unique_ptr<ceres::CostFunction> cost;
  VisitCameraModel(model, [&](auto m) {
    using Model = decltype(m);
    using Functor = ReprojectionFunctor<Model>;
    cost = std::make_unique<ceres::AutoDiffCostFunction<Functor, 2, 4, 3, 3, Model::kNumParams>>(
        new Functor(observed_px));
  });
  return cost;
}

std::unique_ptr<ceres::CostFunction> CreateConstantPoseReprojectionCost(
    CameraModelId model, const Rigid3d& cam_from_world, const Eigen::Vector2d& observed_px) {
  std::unique_ptr<ceres::CostFunction> cost;
  VisitCameraModel(model, [&](auto m) {
    using Model = decltype(m);
    using Functor = ConstantPoseReprojectionFunctor<Model>;
    cost = std::make_unique<ceres::AutoDiffCostFunction<Functor, 2, 3, Model::kNumParams>>(
        new Functor(cam_from_world, observed_px));
  });
  return cost;
}

}  // namespace proj
