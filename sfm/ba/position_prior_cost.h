// Ceres costs of priors in bundle adjustment: a position prior (GPS) on an image's camera
// centre, a prior on a 3D point, a prior on a camera parameter. Residual (3 values, dimensionless): (C - prior) / sigma per axis, where
// C = -R^T t is the centre of cam_from_world (R, t). Ceres stays out of this header.
#pragma once

#include <memory>

#include "sfm/scene/position_prior.h"

namespace ceres {
class CostFunction;
}  // namespace ceres

namespace proj {

// Parameter blocks: 0: cam_from_world rotation (4, Eigen quaternion storage x, y, z, w),
// 1: cam_from_world translation (3), as in CreateReprojectionCost. Precondition: sigma > 0.
std::unique_ptr<ceres::CostFunction> CreatePositionPriorCost(const PositionPrior& prior);

// A prior on a 3D point (a ground control point's surveyed position): residual
// (X - prior) / sigma per axis. Parameter block: the point (3). Precondition: sigma > 0.
std::unique_ptr<ceres::CostFunction> CreatePointPriorCost(const PositionPrior& prior);

// A prior on one parameter of a camera's parameter block (num_params values): residual
// (params[index] - value) / sigma. Precondition: 0 <= index < num_params, sigma > 0.
std::unique_ptr<ceres::CostFunction> CreateCameraParameterPriorCost(int num_params, int index,
                                                                    double value, double sigma);

}  // namespace proj
