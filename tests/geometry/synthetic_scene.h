// Random synthetic geometry for the geometry tests: poses, points in front of cameras,
// correspondences. Every generator takes the caller's std::mt19937_64 (fixed seeds in tests).
#pragma once

#include <random>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "geometry/rigid3.h"

namespace proj::testing {

inline Eigen::Vector3d RandomVector(std::mt19937_64& rng, double lo, double hi) {
  std::uniform_real_distribution<double> u(lo, hi);
  return Eigen::Vector3d(u(rng), u(rng), u(rng));
}

inline Eigen::Quaterniond RandomRotation(std::mt19937_64& rng, double max_angle_rad) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::Vector3d axis(u(rng), u(rng), u(rng));
  axis.normalize();
  std::uniform_real_distribution<double> a(-max_angle_rad, max_angle_rad);
  return Eigen::Quaterniond(Eigen::AngleAxisd(a(rng), axis));
}

// A camera looking roughly at the origin from about `distance` away.
inline Rigid3d RandomCamFromWorld(std::mt19937_64& rng, double distance = 6.0) {
  const Eigen::Quaterniond rotation = RandomRotation(rng, 0.4);
  const Eigen::Vector3d centre =
      rotation.conjugate() * Eigen::Vector3d(0, 0, -distance) + RandomVector(rng, -1.0, 1.0);
  return Rigid3d(rotation, -(rotation * centre));
}

// Points in the cube [-2, 2]^3 (in front of cameras built by RandomCamFromWorld).
inline std::vector<Eigen::Vector3d> RandomPoints(std::mt19937_64& rng, int n) {
  std::vector<Eigen::Vector3d> points(n);
  for (auto& p : points) p = RandomVector(rng, -2.0, 2.0);
  return points;
}

inline Eigen::Vector2d ProjectNormalized(const Rigid3d& cam_from_world, const Eigen::Vector3d& x) {
  return (cam_from_world * x).hnormalized();
}

inline Eigen::Vector2d GaussianNoise2d(std::mt19937_64& rng, double sigma) {
  std::normal_distribution<double> n(0.0, sigma);
  return Eigen::Vector2d(n(rng), n(rng));
}

// Frobenius distance between matrices up to scale and sign (both normalized first).
inline double DistanceUpToScale(const Eigen::Matrix3d& a, const Eigen::Matrix3d& b) {
  const Eigen::Matrix3d an = a / a.norm(), bn = b / b.norm();
  return std::min((an - bn).norm(), (an + bn).norm());
}

inline double RotationAngle(const Eigen::Quaterniond& a, const Eigen::Quaterniond& b) {
  return a.angularDistance(b);
}

}  // namespace proj::testing
