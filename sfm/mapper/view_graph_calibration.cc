#include "sfm/mapper/view_graph_calibration.h"

#include "core/check.h"
#include "core/logging.h"
#include "core/timer.h"
#include "sfm/mapper/relative_pose_update.h"

namespace proj {

void ViewGraphCalibrationOptions::Check() const {
  focal.Check();
  PROJ_REQUIRE(min_pair_inliers >= 8, "view graph calibration min_pair_inliers must be >= 8");
  PROJ_REQUIRE(relative_pose_max_error_px > 0, "relative_pose_max_error_px must be > 0");
  PROJ_REQUIRE(max_pairs_reestimated >= 0, "view graph calibration max_pairs_reestimated must be >= 0");
}

int ReestimateRelativePoses(const ViewGraphCalibrationOptions& options, int num_threads, uint64_t seed,
                            const std::vector<Camera>& previous_cameras, const Scene& scene,
                            std::vector<VerifiedPair>* pairs) {
  RelativePoseUpdateOptions update;
  update.max_error_px = options.relative_pose_max_error_px;
  update.max_pairs = options.max_pairs_reestimated;
  update.num_threads = num_threads;
  update.seed = seed;
  return UpdateRelativePoses(update, previous_cameras, scene, pairs);
}

const std::vector<VerifiedPair>& CalibrateViewGraph(const ViewGraphCalibrationOptions& options,
                                                    int num_threads, uint64_t seed,
                                                    const std::vector<VerifiedPair>& pairs,
                                                    Scene* scene, std::vector<VerifiedPair>* updated,
                                                    ViewGraphCalibration* result) {
  *result = ViewGraphCalibration();
  updated->clear();
  if (!options.enabled) return pairs;
  options.Check();
  const Timer timer;
  const std::vector<Camera> priors = scene->cameras;
  result->cameras = CalibrateFocalLengths(options.focal, *scene, pairs, options.min_pair_inliers);
  bool changed = false;
  for (const CameraFocalCalibration& camera : result->cameras) {
    if (!camera.calibrated) continue;
    Camera& calibrated = scene->cameras[camera.camera_id];
    for (int index : calibrated.FocalIndices()) calibrated.params[index] *= camera.focal_px / camera.prior_px;
    changed = true;
    PROJ_LOG(kInfo, "focal length of camera " << camera.camera_id << " from " << camera.num_pairs
                                              << " pairs: " << camera.prior_px << " -> " << camera.focal_px
                                              << " px (sharpness " << camera.sharpness << ")");
  }
  if (!changed) return pairs;
  const double calibration_seconds = timer.ElapsedSeconds();
  *updated = pairs;
  result->num_pairs_reestimated = ReestimateRelativePoses(options, num_threads, seed, priors, *scene, updated);
  PROJ_LOG(kInfo, "relative poses estimated again under the calibrated focal lengths: "
                      << result->num_pairs_reestimated << " pairs (calibration " << calibration_seconds
                      << " s, poses " << timer.ElapsedSeconds() - calibration_seconds << " s)");
  if (result->num_pairs_reestimated == 0) {
    updated->clear();
    return pairs;
  }
  return *updated;
}

}  // namespace proj
