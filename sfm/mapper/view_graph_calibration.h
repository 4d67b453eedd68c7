// The step both mappers start with: focal lengths of the cameras without an EXIF focal length
// from the verified pairs' fundamental matrices (focal_calibration.h), and the relative poses
// of their pairs estimated again under them (relative_pose_update.h).
//
// Without EXIF (video frames, stripped photos) a camera starts from the guess 1.2 x the larger
// image side, often 2x off. The global mapper averages rotations decomposed under that guess;
// the incremental mapper starts its model from such a pair and bundle adjustment may settle in
// a wrong minimum: on the synthetic street (true focal 720 px, guess 1471 px) the sequential
// matcher's model ended at 768 px with k1 = 0.046, 3.0 deg of rotation error and 0.25 px of
// reprojection error, against 722 px, 0.16 deg and 0.19 px from a calibrated start.
#pragma once

#include <cstdint>
#include <vector>

#include "sfm/mapper/focal_calibration.h"
#include "sfm/scene/scene.h"
#include "sfm/scene/view_graph.h"

namespace proj {

struct ViewGraphCalibrationOptions {
  bool enabled = true;
  FocalCalibrationOptions focal;
  int min_pair_inliers = 30;  // pairs with fewer inlier matches do not calibrate
  // Essential matrix RANSAC threshold of the pairs estimated again (as verification's,
  // TwoViewGeometryOptions::max_error_px).
  double relative_pose_max_error_px = 4.0;
  // Pairs whose poses are estimated again, those with the most inliers
  // (RelativePoseUpdateOptions::max_pairs; 0 = all). The incremental mapper uses pair poses
  // only for its initial pair's candidates (10,192 pairs of the 150-image ring would cost
  // seconds); the global mapper averages them all and sets 0.
  int max_pairs_reestimated = 1000;
  void Check() const;
};

struct ViewGraphCalibration {
  std::vector<CameraFocalCalibration> cameras;  // per camera; empty when not enabled
  int num_pairs_reestimated = 0;
};

// The relative poses of the pairs whose cameras changed from `previous_cameras` to the scene's,
// estimated again (at most options.max_pairs_reestimated of them, as RelativePoseUpdateOptions
// says). Returns their number.
int ReestimateRelativePoses(const ViewGraphCalibrationOptions& options, int num_threads, uint64_t seed,
                            const std::vector<Camera>& previous_cameras, const Scene& scene,
                            std::vector<VerifiedPair>* pairs);

// Calibrates the focal lengths the pairs constrain (the scene's cameras change; cameras with
// an EXIF focal length keep it) and estimates the relative poses of their pairs again (at most
// options.max_pairs_reestimated of them).
// Returns the pairs to use: `pairs` itself when nothing changed, else *updated.
const std::vector<VerifiedPair>& CalibrateViewGraph(const ViewGraphCalibrationOptions& options,
                                                    int num_threads, uint64_t seed,
                                                    const std::vector<VerifiedPair>& pairs,
                                                    Scene* scene, std::vector<VerifiedPair>* updated,
                                                    ViewGraphCalibration* result);

}  // namespace proj
