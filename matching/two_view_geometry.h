// Geometric verification of putative matches between two images, as the best SfM systems do
// it (COLMAP's TwoViewGeometry): estimate the essential matrix (calibrated, from the focal
// length priors), the fundamental matrix and a homography by LO-RANSAC, keep the inliers of
// the model that explains the pair, and classify the pair:
//  - calibrated: E explains (almost) all F inliers, so the focal priors are consistent;
//  - uncalibrated: F explains clearly more than E (wrong focal priors);
//  - planar: a homography explains most inliers and the cameras translate (flat ground from
//    a drone, a facade);
//  - panoramic: a homography explains most inliers and the cameras only rotate (no parallax:
//    useless for triangulation);
//  - degenerate: fewer than min_num_inliers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "geometry/camera/camera.h"
#include "geometry/rigid3.h"
#include "matching/matching_types.h"

namespace proj {

enum class TwoViewConfiguration { kDegenerate, kCalibrated, kUncalibrated, kPlanar, kPanoramic };
std::string TwoViewConfigurationName(TwoViewConfiguration configuration);

struct TwoViewGeometryOptions {
  int min_num_inliers = 15;
  double max_error_px = 4.0;            // epipolar (Sampson) / transfer error threshold
  double min_e_f_inlier_ratio = 0.95;   // E/F inliers at or above: calibrated
  double max_h_inlier_ratio = 0.8;      // H/(E or F) inliers above: planar or panoramic
  double min_panoramic_tri_angle_deg = 1.0;  // median parallax below: panoramic
  double confidence = 0.999;
  int max_ransac_iterations = 10000;
  // The adaptive count stops far earlier on clean pairs (KLT, close views); this floor only
  // guards against an early lucky sample.
  int min_ransac_iterations = 30;
  uint64_t seed = 0;
  void Check() const;
};

struct TwoViewGeometry {
  TwoViewConfiguration configuration = TwoViewConfiguration::kDegenerate;
  std::vector<FeatureMatch> inlier_matches;
  int num_e_inliers = 0, num_f_inliers = 0, num_h_inliers = 0;
  // The RANSAC models, zero where that estimate failed (also for degenerate pairs).
  Eigen::Matrix3d F = Eigen::Matrix3d::Zero();  // pixels, x2^T F x1 = 0
  Eigen::Matrix3d E = Eigen::Matrix3d::Zero();  // normalized coordinates, n2^T E n1 = 0
  Eigen::Matrix3d H = Eigen::Matrix3d::Zero();  // pixels, x2 ~ H x1
  // Relative pose when has_relative_pose (every non-degenerate configuration unless no
  // candidate puts an inlier in front of both cameras), so that the mapper can start from it
  // instead of estimating it again. Chosen by cheirality on inlier_matches among the
  // decompositions of:
  //  - calibrated: E;
  //  - uncalibrated: the essential matrix nearest to K2^T F K1 of the focal priors (E may
  //    disagree with it: E is the calibrated model, with fewer inliers);
  //  - planar: K2^-1 H K1 (geometry/solvers/homography_decomposition.h), or E's pose (K2^T F K1's
  //    when uncalibrated) where that has more inliers in front;
  //  - panoramic: the rotation of K2^-1 H K1 (at the focal length that makes it one, when the
//    priors are off: geometry/solvers/rotation_homography.h), translation zero (not observable).
  // The translation has unit length otherwise.
  bool has_relative_pose = false;
  Rigid3d cam2_from_cam1;
};

// keypoints*: pixels of the whole images; matches index into them. Cameras give focal priors.
TwoViewGeometry EstimateTwoViewGeometry(const TwoViewGeometryOptions& options,
                                        const Camera& camera1,
                                        const std::vector<Eigen::Vector2d>& keypoints1,
                                        const Camera& camera2,
                                        const std::vector<Eigen::Vector2d>& keypoints2,
                                        const std::vector<FeatureMatch>& matches);

// One image's keypoints as verification uses them: pixels and their normalized coordinates
// under the image's camera, converted once per image and shared by all pairs of the image.
struct TwoViewPoints {
  Camera camera;
  std::vector<Eigen::Vector2d> pixels;
  std::vector<Eigen::Vector2d> normalized;  // camera.PixelToNormalized(pixels[k])
};
TwoViewPoints MakeTwoViewPoints(const Camera& camera, std::vector<Eigen::Vector2d> pixels);

// The same estimate from prepared points (identical results).
TwoViewGeometry EstimateTwoViewGeometry(const TwoViewGeometryOptions& options,
                                        const TwoViewPoints& image1, const TwoViewPoints& image2,
                                        const std::vector<FeatureMatch>& matches);

// Pair number `index` of a list of pairs (the pipeline's verification of all pairs): RANSAC is
// seeded with options.seed + index, so the result does not depend on which thread verifies
// the pair or when.
TwoViewGeometry EstimateListedPairGeometry(const TwoViewGeometryOptions& options, size_t index,
                                           const TwoViewPoints& image1, const TwoViewPoints& image2,
                                           const std::vector<FeatureMatch>& matches);

}  // namespace proj
