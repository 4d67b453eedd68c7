// Focal lengths from the view graph, before rotation averaging (the view graph calibration of
// global SfM: Sweeney et al., "Optimizing the Viewing Graph for Structure-from-Motion", ICCV
// 2015; GLOMAP). A relative rotation decomposed from E = K2^T F K1 under a wrong focal length
// is wrong by an amount that grows with the rotation, and the errors of different pairs do not
// cancel: on the 50-image synthetic ring (focal prior 1536 px without EXIF, true 1100 px) the
// verified pairs' rotations were off by 13.6 deg in the median, 0.5 deg at the true focal
// length, and the averaged rotations were wrong. The incremental mapper recovers the focal
// length by bundle adjustment as the model grows; the global mapper needs it first.
//
// Criterion (Mendonca & Cipolla, "A simple technique for self-calibration", CVPR 1999): the
// essential matrix of the right focal lengths has two equal non-zero singular values, so each
// pair contributes the gap (s1 - s2) / (s1 + s2) of K2^T F K1 (as the smooth residual
// 2 E E^T E - tr(E E^T) E), under a Cauchy loss that ignores pairs with a wrong F. Each
// camera's focal length is searched on a log grid around its prior (coordinate descent over
// cameras), then all are refined together (Levenberg-Marquardt, Ceres). Cameras whose focal
// length came from EXIF (Scene::focal_priors_px) keep it: view graphs where the criterion is
// flat exist (parallel optical axes: a nadir survey), and a trusted prior is better there.
#pragma once

#include <vector>

#include "sfm/scene/scene.h"
#include "sfm/scene/view_graph.h"

namespace proj {

struct FocalCalibrationOptions {
  // Search range, as multiples of the camera's prior focal length.
  double min_focal_ratio = 0.25;
  double max_focal_ratio = 4;
  // Cauchy scale of the per-pair gap: 0.005 puts the minimum within 1% of the true focal
  // length on the synthetic ring and castle-P19 (0.05: 17% too short; flat minimum).
  double robust_scale = 0.005;
  // A camera is calibrated from at least this many pairs (calibrated or uncalibrated
  // configuration, with min_pair_inliers inliers) ...
  int min_num_pairs = 5;
  // ... and only where the cost at the minimum is lower, by at least this fraction, than
  // at the minimum's focal length times and divided by 1.25 (a well-defined minimum);
  // otherwise the prior stays.
  double min_sharpness = 0.05;
  int max_sweeps = 10;  // coordinate descent sweeps over the cameras
  void Check() const;
};

struct CameraFocalCalibration {
  int camera_id = 0;
  int num_pairs = 0;
  double prior_px = 0;
  double focal_px = 0;       // the estimate (the prior when not calibrated)
  double sharpness = 0;      // see FocalCalibrationOptions::min_sharpness
  bool from_exif = false;    // kept: Scene::focal_priors_px has it
  bool calibrated = false;   // focal_px estimated and accepted
};

// One entry per camera of `scene` (cameras of no usable pair: not calibrated). Pairs with
// fewer than min_pair_inliers inliers, planar or panoramic pairs (F is ill-defined for a
// plane) and pairs without F are not used.
std::vector<CameraFocalCalibration> CalibrateFocalLengths(const FocalCalibrationOptions& options,
                                                          const Scene& scene,
                                                          const std::vector<VerifiedPair>& pairs,
                                                          int min_pair_inliers);

}  // namespace proj
