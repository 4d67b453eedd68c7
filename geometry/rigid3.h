// Rigid transform b_from_a: x_b = rotation * x_a + translation. Poses are stored as
// cam_from_world (world point -> camera frame), as in COLMAP.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace proj {

struct Rigid3d {
  Eigen::Quaterniond rotation = Eigen::Quaterniond::Identity();
  Eigen::Vector3d translation = Eigen::Vector3d::Zero();

  Rigid3d() = default;
  Rigid3d(const Eigen::Quaterniond& r, const Eigen::Vector3d& t) : rotation(r), translation(t) {}
  Rigid3d(const Eigen::Matrix3d& r, const Eigen::Vector3d& t) : rotation(r), translation(t) {}

  Eigen::Vector3d operator*(const Eigen::Vector3d& x) const { return rotation * x + translation; }
  Rigid3d Inverse() const {
    const Eigen::Quaterniond inv = rotation.conjugate();
    return Rigid3d(inv, -(inv * translation));
  }
  // (this * other)(x) = this(other(x)): c_from_a = c_from_b * b_from_a.
  Rigid3d operator*(const Rigid3d& other) const {
    return Rigid3d(rotation * other.rotation, rotation * other.translation + translation);
  }
  Eigen::Matrix<double, 3, 4> ToMatrix() const {
    Eigen::Matrix<double, 3, 4> m;
    m.leftCols<3>() = rotation.toRotationMatrix();
    m.col(3) = translation;
    return m;
  }
  // Camera centre in world coordinates, for a cam_from_world transform.
  Eigen::Vector3d Center() const { return -(rotation.conjugate() * translation); }
};

}  // namespace proj
