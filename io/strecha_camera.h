// The `.camera` files of the Strecha et al. benchmark (CVPR 2008), as in
// shared/datasets/README.md: 26 whitespace-separated numbers, written as 9 lines
//   K (3 rows) / radial distortion (3) / R (3 rows) / C (3) / width height
// R rotates camera to world (its columns are the camera axes in world coordinates), C is the
// camera centre in world coordinates, and a world point X projects as x ~ K R^T (X - C) with
// the centre of the top-left pixel at (0.5, 0.5).
#pragma once

#include <string>

#include <Eigen/Core>

namespace proj {

struct StrechaCamera {
  Eigen::Matrix3d K = Eigen::Matrix3d::Identity();      // pixels
  Eigen::Vector3d distortion = Eigen::Vector3d::Zero();  // radial terms (zero in the benchmark)
  Eigen::Matrix3d R = Eigen::Matrix3d::Identity();      // world_from_cam rotation
  Eigen::Vector3d C = Eigen::Vector3d::Zero();          // centre, world coordinates
  int width = 0;
  int height = 0;

  // cam_from_world as rotation R^T and translation -R^T C.
  Eigen::Matrix3d CamFromWorldRotation() const { return R.transpose(); }
  Eigen::Vector3d CamFromWorldTranslation() const { return -(R.transpose() * C); }
  // Pixel position of a world point (ignores `distortion`); false if not in front.
  bool Project(const Eigen::Vector3d& X, Eigen::Vector2d* uv) const;
};

// Throws InputError naming the file and line for missing/extra/non-numeric values, a K
// whose last row is not (0 0 1) up to scale, a non-rotation R (tolerance 1e-3) or a
// non-positive size.
StrechaCamera ReadStrechaCamera(const std::string& path);

// Writes atomically, with enough digits that reading gives back the same doubles.
void WriteStrechaCamera(const std::string& path, const StrechaCamera& camera);

}  // namespace proj
