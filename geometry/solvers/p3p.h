// Minimal absolute pose from three 2D-3D correspondences (perspective-three-point).
// M. Persson, K. Nordberg, "Lambda Twist: An Accurate Fast Robust Perspective Three Point (P3P)
// Solver", ECCV 2018 (algorithm 1): the three distance constraints are combined into one
// degenerate conic whose line factors give the depths in closed form, followed by a few Newton
// steps on the depths.
#pragma once

#include <array>
#include <vector>

#include <Eigen/Core>

#include "geometry/rigid3.h"

namespace proj {

// bearings[i]: ray of point i in the camera frame (x right, y down, z forward), unit or
// normalized homogeneous (x, y, 1); points3d[i]: the point in world coordinates. Appends up to
// four poses cam_from_world with every point at positive depth along its ray
// (lambda_i * bearing_i = cam_from_world * points3d_i, lambda_i > 0). Collinear world points or
// coincident bearings append nothing. No heap allocation apart from growing the output.
void SolveP3P(const std::array<Eigen::Vector3d, 3>& bearings,
              const std::array<Eigen::Vector3d, 3>& points3d,
              std::vector<Rigid3d>* cams_from_world);

}  // namespace proj
