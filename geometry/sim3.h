// Similarity transform b_from_a: x_b = scale * (rotation * x_a) + translation. Used to align a
// reconstruction (frame a) with a reference such as ground-truth camera centres (frame b).
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace proj {

struct Sim3d {
  double scale = 1.0;
  Eigen::Quaterniond rotation = Eigen::Quaterniond::Identity();
  Eigen::Vector3d translation = Eigen::Vector3d::Zero();

  Sim3d() = default;
  Sim3d(double s, const Eigen::Quaterniond& r, const Eigen::Vector3d& t)
      : scale(s), rotation(r), translation(t) {}
  Sim3d(double s, const Eigen::Matrix3d& r, const Eigen::Vector3d& t)
      : scale(s), rotation(r), translation(t) {}

  Eigen::Vector3d operator*(const Eigen::Vector3d& x) const {
    return scale * (rotation * x) + translation;
  }
  // Precondition: scale != 0.
  Sim3d Inverse() const {
    const Eigen::Quaterniond inv = rotation.conjugate();
    return Sim3d(1.0 / scale, inv, -(inv * translation) / scale);
  }
  Eigen::Matrix<double, 3, 4> ToMatrix() const {
    Eigen::Matrix<double, 3, 4> m;
    m.leftCols<3>() = scale * rotation.toRotationMatrix();
    m.col(3) = translation;
    return m;
  }
};

}  // namespace proj
