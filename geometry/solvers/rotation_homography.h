// Whether a pixel homography is the image motion of a pure rotation, H ~ K2 R K1^-1, when the
// focal lengths are known only roughly. With wrong focal priors K^-1 H K is no rotation, so
// judging it under the priors (or decomposing it) finds a translation that is not there.
// Here the focal lengths are scaled together (their ratio kept) until K2^-1 H K1 is closest
// to a scaled rotation; the principal points are taken as given. A planar scene seen with
// translation t at plane distance d stays at least ~|t|/d away from any rotation, whatever
// the focal length, so the test separates panoramas from planes with parallax.
#pragma once

#include <Eigen/Core>

namespace proj {

struct RotationHomographyFit {
  double focal_scale = 1;      // of the priors' focal lengths, in [1/4, 4]
  // The best scale is at an end of the range: no focal length makes H a rotation (a plane
  // seen with sideways translation approaches one only as the focal length grows).
  bool at_range_limit = true;
  double deviation = 1e9;      // singular value ratio - 1 of K2^-1 H K1 at that scale (0: rotation)
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();  // nearest rotation, cam2_from_cam1
};

// k1, k2: calibration matrices of the priors (pixels from normalized coordinates). H is a
// pure rotation's when !at_range_limit and deviation is small (about the tangent of the
// parallax angle that would remain).
RotationHomographyFit FitRotationHomography(const Eigen::Matrix3d& h_px, const Eigen::Matrix3d& k1,
                                            const Eigen::Matrix3d& k2);

}  // namespace proj
