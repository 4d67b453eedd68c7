// Squared residuals of two-view models, shared by the RANSAC adapters and callers that score a
// known model. Points are inhomogeneous 2D: pixels for F and H, normalized image coordinates
// (ray (x, y, 1), i.e. pixel -> Camera::PixelToNormalized) for E.
#pragma once

#include <limits>

#include <Eigen/Core>

namespace proj {

// Squared Sampson distance of the correspondence x1 <-> x2 to the epipolar model x2^T F x1 = 0
// (Hartley & Zisserman, eq. 11.9): a first-order approximation of the squared reprojection
// error summed over both images, in the squared unit of the inputs.
inline double SampsonSquaredError(const Eigen::Matrix3d& f, const Eigen::Vector2d& x1,
                                  const Eigen::Vector2d& x2) {
  const Eigen::Vector3d h1(x1.x(), x1.y(), 1.0), h2(x2.x(), x2.y(), 1.0);
  const Eigen::Vector3d f_x1 = f * h1;
  const Eigen::Vector3d ft_x2 = f.transpose() * h2;
  const double numerator = h2.dot(f_x1);
  const double denominator = f_x1.head<2>().squaredNorm() + ft_x2.head<2>().squaredNorm();
  if (denominator <= 0.0) return std::numeric_limits<double>::max();
  return numerator * numerator / denominator;
}

// Squared one-sided transfer error |x2 - H x1|^2 (x1 mapped by H into image 2), in the squared
// unit of the inputs. Points mapped to infinity get the largest double.
inline double HomographyTransferSquaredError(const Eigen::Matrix3d& h, const Eigen::Vector2d& x1,
                                             const Eigen::Vector2d& x2) {
  const Eigen::Vector3d mapped = h * Eigen::Vector3d(x1.x(), x1.y(), 1.0);
  if (mapped.z() == 0.0) return std::numeric_limits<double>::max();
  return (mapped.head<2>() / mapped.z() - x2).squaredNorm();
}

}  // namespace proj
