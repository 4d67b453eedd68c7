// The PINHOLE camera an image is resampled to when its lens distortion is removed, and the
// pixel maps between it and the original camera. Follows COLMAP's image_undistorter
// (colmap/image/undistortion.cc, UndistortCamera with blank_pixels = 0):
//  - the focal length(s) are kept, so the undistorted image has the original's resolution at
//    the principal point;
//  - width and height are scaled (the principal point with them, so it keeps its relative
//    position) to the largest size whose every pixel maps inside the original image: no black
//    borders, at the price of the outermost pixels where barrel distortion leaves curved edges;
//  - the scale is clamped to [min_scale, max_scale], then the camera is shrunk to fit
//    max_image_size_px when given (focal length and principal point scaled with the size).
// Unlike COLMAP, the valid region is measured on the image's edges (x = 0 and x = width), not
// on the outermost pixel centres, so a camera without distortion keeps its size exactly.
// Pixel coordinates follow geometry/camera/camera_models.h (top-left pixel centre at 0.5).
#pragma once

#include <Eigen/Core>

#include "geometry/camera/camera.h"

namespace proj {

struct UndistortCameraOptions {
  // Largest width or height of an undistorted image, px; 0 keeps the size.
  int max_image_size_px = 0;
  // Bounds of the size scale from the distortion (COLMAP's defaults): strong barrel
  // distortion would otherwise make huge images, strong pincushion tiny ones.
  double min_scale = 0.2;
  double max_scale = 2.0;
  void Check() const;  // throws InputError naming the field
};

// The PINHOLE camera described above. `camera` must have a size and parameters.
Camera UndistortCamera(const Camera& camera, const UndistortCameraOptions& options);

// A pixel of an image taken by `camera` -> where the same ray meets the undistorted image of
// `pinhole` (a PINHOLE camera, e.g. UndistortCamera's). For keypoints.
Eigen::Vector2d UndistortPixel(const Camera& camera, const Camera& pinhole, const Eigen::Vector2d& uv);

// The inverse: a pixel of the undistorted image -> the pixel of the original image on the
// same ray (where resampling reads). No iteration: one projection by `camera`.
Eigen::Vector2d DistortPixel(const Camera& pinhole, const Camera& camera, const Eigen::Vector2d& uv);

}  // namespace proj
