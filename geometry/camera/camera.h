// A camera's intrinsics: model, image size and parameters (layout in camera_models.h).
// Several images may share one Camera (same size and focal length).
#pragma once

#include <string>
#include <vector>

#include <Eigen/Core>

#include "geometry/camera/camera_models.h"

namespace proj {

struct Camera {
  CameraModelId model = CameraModelId::kSimpleRadial;
  int width = 0;
  int height = 0;
  std::vector<double> params;

  // A camera with focal length `focal_px`, principal point at the image centre and no
  // distortion.
  static Camera FromFocal(CameraModelId model, int width, int height, double focal_px);

  double MeanFocal() const;
  void SetFocal(double focal_px);
  Eigen::Vector2d PrincipalPoint() const;
  // K = [fx 0 cx; 0 fy cy; 0 0 1] of the focal length(s) and principal point, without the
  // distortion terms: pixel ~ K (x, y, 1) for undistorted models. Maps normalized-coordinate
  // models to pixels (F = K2^-T E K1^-1, H_px = K2 H K1^-1), as COLMAP's CalibrationMatrix.
  Eigen::Matrix3d CalibrationMatrix() const;

  // Pixel -> normalized undistorted coordinates (ray (x, y, 1)).
  Eigen::Vector2d PixelToNormalized(const Eigen::Vector2d& uv) const;
  // Point in the camera frame -> pixel. Returns false if not in front of the camera.
  bool Project(const Eigen::Vector3d& point_cam, Eigen::Vector2d* uv) const;

  // Indices into params of the focal length(s), principal point and distortion terms.
  std::vector<int> FocalIndices() const;
  std::vector<int> PrincipalPointIndices() const;
  std::vector<int> ExtraIndices() const;
};

int CameraModelNumParams(CameraModelId model);
std::string CameraModelName(CameraModelId model);  // COLMAP's names, e.g. "SIMPLE_RADIAL"
// Accepts COLMAP names case-insensitively; throws InputError for unknown names.
CameraModelId CameraModelFromName(const std::string& name);

}  // namespace proj
