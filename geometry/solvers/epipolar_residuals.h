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
// Written out in scalars and without branches: RANSAC evaluates it for every datum of every
// hypothesis, in loops the compiler vectorizes (an invalid value becomes a large penalty).
inline double SampsonSquaredError(const Eigen::Matrix3d& f, const Eigen::Vector2d& x1,
                                  const Eigen::Vector2d& x2) {
  const double x = x1.x(), y = x1.y(), u = x2.x(), v = x2.y();
  const double f_x1_0 = f(0, 0) * x + f(0, 1) * y + f(0, 2);  // F (x, y, 1)
  const double f_x1_1 = f(1, 0) * x + f(1, 1) * y + f(1, 2);
  const double f_x1_2 = f(2, 0) * x + f(2, 1) * y + f(2, 2);
  const double ft_x2_0 = f(0, 0) * u + f(1, 0) * v + f(2, 0);  // F^T (u, v, 1)
  const double ft_x2_1 = f(0, 1) * u + f(1, 1) * v + f(2, 1);
  const double numerator = u * f_x1_0 + v * f_x1_1 + f_x1_2;
  const double denominator =
      f_x1_0 * f_x1_0 + f_x1_1 * f_x1_1 + ft_x2_0 * ft_x2_0 + ft_x2_1 * ft_x2_1;
  // Selects between constants only: those the compiler turns into vector blends.
  const bool valid = denominator > 0.0;
  const double penalty = valid ? 0.0 : std::numeric_limits<double>::max();
  return numerator * numerator / (denominator + (valid ? 0.0 : 1.0)) + penalty;
}

// Squared one-sided transfer error |x2 - H x1|^2 (x1 mapped by H into image 2), in the squared
// unit of the inputs. Points mapped to infinity get the largest double.
inline double HomographyTransferSquaredError(const Eigen::Matrix3d& h, const Eigen::Vector2d& x1,
                                             const Eigen::Vector2d& x2) {
  const double x = x1.x(), y = x1.y();
  const double w = h(2, 0) * x + h(2, 1) * y + h(2, 2);
  const bool valid = w != 0.0;
  const double penalty = valid ? 0.0 : std::numeric_limits<double>::max();
  const double inverse_w = 1.0 / (w + (valid ? 0.0 : 1.0));
  const double du = (h(0, 0) * x + h(0, 1) * y + h(0, 2)) * inverse_w - x2.x();
  const double dv = (h(1, 0) * x + h(1, 1) * y + h(1, 2)) * inverse_w - x2.y();
  return du * du + dv * dv + penalty;
}

}  // namespace proj
