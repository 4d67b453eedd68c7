#include "matching/two_view_geometry.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/check.h"
#include "geometry/ransac/estimate_two_view.h"
#include "geometry/solvers/essential_decomposition.h"
#include "geometry/solvers/fundamental_matrix.h"
#include "geometry/solvers/homography_decomposition.h"
#include "geometry/solvers/rotation_homography.h"
#include "geometry/solvers/triangulation.h"

namespace proj {

std::string TwoViewConfigurationName(TwoViewConfiguration configuration) {
  switch (configuration) {
    case TwoViewConfiguration::kDegenerate: return "degenerate";
    case TwoViewConfiguration::kCalibrated: return "calibrated";
    case TwoViewConfiguration::kUncalibrated: return "uncalibrated";
    case TwoViewConfiguration::kPlanar: return "planar";
    case TwoViewConfiguration::kPanoramic: return "panoramic";
  }
  return "unknown";
}

void TwoViewGeometryOptions::Check() const {
  PROJ_REQUIRE(min_num_inliers >= 8, "two-view min_num_inliers must be >= 8");
  PROJ_REQUIRE(max_error_px > 0, "two-view max_error_px must be > 0");
  PROJ_REQUIRE(confidence > 0 && confidence < 1, "two-view confidence must be in (0, 1)");
  PROJ_REQUIRE(max_ransac_iterations > 0, "two-view max_ransac_iterations must be > 0");
  PROJ_REQUIRE(min_ransac_iterations > 0 && min_ransac_iterations <= max_ransac_iterations,
               "two-view min_ransac_iterations must be in [1, max_ransac_iterations]");
}

namespace {

// Median triangulation angle (degrees) of the masked correspondences under cam2_from_cam1:
// tells a planar scene seen with parallax from a pure rotation (panorama).
double MedianParallaxDeg(const Rigid3d& cam2_from_cam1, const std::vector<Eigen::Vector2d>& n1,
                         const std::vector<Eigen::Vector2d>& n2, const std::vector<char>& mask) {
  const Rigid3d cam1;
  const Eigen::Vector3d c1 = cam1.Center(), c2 = cam2_from_cam1.Center();
  std::vector<double> angles;
  for (size_t i = 0; i < n1.size(); ++i) {
    Eigen::Vector3d point;
    if (!mask[i] || !TriangulatePointDlt(cam1, cam2_from_cam1, n1[i], n2[i], &point)) continue;
    angles.push_back(TriangulationAngle(c1, c2, point));
  }
  if (angles.empty()) return 0;
  std::nth_element(angles.begin(), angles.begin() + angles.size() / 2, angles.end());
  return angles[angles.size() / 2] * 180.0 / M_PI;
}

int CountMask(const std::vector<char>& mask) {
  return static_cast<int>(std::count(mask.begin(), mask.end(), 1));
}

// Matched points, one entry per match: pixels and normalized coordinates in both images.
struct MatchedPoints {
  std::vector<Eigen::Vector2d> pixels1, pixels2, normalized1, normalized2;
  explicit MatchedPoints(size_t count) {
    pixels1.reserve(count);
    pixels2.reserve(count);
    normalized1.reserve(count);
    normalized2.reserve(count);
  }
};

// The largest median parallax (degrees) on the masked correspondences among the poses that
// RecoverPoseFromHomography keeps for H (pixels) under the cameras' priors.
double MaxHomographyParallaxDeg(const Eigen::Matrix3d& h, const Camera& camera1,
                                const Camera& camera2, const MatchedPoints& points,
                                const std::vector<char>& mask) {
  const Eigen::Matrix3d h_normalized =
      camera2.CalibrationMatrix().inverse() * h * camera1.CalibrationMatrix();
  std::vector<HomographyPose> poses;
  RecoverPoseFromHomography(h_normalized, points.normalized1, points.normalized2, &mask, &poses);
  double parallax = 0.0;
  for (const HomographyPose& pose : poses) {
    parallax = std::max(parallax, MedianParallaxDeg(pose.cam2_from_cam1, points.normalized1,
                                                    points.normalized2, mask));
  }
  return parallax;
}

// The essential matrix nearest to K2^T F K1 under the cameras' priors.
Eigen::Matrix3d EssentialFromFundamental(const Eigen::Matrix3d& f, const Camera& camera1,
                                         const Camera& camera2) {
  return ProjectToEssentialManifold(camera2.CalibrationMatrix().transpose() * f *
                                    camera1.CalibrationMatrix());
}

// Sets result->cam2_from_cam1 for its configuration from the correspondences in `mask` (the
// pair's inliers), choosing among candidate poses by cheirality. `epipolar_pose` comes from
// the pair's essential matrix with `num_epipolar_in_front` correspondences in front (0: none).
void SetRelativePose(const Camera& camera1, const Camera& camera2, const MatchedPoints& points,
                     const std::vector<char>& mask, const Rigid3d& epipolar_pose,
                     int num_epipolar_in_front, TwoViewGeometry* result) {
  std::vector<HomographyPose> homography_poses;
  int num_homography_in_front = 0;
  if (result->configuration == TwoViewConfiguration::kPlanar ||
      result->configuration == TwoViewConfiguration::kPanoramic) {
    const Eigen::Matrix3d h_normalized =
        camera2.CalibrationMatrix().inverse() * result->H * camera1.CalibrationMatrix();
    num_homography_in_front = RecoverPoseFromHomography(
        h_normalized, points.normalized1, points.normalized2, &mask, &homography_poses);
  }
  if (result->configuration == TwoViewConfiguration::kPanoramic) {
    // No parallax: the translation is not observable, so it is left zero (as in COLMAP).
    if (num_homography_in_front == 0) return;
    result->cam2_from_cam1 = Rigid3d(homography_poses.front().cam2_from_cam1.rotation,
                                     Eigen::Vector3d::Zero());
  } else if (num_homography_in_front > 0 &&
             num_homography_in_front >= num_epipolar_in_front) {
    // Planar, unless E puts more points in front. Of the Faugeras-Lustman pair of plane
    // solutions the visible-side test usually keeps one; if both survive, nothing without a
    // third view or off-plane points tells them apart.
    const Rigid3d& pose = homography_poses.front().cam2_from_cam1;
    result->cam2_from_cam1 = Rigid3d(pose.rotation, pose.translation.normalized());
  } else if (num_epipolar_in_front > 0) {
    result->cam2_from_cam1 = epipolar_pose;
  } else {
    return;
  }
  result->has_relative_pose = true;
}

// The estimate and classification on the matched points.
TwoViewGeometry Estimate(const TwoViewGeometryOptions& options, const Camera& camera1,
                         const Camera& camera2, const MatchedPoints& points,
                         const std::vector<FeatureMatch>& matches) {
  TwoViewGeometry result;
  const std::vector<Eigen::Vector2d>& pixels1 = points.pixels1;
  const std::vector<Eigen::Vector2d>& pixels2 = points.pixels2;
  const std::vector<Eigen::Vector2d>& normalized1 = points.normalized1;
  const std::vector<Eigen::Vector2d>& normalized2 = points.normalized2;
  RansacOptions ransac;
  ransac.max_error = options.max_error_px;
  ransac.confidence = options.confidence;
  ransac.max_iterations = options.max_ransac_iterations;
  ransac.seed = options.seed;
  ransac.min_iterations = options.min_ransac_iterations;
  // Only models with min_num_inliers inliers matter: each estimate gives up once none is
  // likely, which ends unrelated pairs (a few random matches) after a few hundred samples.
  ransac.min_num_inliers = options.min_num_inliers;
  ransac.give_up_below_min_num_inliers = true;
  // F first: with one focal scale the inliers of any E are inliers of the F it induces, so
  // when no F has min_num_inliers inliers no E has either, and the pair is degenerate.
  const auto f_report = EstimateFundamentalMatrix(ransac, pixels1, pixels2);
  result.num_f_inliers = f_report.success ? CountMask(f_report.inlier_mask) : 0;
  if (!f_report.success) return result;
  result.F = f_report.model;
  RansacOptions ransac_e = ransac;
  ransac_e.max_error = options.max_error_px / (0.5 * (camera1.MeanFocal() + camera2.MeanFocal()));
  // E's inliers are inliers of the F it induces; sampling among F's inliers finds E after a
  // few dozen samples where sampling all matches of a weak pair takes thousands.
  const auto e_report =
      EstimateEssentialMatrix(ransac_e, normalized1, normalized2, &f_report.inlier_mask);
  result.num_e_inliers = e_report.success ? CountMask(e_report.inlier_mask) : 0;
  if (e_report.success) result.E = e_report.model;

  const bool calibrated =
      result.num_e_inliers >= options.min_e_f_inlier_ratio * result.num_f_inliers;
  const std::vector<char>& mask = calibrated ? e_report.inlier_mask : f_report.inlier_mask;
  const int num_inliers = calibrated ? result.num_e_inliers : result.num_f_inliers;
  // The homography matters only above max_h_inlier_ratio * num_inliers inliers (planar or
  // panoramic); below, its count is left 0. Without a dominant plane it never reaches its
  // adaptive stopping point; a smaller cap keeps verification fast while still detecting
  // planar pairs reliably.
  RansacOptions ransac_h = ransac;
  ransac_h.max_iterations = std::min(ransac.max_iterations, 2000);
  ransac_h.min_num_inliers = static_cast<int>(std::floor(options.max_h_inlier_ratio * num_inliers)) + 1;
  // A dominant plane's points are inliers of the epipolar geometry: sampled among those.
  const auto h_report = EstimateHomography(ransac_h, pixels1, pixels2, &mask);
  result.num_h_inliers = h_report.success ? CountMask(h_report.inlier_mask) : 0;
  if (h_report.success) result.H = h_report.model;
  result.configuration =
      calibrated ? TwoViewConfiguration::kCalibrated : TwoViewConfiguration::kUncalibrated;
  // The epipolar pose on the pair's inliers. Uncalibrated pairs get theirs from F and the focal
  // priors: often poor, but the mapper may still recover from it (as in COLMAP).
  const Eigen::Matrix3d essential =
      calibrated ? e_report.model : EssentialFromFundamental(f_report.model, camera1, camera2);
  Rigid3d epipolar_pose;
  const int num_epipolar_in_front =
      RecoverPoseFromEssential(essential, normalized1, normalized2, &mask, &epipolar_pose);
  if (result.num_h_inliers > options.max_h_inlier_ratio * num_inliers && e_report.success) {
    // The parallax under E's own pose on E's inliers: that is the pose above when calibrated.
    Rigid3d e_pose = epipolar_pose;
    const int num_e_in_front =
        calibrated ? num_epipolar_in_front
                   : RecoverPoseFromEssential(e_report.model, normalized1, normalized2,
                                              &e_report.inlier_mask, &e_pose);
    double parallax =
        num_e_in_front == 0
            ? 0.0
            : MedianParallaxDeg(e_pose, normalized1, normalized2, e_report.inlier_mask);
    // On a plane, E has a twin solution explaining the same points (the five-point problem's
    // planar ambiguity), whose pose may show no parallax: which of the two RANSAC keeps is a
    // coin flip. The homography's own decompositions tell the translation of a planar pair.
    if (parallax < options.min_panoramic_tri_angle_deg) {
      parallax = std::max(parallax, MaxHomographyParallaxDeg(result.H, camera1, camera2, points,
                                                             h_report.inlier_mask));
    }
    // With wrong focal priors a rotation's E finds parallax that is not there; the
    // homography itself tells a rotation whatever the focal length.
    const RotationHomographyFit rotation = FitRotationHomography(
        result.H, camera1.CalibrationMatrix(), camera2.CalibrationMatrix());
    const bool rotation_only =
        !rotation.at_range_limit &&
        rotation.deviation < std::tan(options.min_panoramic_tri_angle_deg * M_PI / 180.0);
    result.configuration = parallax < options.min_panoramic_tri_angle_deg || rotation_only
                               ? TwoViewConfiguration::kPanoramic
                               : TwoViewConfiguration::kPlanar;
    if (rotation_only) {
      result.cam2_from_cam1 = Rigid3d(Eigen::Quaterniond(rotation.rotation), Eigen::Vector3d::Zero());
      result.has_relative_pose = true;
    }
  }
  if (!result.has_relative_pose) {
    SetRelativePose(camera1, camera2, points, mask, epipolar_pose, num_epipolar_in_front, &result);
  }
  for (size_t i = 0; i < matches.size(); ++i) {
    if (mask[i]) result.inlier_matches.push_back(matches[i]);
  }
  return result;
}

}  // namespace

TwoViewGeometry EstimateTwoViewGeometry(const TwoViewGeometryOptions& options,
                                        const Camera& camera1,
                                        const std::vector<Eigen::Vector2d>& keypoints1,
                                        const Camera& camera2,
                                        const std::vector<Eigen::Vector2d>& keypoints2,
                                        const std::vector<FeatureMatch>& matches) {
  if (static_cast<int>(matches.size()) < options.min_num_inliers) return {};
  MatchedPoints points(matches.size());
  for (const auto& m : matches) {
    points.pixels1.push_back(keypoints1[m.index1]);
    points.pixels2.push_back(keypoints2[m.index2]);
    points.normalized1.push_back(camera1.PixelToNormalized(points.pixels1.back()));
    points.normalized2.push_back(camera2.PixelToNormalized(points.pixels2.back()));
  }
  return Estimate(options, camera1, camera2, points, matches);
}

TwoViewPoints MakeTwoViewPoints(const Camera& camera, std::vector<Eigen::Vector2d> pixels) {
  TwoViewPoints points;
  points.camera = camera;
  points.pixels = std::move(pixels);
  points.normalized.reserve(points.pixels.size());
  for (const Eigen::Vector2d& pixel : points.pixels) {
    points.normalized.push_back(camera.PixelToNormalized(pixel));
  }
  return points;
}

TwoViewGeometry EstimateTwoViewGeometry(const TwoViewGeometryOptions& options,
                                        const TwoViewPoints& image1, const TwoViewPoints& image2,
                                        const std::vector<FeatureMatch>& matches) {
  if (static_cast<int>(matches.size()) < options.min_num_inliers) return {};
  MatchedPoints points(matches.size());
  for (const auto& m : matches) {
    points.pixels1.push_back(image1.pixels[m.index1]);
    points.pixels2.push_back(image2.pixels[m.index2]);
    points.normalized1.push_back(image1.normalized[m.index1]);
    points.normalized2.push_back(image2.normalized[m.index2]);
  }
  return Estimate(options, image1.camera, image2.camera, points, matches);
}

TwoViewGeometry EstimateListedPairGeometry(const TwoViewGeometryOptions& options, size_t index,
                                           const TwoViewPoints& image1, const TwoViewPoints& image2,
                                           const std::vector<FeatureMatch>& matches) {
  TwoViewGeometryOptions pair_options = options;
  pair_options.seed = options.seed + static_cast<uint64_t>(index);
  return EstimateTwoViewGeometry(pair_options, image1, image2, matches);
}

}  // namespace proj
