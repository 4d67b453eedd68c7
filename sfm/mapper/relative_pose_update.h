// Relative poses of the verified pairs under new focal lengths (after focal_calibration.h):
// verification decomposed each pair's essential matrix under the focal priors, so where a
// camera's focal length changed, the pose is estimated again from the pair's inlier matches.
#pragma once

#include <cstdint>
#include <vector>

#include "geometry/camera/camera.h"
#include "sfm/scene/scene.h"
#include "sfm/scene/view_graph.h"

namespace proj {

struct RelativePoseUpdateOptions {
  double max_error_px = 4.0;  // essential matrix RANSAC threshold (verification's)
  double min_focal_change = 1e-3;  // relative: smaller changes keep the pose
  // At most this many pairs are estimated again, those with the most inlier matches; the other
  // pairs of changed cameras lose their pose (0 = no limit). The incremental mapper uses pair
  // poses only to choose its initial pair, among the pairs with the most inliers, and estimates
  // a pose it lacks when it tries the pair; the global mapper averages them all.
  int max_pairs = 0;
  int num_threads = 0;  // 0 = all cores
  uint64_t seed = 0;
  void Check() const;
};

// For each calibrated or uncalibrated pair one of whose cameras has a focal length in `scene`
// that differs from `previous_cameras` (indexed alike): the essential matrix by RANSAC on the
// pair's inlier matches in the scene's cameras' normalized coordinates and its pose by
// cheirality. Configuration and inlier matches stay (tracks are built from them). Planar and
// panoramic pairs
// keep their pose (the global mapper averages no planar pair by default; a panorama's rotation
// was fit at the focal scale that makes its homography a rotation). A pair whose essential
// matrix fails loses its pose, as do those beyond max_pairs. Returns the number of pairs
// estimated again.
int UpdateRelativePoses(const RelativePoseUpdateOptions& options,
                        const std::vector<Camera>& previous_cameras, const Scene& scene,
                        std::vector<VerifiedPair>* pairs);

}  // namespace proj
