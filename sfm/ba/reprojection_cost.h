// Ceres reprojection costs for bundle adjustment (STYLE P9). The residual is computed by the
// camera model's own templated projection (geometry/camera/camera_models.h), so geometry and
// bundle adjustment share one source of truth; the Ceres templates are instantiated once, in
// reprojection_cost.cc, by visiting the camera model registry. Ceres stays out of this header:
// callers that own the returned cost function include <ceres/cost_function.h> themselves.
//
// Residual (2 values, pixels): ProjectPoint<Model>(params, R * X + t) - observed_px, where
// (R, t) is cam_from_world and X the point in the world frame. The evaluation fails (returns
// false, so Ceres rejects the step) when the point is not in front of the camera.
#pragma once

#include <Eigen/Core>
#include <memory>

#include "geometry/camera/camera_models.h"
#include "geometry/rigid3.h"

namespace ceres {
class CostFunction;
}  // namespace ceres

namespace proj {

// Parameter blocks, in order:
//   0: cam_from_world rotation, 4 values in Eigen's quaternion storage order (x, y, z, w); use
//      ceres::EigenQuaternionManifold on it (Rigid3d::rotation.coeffs().data()).
//   1: cam_from_world translation, 3 values.
//   2: point in the world frame, 3 values.
//   3: camera parameters, CameraModelNumParams(model) values (layout per model).
std::unique_ptr<ceres::CostFunction> CreateReprojectionCost(CameraModelId model,
                                                            const Eigen::Vector2d& observed_px);

// The same residual with the pose held constant (images at the boundary of a local bundle
// adjustment, or the gauge-fixing image). Parameter blocks: 0: point (3), 1: camera
// parameters. The pose is copied; the quaternion is normalised on copy.
std::unique_ptr<ceres::CostFunction> CreateConstantPoseReprojectionCost(
    CameraModelId model, const Rigid3d& cam_from_world, const Eigen::Vector2d& observed_px);

}  // namespace proj
