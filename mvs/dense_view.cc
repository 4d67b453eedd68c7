#include "mvs/dense_view.h"

namespace proj::mvs {

Eigen::Matrix3d PinholeCamera::K() const {
  Eigen::Matrix3d k;
  k << fx, 0, cx, 0, fy, cy, 0, 0, 1;
  return k;
}

Eigen::Vector2d PinholeCamera::Project(const Eigen::Vector3d& point_cam) const {
  return {fx * point_cam.x() / point_cam.z() + cx, fy * point_cam.y() / point_cam.z() + cy};
}

Eigen::Vector3d PinholeCamera::PointAtPixel(int x, int y, double depth) const {
  return {(x + 0.5 - cx) / fx * depth, (y + 0.5 - cy) / fy * depth, depth};
}

PinholeCamera PinholeCamera::Scaled(int new_width, int new_height) const {
  const double sx = static_cast<double>(new_width) / width;
  const double sy = static_cast<double>(new_height) / height;
  return {new_width, new_height, fx * sx, fy * sy, cx * sx, cy * sy};
}

}  // namespace proj::mvs
