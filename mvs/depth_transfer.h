// Where a pixel of one view, at a given depth, lands in another view: the map the geometric
// filter and fusion apply to every pixel, reduced to one 3x3 matrix and one vector per pair
// of views. Pixel centres as in mvs/dense_view.h: pixel (x, y) is seen through (x + 0.5, y + 0.5).
#pragma once

#include <Eigen/Core>

#include "mvs/dense_view.h"

namespace proj::mvs {

class DepthTransfer {
 public:
  DepthTransfer(const ViewGeometry& from, const ViewGeometry& to);

  // The point seen through pixel (x, y) of `from` at depth `depth` (camera-frame z), in `to`'s
  // homogeneous pixel coordinates: (u z, v z, z) with z its depth in `to` (<= 0: behind `to`)
  // and (u, v) its image coordinates there (pixel centre convention as above).
  Eigen::Vector3d operator()(int x, int y, double depth) const { return At(x + 0.5, y + 0.5, depth); }
  // The same for image point (u, v) of `from` (pixel (x, y)'s centre is (x + 0.5, y + 0.5)).
  Eigen::Vector3d At(double u, double v, double depth) const {
    return depth * (rays_ * Eigen::Vector3d(u, v, 1.0)) + offset_;
  }

 private:
  Eigen::Matrix3d rays_;    // K_to R_to R_from^T K_from^-1
  Eigen::Vector3d offset_;  // K_to (t_to - R_to R_from^T t_from)
};

}  // namespace proj::mvs
